/// Which size a case runs at: `quick` is the scaled-down CI size, `full` the published size.
public enum CaseSize: String, CaseIterable, Sendable, Codable {
  case quick
  case full
}

/// Collects check failures. The success path does not allocate, so checks may run inside a
/// measured region; a failure message is formatted only when the check fails.
@MainActor
public final class CaseChecks {
  /// The first `maximumKept` failure messages.
  public private(set) var failures: [String] = []
  /// Every failed check, also those whose message was not kept.
  public private(set) var failureCount = 0
  public static let maximumKept = 20

  public init() {}

  @inlinable @inline(__always)
  public func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if _slowPath(!condition) { fail(message()) }
  }

  @inline(never)
  public func fail(_ message: String) {
    failureCount += 1
    if failures.count < Self.maximumKept { failures.append(message) }
  }
}

/// How js-reactivity-benchmark reports the case, so the runner can print a comparable number.
public struct PublishedMeasure: Sendable, Hashable {
  public enum Aggregate: String, Sendable, Hashable {
    /// The fastest of `samples` samples (Kairo, sbench, dynamicBench).
    case fastest
    /// The sum over `samples` samples (CellX: one fresh build per sample).
    case sum
  }

  /// The name the JS benchmark prints (`diamond`, `cellx1000`, `25-1000x5`,
  /// `createComputations`, …).
  public var name: String
  public var samples: Int
  public var aggregate: Aggregate
  /// sbench: the JS prints one number per group, the sum over the sub-cases sharing `name`
  /// of each sub-case's fastest sample.
  public var summedOverGroup: Bool

  public init(name: String, samples: Int, aggregate: Aggregate, summedOverGroup: Bool = false) {
    self.name = name
    self.samples = samples
    self.aggregate = aggregate
    self.summedOverGroup = summedOverGroup
  }
}

/// A case built on one system, ready to measure.
///
/// A *sample* is: `beforeSample?()` (not measured), then the measured region, which calls
/// `iterate` `iterationsPerSample` times. Checks run inside `iterate` (their success path does
/// not allocate) and record failures in the case's `CaseChecks`; `finish` runs once after the
/// last sample for checks over the whole run. `tearDown` disposes the graph (the bound case
/// sets it to the system's `cleanup`); call it last.
///
/// Warm-up groups count as samples: call `beforeSample` before each group of
/// `iterationsPerSample` iterations, measured or not. Cases that need it (sbench, CellX,
/// peak-memory) have `iterationsPerSample == 1` and use `beforeSample` to build what the JS
/// benchmark builds outside its timed region; if it was skipped they rebuild inside `iterate`,
/// which stays correct but measures the build.
public struct PreparedCase {
  public var iterationsPerSample: Int
  public var beforeSample: (@MainActor () -> Void)?
  public var iterate: @MainActor () -> Void
  public var finish: @MainActor () -> Void
  public var tearDown: @MainActor () -> Void
  /// The system's `registrarCount` (the bound case sets it), read by the runner after the
  /// counted sample.
  public var registrarCount: (@MainActor () -> Int?)?

  public init(
    iterationsPerSample: Int,
    beforeSample: (@MainActor () -> Void)? = nil,
    iterate: @escaping @MainActor () -> Void,
    finish: @escaping @MainActor () -> Void = {},
    tearDown: @escaping @MainActor () -> Void = {}
  ) {
    self.iterationsPerSample = iterationsPerSample
    self.beforeSample = beforeSample
    self.iterate = iterate
    self.finish = finish
    self.tearDown = tearDown
  }

  /// Runs `samples` samples unmeasured, then `finish` (tests and smoke runs).
  @MainActor
  public func runUnmeasured(samples: Int = 1) {
    for _ in 0..<samples {
      beforeSample?()
      for _ in 0..<iterationsPerSample { iterate() }
    }
    finish()
  }
}

/// What every case states about itself.
@MainActor
public protocol CaseDescription {
  /// `family/shape[-size]`, e.g. `kairo/deep` or `dynamic/25-1000x5`. Unique in a registry.
  var id: String { get }
  var summary: String { get }
  /// What the case's graph needs; on a system without it the case is not applicable.
  var requirements: SystemCapabilities { get }
  /// How the JS benchmark reports it; nil for Cog's own cases.
  var published: PublishedMeasure? { get }
  /// Costs its steady iterations should not have (runner gates; see `SteadyStateTargets`).
  var steadyStateTargets: SteadyStateTargets { get }
  /// Rows a memoizing system runs per iteration (computed runs plus effect runs), when the
  /// case's shape fixes it: the record divides instructions by it (instructions per
  /// recomputed node, the unit of ../shared/research/floor.md). The tests check it against
  /// Cog's run counter.
  var recomputesPerIteration: Int? { get }
  /// Rows an iteration creates, and what they are, when the case's shape fixes it: the record
  /// divides allocations, instructions and retains by it (per created row, issue 13's unit
  /// for creation). Nil for cases that do not measure creation.
  var createdRows: CreatedRows? { get }
  /// Metrics (by raw name: `instructions`, `graphBytes`, …) whose counts this case cannot
  /// repeat exactly, because they include work the runtime does on other threads (see
  /// `AsyncCases.swift`). They are recorded and shown, but neither gated nor compared
  /// exactly (`cog-bench check`, `thresholds update`, `same-counts`).
  var variableMetrics: Set<String> { get }
}

extension CaseDescription {
  public var requirements: SystemCapabilities { [] }
  public var published: PublishedMeasure? { nil }
  public var steadyStateTargets: SteadyStateTargets { [] }
  public var recomputesPerIteration: Int? { nil }
  public var createdRows: CreatedRows? { nil }
  public var variableMetrics: Set<String> { [] }
}

/// What one iteration of a creation case creates (see `CaseDescription.createdRows`): how
/// many rows at each size, and of which kind, since the targets differ by kind (at most 1
/// allocation per manual cog, 2 per automatic cog or reaction).
public struct CreatedRows: Sendable, Hashable {
  public enum Kind: String, Sendable, Codable {
    case manual, automatic, reaction
    /// The most allocations one created row of this kind may cost (issue 13).
    public var allocationTarget: Int { self == .manual ? 1 : 2 }
    /// The most bytes one created row of this kind may allocate, where a target is set
    /// (issue 25: 64 per manual cog).
    public var allocatedBytesTarget: Int? { self == .manual ? 64 : nil }
  }
  public var kind: Kind
  public var quick: Int
  public var full: Int
  @inlinable public init(_ kind: Kind, quick: Int, full: Int) {
    self.kind = kind
    self.quick = quick
    self.full = full
  }
  @inlinable public func count(_ size: CaseSize) -> Int { size == .quick ? quick : full }
}

/// A case over the generic adapter. A case is a value (parameterized families are one type)
/// with a generic `prepare`, so that the registry can bind case × system in a concrete
/// context and the whole case specializes for the system.
@MainActor
public protocol BenchmarkCase: CaseDescription {
  /// Builds the graph (not measured) and returns the measured iteration, or nil when the
  /// system cannot express the case.
  func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
}

/// A case that needs keyed boxes; not applicable to systems that are not
/// `KeyedReactiveSystem`.
@MainActor
public protocol KeyedBenchmarkCase: CaseDescription {
  func prepare<S: KeyedReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
}
