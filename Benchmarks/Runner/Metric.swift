/// Every quantity the runner can record, with its unit and how to read it.
///
/// Counts are taken over one *sample*: `iterationsPerSample` calls of the case's measured
/// iteration (recorded next to the metrics in the result file). Times are per iteration.
/// Only deterministic metrics are gated by `cog-bench check`; time is reported as
/// min/median/max over samples and compared as ratios measured in the same run.
enum Metric: String, CaseIterable, Codable, Comparable {
  /// Instructions executed in one sample, counted by callgrind (`Ir`) with the runner re-run
  /// under valgrind. Identical run to run for the same binary and inputs; a rebuild or an
  /// unrelated code change may move heap layout and shift it slightly.
  case instructions
  /// Heap allocation requests in one sample (malloc, calloc, realloc, aligned allocations).
  /// The source (jemalloc or the malloc interposer) is named in the result file.
  case allocations
  /// Bytes allocated in one sample: requested sizes with the interposer, size classes with
  /// jemalloc; only comparable between results of the same source.
  case allocatedBytes
  /// The highest number of live heap bytes above the sample's start, within one sample.
  case peakBytes
  /// Bytes still allocated after the case built its graph (`prepare`, not a sample): the
  /// memory a graph holds.
  case graphBytes
  /// `swift_retain` calls plus `swift_retain_n`'s n in one sample.
  case retains
  /// `swift_release` calls plus `swift_release_n`'s n in one sample.
  case releases
  /// Wall-clock nanoseconds per iteration (monotonic clock), min/median/max over samples.
  /// Noisy on shared machines: read it as a ratio between systems of the same run.
  case wallTime
  /// Thread CPU nanoseconds per iteration, min/median/max over samples. Also noisy.
  case cpuTime

  enum Polarity: String, Codable {
    case prefersSmaller
    case prefersLarger
  }

  var unit: String {
    switch self {
    case .instructions: return "Ir/sample"
    case .allocations: return "allocations/sample"
    case .allocatedBytes, .peakBytes: return "bytes/sample"
    case .graphBytes: return "bytes"
    case .retains: return "retains/sample"
    case .releases: return "releases/sample"
    case .wallTime, .cpuTime: return "ns/iteration"
    }
  }

  var polarity: Polarity { .prefersSmaller }

  /// True for counts that are identical run to run; only these are gated.
  var isDeterministic: Bool {
    switch self {
    case .wallTime, .cpuTime: return false
    default: return true
    }
  }

  /// True for metrics recorded as min/median/max over samples.
  var isTime: Bool { !isDeterministic }

  /// Metrics counted in-process with the allocation counter.
  var usesAllocationCounter: Bool {
    [.allocations, .allocatedBytes, .peakBytes, .graphBytes].contains(self)
  }

  /// Metrics counted in-process with the ARC hooks.
  var usesARCCounter: Bool { self == .retains || self == .releases }

  static func < (a: Metric, b: Metric) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
