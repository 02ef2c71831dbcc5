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
  /// Bytes still allocated after the case was built and run once (`prepare`, its first
  /// `beforeSample` and one sample; a second build, so that the process's one-time costs are
  /// not counted): the memory a graph holds as it runs.
  case graphBytes
  /// `swift_retain` calls plus `swift_retain_n`'s n in one sample.
  case retains
  /// `swift_release` calls plus `swift_release_n`'s n in one sample.
  case releases
  /// `ObservationRegistrar`s the system owns once the case is built and has run one sample
  /// (`ReactiveSystem.registrarCount`): Cog's Observation boundaries (one per UI-read state),
  /// raw `@Observable`'s models. Recorded for the cases with UI reads (`.uiReads`), on the
  /// systems that can count them.
  case registrars
  /// Wall-clock nanoseconds per iteration (monotonic clock), min/median/max over samples.
  /// Noisy on shared machines: read it as a ratio between systems of the same run.
  case wallTime
  /// Thread CPU nanoseconds per iteration, min/median/max over samples. Also noisy.
  case cpuTime
  /// Data reads plus writes in one sample (callgrind's `Dr + Dw` with `--cache-sim=yes`),
  /// counted over the same window as `instructions` in a callgrind process of its own whose
  /// simulated caches are warmed by the build (`CacheRun`). Opt-in (`--metrics`); measured
  /// on the cases `--cache-cases` selects. Deterministic for a fixed binary and environment,
  /// like `instructions`.
  case dataAccesses
  /// First-level data cache misses in one sample (`D1mr + D1mw`) on callgrind's simulated
  /// caches, whose geometry is fixed (`CacheRun.geometry`) so that the count does not depend
  /// on the machine. Opt-in, deterministic, recorded and not gated.
  case d1Misses
  /// Last-level data cache misses in one sample (`DLmr + DLmw`), on the same fixed simulated
  /// caches. Opt-in, deterministic, recorded and not gated.
  case llMisses

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
    case .registrars: return "registrars"
    case .wallTime, .cpuTime: return "ns/iteration"
    case .dataAccesses: return "accesses/sample"
    case .d1Misses, .llMisses: return "misses/sample"
    }
  }

  var polarity: Polarity { .prefersSmaller }

  /// One sentence for the record and `list`: what the number is.
  var definition: String {
    switch self {
    case .instructions:
      return "instructions executed in one sample outside the allocator (malloc, free and "
        + "their kin are counted as allocations), counted by callgrind in a process of its own"
    case .allocations:
      return "heap allocation requests in one sample (malloc, calloc, realloc, aligned)"
    case .allocatedBytes:
      return "bytes allocated in one sample (jemalloc: size classes; interposer: requested)"
    case .peakBytes:
      return "the highest live heap bytes above the sample's start (interposer only)"
    case .graphBytes:
      return "heap bytes the case holds once built and run: live bytes after a build, its "
        + "first `beforeSample` and one sample (so graphs built in `beforeSample`, such as "
        + "CellX's, count), measured on a second build so that one-time costs of the process "
        + "(type metadata, runtime caches) are not in it"
    case .retains: return "swift_retain calls plus swift_retain_n's n in one sample"
    case .releases: return "swift_release calls plus swift_release_n's n in one sample"
    case .registrars:
      return "ObservationRegistrars the system owns after the case is built and ran one sample "
        + "(Cog: one per UI-read state; raw @Observable: one per model object); recorded for "
        + "the cases with UI reads"
    case .wallTime: return "wall-clock time per iteration (median, min–max over samples)"
    case .cpuTime: return "thread CPU time per iteration (median over samples)"
    case .dataAccesses:
      return "data reads plus writes in one sample (callgrind --cache-sim=yes, Dr + Dw); "
        + "opt-in, deterministic, not gated"
    case .d1Misses:
      return "first-level data cache misses in one sample (D1mr + D1mw) on callgrind's "
        + "simulated caches (\(CacheRun.geometryDescription), warmed by the case's build); "
        + "opt-in, deterministic, not gated"
    case .llMisses:
      return "last-level data cache misses in one sample (DLmr + DLmw) on the same simulated "
        + "caches; opt-in, deterministic, not gated"
    }
  }

  /// True for counts that are identical run to run; only these are gated.
  var isDeterministic: Bool {
    switch self {
    case .wallTime, .cpuTime: return false
    default: return true
    }
  }

  /// What `scripts/ci-gate.sh` measures and gates on the `cog*` systems (`list
  /// --gate-metrics` prints it for the script). `peakBytes` is deterministic but not gated:
  /// jemalloc, CI's counter, has no exact peak.
  static let gated: [Metric] = [
    .instructions, .allocations, .allocatedBytes, .graphBytes, .retains, .releases,
  ]

  /// What `run` measures without `--metrics`: every metric but the opt-in ones.
  static var standard: [Metric] { allCases.filter { !$0.isOptIn } }

  /// Metrics measured only when `--metrics` names them (or a glob matches them): the cache
  /// simulation runs a callgrind process per region on top of the instruction phase.
  var isOptIn: Bool { usesCacheSimulation }

  /// Metrics read from a callgrind process with the cache simulator on (`RegionRun.Kind.cache`).
  var usesCacheSimulation: Bool { [.dataAccesses, .d1Misses, .llMisses].contains(self) }

  /// The callgrind events (summary columns) whose sum is this metric; nil for the others.
  var cacheEvents: [String]? {
    switch self {
    case .dataAccesses: return ["Dr", "Dw"]
    case .d1Misses: return ["D1mr", "D1mw"]
    case .llMisses: return ["DLmr", "DLmw"]
    default: return nil
    }
  }

  /// True for metrics recorded as min/median/max over samples.
  var isTime: Bool { !isDeterministic }

  /// Metrics counted in-process with the allocation counter.
  var usesAllocationCounter: Bool {
    [.allocations, .allocatedBytes, .peakBytes, .graphBytes].contains(self)
  }

  /// Metrics read in the count phase (its own process per region, like the counters).
  var usesCountPhase: Bool { usesAllocationCounter || usesARCCounter || self == .registrars }

  /// Metrics counted in-process with the ARC hooks.
  var usesARCCounter: Bool { self == .retains || self == .releases }

  static func < (a: Metric, b: Metric) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
