import CCogCounters

/// Heap allocations of a measured region.
///
/// The source is fixed at build time and named in every result: jemalloc statistics when the
/// package was built with `COG_HAVE_JEMALLOC` (libjemalloc-dev installed, `COG_NO_JEMALLOC`
/// unset), otherwise an in-process interposer of malloc/calloc/realloc/free/memalign that
/// counts only on the current thread while hooked.
public struct AllocationProducer {
  public struct Snapshot: Equatable, Sendable {
    /// Allocation requests (malloc, calloc, realloc, aligned allocations).
    public var allocations: CounterReading
    /// Bytes allocated: requested sizes (interposer) or size classes (jemalloc).
    public var bytes: CounterReading
    /// Allocated minus freed bytes (usable sizes) at the snapshot.
    public var liveBytes: CounterReading
    /// The highest `liveBytes` reached since `reset`.
    public var peakBytes: CounterReading
  }

  public enum Source: String, Sendable, Codable {
    case interposer = "malloc-interposer"
    case jemalloc = "jemalloc"
  }

  public let source: Source
  public let availability: CounterAvailability

  /// The source this build counts with.
  public static var buildSource: Source {
    cog_alloc_source() == Int32(COG_ALLOC_SOURCE_JEMALLOC) ? .jemalloc : .interposer
  }

  @MainActor public init() {
    source = AllocationProducer.buildSource
    availability = AllocationProducer.shared
  }

  @MainActor private static let shared: CounterAvailability = {
    var reason = [CChar](repeating: 0, count: 256)
    guard cog_alloc_install(&reason, reason.count) == 1 else {
      return .unavailable(String(cString: reason))
    }
    return .available
  }()

  /// A description for result files.
  public var sourceDescription: String {
    switch source {
    case .interposer:
      return "malloc-interposer (glibc __libc_* forwarding, per thread, requested bytes)"
    case .jemalloc:
      return "jemalloc (tcache flush + epoch, small+large nrequests over all arenas; "
        + "bytes from thread.allocated, size-class rounded; process-wide)"
    }
  }

  @inline(__always) public func hook() { cog_alloc_set_enabled(1) }
  @inline(__always) public func unhook() { cog_alloc_set_enabled(0) }
  @inline(__always) public func reset() { cog_alloc_reset() }

  /// Puts this thread on allocator state that does not depend on what it did before
  /// (`cog_alloc_fresh_heap`: with jemalloc a new arena and thread cache, its thread events
  /// restarted). Returns nil when done, else why not.
  public static func freshHeap() -> String? {
    var reason = [CChar](repeating: 0, count: 256)
    return cog_alloc_fresh_heap(&reason, reason.count) == 1 ? nil : String(cString: reason)
  }

  public func snapshot() -> Snapshot {
    let c = cog_alloc_snapshot()
    let peak: CounterReading
    switch availability {
    case .unavailable(let reason): peak = .unavailable(reason)
    case .available:
      peak =
        cog_alloc_has_peak() == 1
        ? .available(Int(c.peak_bytes))
        : .unavailable(
          "jemalloc's thread.peak is an approximation; build with COG_NO_JEMALLOC=1 for an "
            + "exact peak")
    }
    return Snapshot(
      allocations: availability.reading(Int(c.allocations)),
      bytes: availability.reading(Int(c.bytes)),
      liveBytes: availability.reading(Int(c.live_bytes)),
      peakBytes: peak)
  }
}
