import CCogCounters

/// Retains and releases of the current thread, from the Swift runtime's hook pointers.
///
/// Installation hooks `_swift_release`, `_swift_retain_n`, `_swift_release_n` and, for retain,
/// the static retain-adapter slot inside `swift_retain` (the Swift 6.3 Linux workaround
/// described in shared/research/measurement.md, section 1), then turns on the runtime's
/// swizzling flag. The hooks are never uninstalled: `unhook` only stops counting. After
/// installing, a probe retains and releases one object through opaque calls and expects
/// exactly 1 and 1 (balanced counts in debug builds); otherwise the counter is unavailable
/// with that reason.
///
/// `retains` counts `swift_retain` plus `swift_retain_n`'s n (the optimizer merges pairs of
/// retains), `releases` counts `swift_release` plus `swift_release_n`'s n. Measure release
/// builds only: debug builds add retains the optimizer removes.
public struct ARCProducer {
  public struct Snapshot: Equatable, Sendable {
    public var retains: CounterReading
    public var releases: CounterReading
  }

  public let availability: CounterAvailability
  /// Names the counter in result files.
  public static let source =
    "swift-runtime-hooks (retain adapter slot, release, retain_n, release_n)"

  /// Installs the hooks once per process and validates them (the probe: one retain and one
  /// release through opaque calls must count exactly 1 and 1 in release builds).
  @MainActor public init() {
    availability = ARCProducer.shared
  }

  private init(availability: CounterAvailability) { self.availability = availability }

  /// A producer that installs nothing and reports every reading as unavailable.
  public static let disabled = ARCProducer(
    availability: .unavailable("retains and releases were not selected"))

  @MainActor private static let shared: CounterAvailability = install()

  @MainActor private static func install() -> CounterAvailability {
    var reason = [CChar](repeating: 0, count: 256)
    guard cog_arc_install(&reason, reason.count) == 1 else {
      return .unavailable("ARC counting unavailable: " + String(cString: reason))
    }
    let probe = ARCProbe()
    let reference = Unmanaged.passUnretained(probe)
    cog_arc_reset()
    cog_arc_set_enabled(1)
    arcProbeRetain(reference)
    arcProbeRelease(reference)
    cog_arc_set_enabled(0)
    let counts = cog_arc_snapshot()
    withExtendedLifetime(probe) {}
    // Release builds count exactly the probe's retain and release; debug builds add balanced
    // traffic of their own around the calls.
    #if DEBUG
      let valid = counts.retains >= 1 && counts.retains == counts.releases
    #else
      let valid = counts.retains == 1 && counts.releases == 1
    #endif
    guard valid else {
      return .unavailable(
        "ARC hook validation failed: one retain and one release counted as "
          + "\(counts.retains) and \(counts.releases)")
    }
    return .available
  }

  @inline(__always) public func hook() { cog_arc_set_enabled(1) }
  @inline(__always) public func unhook() { cog_arc_set_enabled(0) }
  @inline(__always) public func reset() { cog_arc_reset() }

  public func snapshot() -> Snapshot {
    let counts = cog_arc_snapshot()
    return Snapshot(
      retains: availability.reading(Int(counts.retains)),
      releases: availability.reading(Int(counts.releases)))
  }
}

private final class ARCProbe {}

@inline(never) private func arcProbeRetain(_ reference: Unmanaged<ARCProbe>) {
  _ = reference.retain()
}

@inline(never) private func arcProbeRelease(_ reference: Unmanaged<ARCProbe>) {
  reference.release()
}
