import CCogCounters

/// Clocks and optimizer barriers used around measured regions.
public enum BenchClock {
  /// CLOCK_MONOTONIC in nanoseconds.
  @inline(__always) public static func monotonicNanoseconds() -> UInt64 { cog_monotonic_ns() }
  /// CLOCK_THREAD_CPUTIME_ID in nanoseconds.
  @inline(__always) public static func threadCPUNanoseconds() -> UInt64 { cog_thread_cpu_ns() }
}

/// Consumes a value through an opaque C call so the optimizer keeps the computation.
@inline(__always) public func blackHole(_ value: UInt64) { cog_black_hole(value) }

/// Returns `value` through an opaque C call so the optimizer cannot constant-fold it.
@inline(__always) public func opaque(_ value: UInt64) -> UInt64 { cog_opaque(value) }
