import CCogCounters

#if canImport(Glibc)
  import Glibc
#endif

/// Callgrind client requests around measured regions.
///
/// The runner re-executes itself under
/// `valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no`; each region is
/// `start instrumentation → zero → toggle collect → body → toggle collect → dump(name) →
/// stop instrumentation`, so that builds and warm-ups run uninstrumented (several times
/// faster); the per-region dump files carry the instruction count in their `summary:` line.
/// Natively (or without `<valgrind/callgrind.h>`) the requests are no-ops.
public struct CallgrindProducer {
  /// True when the client requests were compiled in.
  public static var isCompiled: Bool { cog_cg_compiled() == 1 }
  /// True under valgrind.
  public static var isRunningOnValgrind: Bool { cog_cg_running_on_valgrind() == 1 }

  public init() {}

  /// Turns instrumentation on (collection stays off until `hook`).
  @inline(__always) public func startInstrumentation() { cog_cg_start_instrumentation() }
  /// Turns instrumentation off; code then runs at valgrind's uninstrumented speed.
  @inline(__always) public func stopInstrumentation() { cog_cg_stop_instrumentation() }

  @inline(__always) public func reset() { cog_cg_zero_stats() }
  /// Starts collecting. Pair with `unhook`.
  @inline(__always) public func hook() { cog_cg_toggle_collect() }
  /// Stops collecting.
  @inline(__always) public func unhook() { cog_cg_toggle_collect() }

  /// Dumps the region's counts under `name`; the name must already be a C string so that the
  /// conversion is not part of any measured region.
  @inline(__always) public func dump(_ name: UnsafePointer<CChar>) { cog_cg_dump_stats_at(name) }
}

/// Hardware instruction counts from `perf_event_open`, where the machine has a PMU.
public final class PerfInstructionProducer {
  private let fd: Int32
  public let availability: CounterAvailability

  public init() {
    let result = cog_perf_open_instructions()
    if result >= 0 {
      fd = result
      availability = .available
    } else {
      fd = -1
      let message = String(cString: strerror(-result))
      availability = .unavailable(
        "perf_event_open(PERF_COUNT_HW_INSTRUCTIONS) failed: \(message) (errno \(-result))")
    }
  }

  deinit { cog_perf_close(fd) }

  @inline(__always) public func reset() { if fd >= 0 { _ = cog_perf_reset(fd) } }
  @inline(__always) public func hook() { if fd >= 0 { _ = cog_perf_enable(fd) } }
  @inline(__always) public func unhook() { if fd >= 0 { _ = cog_perf_disable(fd) } }

  public func snapshot() -> CounterReading {
    guard case .available = availability else { return availability.reading(0) }
    var value: UInt64 = 0
    let rc = cog_perf_read(fd, &value)
    if rc != 0 {
      return .unavailable("reading the perf counter failed: \(String(cString: strerror(-rc)))")
    }
    return .available(Int(value))
  }
}
