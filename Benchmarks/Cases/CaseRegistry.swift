// NOTE for the runner (shape changed from the first sketch; keep this note short and current):
//
// - Cases are values, not types: `BenchmarkCase` (generic adapter) and `KeyedBenchmarkCase`
//   (needs `KeyedReactiveSystem`), both `CaseDescription` (id, summary, requirements,
//   published). `CaseRegistry.all.cases` lists every case's `CaseInfo` in registry order.
// - Bind with a CONCRETE system type, so everything specializes in the caller's module:
//       let bound: [BoundCase] = CaseRegistry.bind(SimpleSystem.self)
//   (`bind` is @inlinable and overloaded: a `KeyedReactiveSystem` gets the keyed cases too;
//   from a generic `<S: ReactiveSystem>` context the keyed cases come back not applicable.)
// - Per bound case: if `notApplicableReason != nil`, report it and skip. Else
//   `let p = bound.prepare(size, checks)!` (a fresh system per call), then per sample
//   (warm-up groups too): `p.beforeSample?()` unmeasured, then measure
//   `for _ in 0..<p.iterationsPerSample { p.iterate() }`; after the last sample `p.finish()`,
//   read `checks.failures`, then `p.tearDown()` (the system's `cleanup`).
// - `PreparedCase.iterationsPerSample` is the JS sample size at `.full` (500 `iter()` for
//   Kairo; 1 for sbench, CellX, dynamic); `info.published` says how the JS aggregates samples.
// - `info.steadyStateTargets` marks cases whose steady iterations should allocate nothing /
//   retain nothing (seed §9.4: targets for Cog), for the runner to gate.
// - `ReactiveSystem` requires `nonisolated static var id` and `capabilities` (default `.all`).
//   A case skips the checks a missing capability would fail; `info.requirements` it cannot
//   run without (the bound case is then not applicable, with the reason).

/// What the runner needs to know about a case without binding it.
public struct CaseInfo: Sendable, Hashable {
  public var id: String
  public var summary: String
  /// The part of `id` before the first `/` (`kairo`, `sbench`, `cellx`, `dynamic`, `cog`).
  public var family: String { String(id.prefix { $0 != "/" }) }
  public var requirements: SystemCapabilities
  public var needsKeyedBoxes: Bool
  /// Needs async cogs (`AsyncBenchmarkCase`): runs only where the main queue can be drained
  /// from the measuring thread (the runner), see `MainActorJobs`.
  public var needsAsync: Bool
  /// See `CaseDescription.variableMetrics`.
  public var variableMetrics: Set<String>
  public var published: PublishedMeasure?
  public var steadyStateTargets: SteadyStateTargets
  public var recomputesPerIteration: Int?
  public var createdRows: CreatedRows?

  public init(
    id: String, summary: String, requirements: SystemCapabilities, needsKeyedBoxes: Bool,
    published: PublishedMeasure?, steadyStateTargets: SteadyStateTargets,
    recomputesPerIteration: Int? = nil, needsAsync: Bool = false,
    variableMetrics: Set<String> = [], createdRows: CreatedRows? = nil
  ) {
    self.createdRows = createdRows
    self.variableMetrics = variableMetrics
    self.id = id
    self.summary = summary
    self.requirements = requirements
    self.needsKeyedBoxes = needsKeyedBoxes
    self.needsAsync = needsAsync
    self.published = published
    self.steadyStateTargets = steadyStateTargets
    self.recomputesPerIteration = recomputesPerIteration
  }

  @MainActor @inlinable
  public init(_ c: some CaseDescription, needsKeyedBoxes: Bool, needsAsync: Bool = false) {
    self.init(
      id: c.id, summary: c.summary, requirements: c.requirements,
      needsKeyedBoxes: needsKeyedBoxes, published: c.published,
      steadyStateTargets: c.steadyStateTargets, recomputesPerIteration: c.recomputesPerIteration,
      needsAsync: needsAsync, variableMetrics: c.variableMetrics, createdRows: c.createdRows)
  }
}

/// Costs that a case's steady iterations should not have at all (seed §9.4: steady-turn
/// allocations, `box[key]` reference creation, retain/release traffic in propagation).
public struct SteadyStateTargets: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  @inlinable public init(rawValue: Int) { self.rawValue = rawValue }
  public static let noAllocations = SteadyStateTargets(rawValue: 1 << 0)
  public static let noRetainRelease = SteadyStateTargets(rawValue: 1 << 1)
}

/// One case bound to one system type.
public struct BoundCase {
  public var info: CaseInfo
  public var systemID: String
  /// Non-nil when the system cannot run the case; `prepare` then returns nil.
  public var notApplicableReason: String?
  /// Makes a fresh system, builds the case on it (not measured) and returns it ready to
  /// measure; nil when not applicable.
  public var prepare: @MainActor (CaseSize, CaseChecks) -> PreparedCase?

  public init(
    info: CaseInfo, systemID: String, notApplicableReason: String?,
    prepare: @escaping @MainActor (CaseSize, CaseChecks) -> PreparedCase?
  ) {
    self.info = info
    self.systemID = systemID
    self.notApplicableReason = notApplicableReason
    self.prepare = prepare
  }
}

/// Receives every case, in registry order (see `CaseRegistry.forEachCase`).
@MainActor
public protocol CaseVisitor {
  mutating func visit<C: BenchmarkCase>(_ c: C)
  mutating func visitKeyed<C: KeyedBenchmarkCase>(_ c: C)
  mutating func visitAsync<C: AsyncBenchmarkCase>(_ c: C)
}

/// The typed list of every case. Ids are unique: registering a duplicate is a programming
/// error caught when the registry is built.
public struct CaseRegistry: Sendable {
  public private(set) var cases: [CaseInfo] = []
  private var ids: Set<String> = []

  public init() {}

  public mutating func add(_ info: CaseInfo) {
    precondition(!ids.contains(info.id), "duplicate benchmark case id \(info.id)")
    ids.insert(info.id)
    cases.append(info)
  }

  public func info(for id: String) -> CaseInfo? { cases.first { $0.id == id } }

  /// Every case, built from `forEachCase`; duplicates trap.
  @MainActor
  public static var all: CaseRegistry {
    var collector = Collector()
    forEachCase(&collector)
    return collector.registry
  }

  /// The one list of cases. `all` and `bind` both walk it, so they cannot disagree.
  @inlinable @MainActor
  public static func forEachCase<V: CaseVisitor>(_ v: inout V) {
    KairoCases.visit(&v)
    SBenchCases.visit(&v)
    CellxCases.visit(&v)
    DynamicCases.visit(&v)
    CogCases.visit(&v)
    SinkCases.visit(&v)
    AsyncCases.visit(&v)
  }

  /// Every case bound to `S`; keyed cases are not applicable (use a concrete keyed type to get
  /// them).
  @inlinable @MainActor
  public static func bind<S: ReactiveSystem>(_: S.Type) -> [BoundCase] {
    var binder = PlainBinder<S>()
    forEachCase(&binder)
    return binder.bound
  }

  /// Every case bound to a system with keyed boxes.
  @inlinable @MainActor
  public static func bind<S: KeyedReactiveSystem>(_: S.Type) -> [BoundCase] {
    var binder = KeyedBinder<S>()
    forEachCase(&binder)
    return binder.bound
  }

  /// Every keyed case bound to `S`; the keyless cases are not applicable. For a variant that
  /// differs from another system only in how it names keyed states (a reference layout): on
  /// a keyless case it would measure that other system again.
  @inlinable @MainActor
  public static func bindKeyedOnly<S: KeyedReactiveSystem>(_: S.Type) -> [BoundCase] {
    var binder = KeyedOnlyBinder<S>()
    forEachCase(&binder)
    return binder.bound
  }

  /// The async cases bound to a system with async cogs. Kept apart from `bind`, whose
  /// entries for them say "not applicable": `with(async:)` swaps these in, so that a system's
  /// other cases are bound exactly as for any keyed system (the same specialization context
  /// as the layout systems', which the calibration compares).
  @inlinable @MainActor
  public static func bindAsync<S: AsyncReactiveSystem>(_: S.Type) -> [BoundCase] {
    var binder = AsyncBinder<S>()
    forEachCase(&binder)
    return binder.bound
  }

  /// `bound` with its async entries replaced by those of `async` (same ids).
  public static func with(async: [BoundCase], in bound: [BoundCase]) -> [BoundCase] {
    let byID = Dictionary(async.map { ($0.info.id, $0) }, uniquingKeysWith: { a, _ in a })
    return bound.map { byID[$0.info.id] ?? $0 }
  }

  private struct Collector: CaseVisitor {
    var registry = CaseRegistry()
    mutating func visit<C: BenchmarkCase>(_ c: C) {
      registry.add(CaseInfo(c, needsKeyedBoxes: false))
    }
    mutating func visitKeyed<C: KeyedBenchmarkCase>(_ c: C) {
      registry.add(CaseInfo(c, needsKeyedBoxes: true))
    }
    mutating func visitAsync<C: AsyncBenchmarkCase>(_ c: C) {
      registry.add(CaseInfo(c, needsKeyedBoxes: false, needsAsync: true))
    }
  }
}

// MARK: - Binders

@inlinable
@MainActor
func _bind<S: ReactiveSystem>(
  _ info: CaseInfo, _: S.Type,
  _ prepare: @escaping @MainActor (S, CaseSize, CaseChecks) -> PreparedCase?
) -> BoundCase {
  let reason = S.capabilities.reasonMissing(info.requirements)
  return BoundCase(info: info, systemID: S.id, notApplicableReason: reason) { size, checks in
    if reason != nil { return nil }
    let system = S()
    guard var prepared = prepare(system, size, checks) else { return nil }
    prepared.tearDown = {
      system.cleanup()
      system.collect()
    }
    prepared.registrarCount = { system.registrarCount }
    return prepared
  }
}

@usableFromInline
@MainActor
struct PlainBinder<S: ReactiveSystem>: CaseVisitor {
  @usableFromInline var bound: [BoundCase] = []
  @inlinable init() {}

  @inlinable
  mutating func visit<C: BenchmarkCase>(_ c: C) {
    bound.append(
      _bind(CaseInfo(c, needsKeyedBoxes: false), S.self) { system, size, checks in
        c.prepare(on: system, size: size, checks: checks)
      })
  }

  @inlinable
  mutating func visitKeyed<C: KeyedBenchmarkCase>(_ c: C) {
    bound.append(
      BoundCase(
        info: CaseInfo(c, needsKeyedBoxes: true), systemID: S.id,
        notApplicableReason: "the system has no keyed boxes (KeyedReactiveSystem)",
        prepare: { _, _ in nil }))
  }

  @inlinable
  mutating func visitAsync<C: AsyncBenchmarkCase>(_ c: C) {
    bound.append(notApplicableAsync(c, S.id))
  }
}

@usableFromInline
@MainActor
struct KeyedBinder<S: KeyedReactiveSystem>: CaseVisitor {
  @usableFromInline var bound: [BoundCase] = []
  @inlinable init() {}

  @inlinable
  mutating func visit<C: BenchmarkCase>(_ c: C) {
    bound.append(
      _bind(CaseInfo(c, needsKeyedBoxes: false), S.self) { system, size, checks in
        c.prepare(on: system, size: size, checks: checks)
      })
  }

  @inlinable
  mutating func visitKeyed<C: KeyedBenchmarkCase>(_ c: C) {
    bound.append(
      _bind(CaseInfo(c, needsKeyedBoxes: true), S.self) { system, size, checks in
        c.prepare(on: system, size: size, checks: checks)
      })
  }

  @inlinable
  mutating func visitAsync<C: AsyncBenchmarkCase>(_ c: C) {
    bound.append(notApplicableAsync(c, S.id))
  }
}

/// Binds the async cases only (see `CaseRegistry.bindAsync`).
@usableFromInline
@MainActor
struct AsyncBinder<S: AsyncReactiveSystem>: CaseVisitor {
  @usableFromInline var bound: [BoundCase] = []
  @inlinable init() {}

  @inlinable mutating func visit<C: BenchmarkCase>(_ c: C) {}

  @inlinable mutating func visitKeyed<C: KeyedBenchmarkCase>(_ c: C) {}

  @inlinable
  mutating func visitAsync<C: AsyncBenchmarkCase>(_ c: C) {
    bound.append(
      _bind(CaseInfo(c, needsKeyedBoxes: false, needsAsync: true), S.self) {
        system, size, checks in
        c.prepare(on: system, size: size, checks: checks)
      })
  }
}

@inlinable
@MainActor
func notApplicableAsync<C: AsyncBenchmarkCase>(_ c: C, _ systemID: String) -> BoundCase {
  BoundCase(
    info: CaseInfo(c, needsKeyedBoxes: false, needsAsync: true), systemID: systemID,
    notApplicableReason: "the system has no async cogs (AsyncReactiveSystem)",
    prepare: { _, _ in nil })
}

@usableFromInline
@MainActor
struct KeyedOnlyBinder<S: KeyedReactiveSystem>: CaseVisitor {
  @usableFromInline var bound: [BoundCase] = []
  @inlinable init() {}

  @inlinable
  mutating func visit<C: BenchmarkCase>(_ c: C) {
    bound.append(
      BoundCase(
        info: CaseInfo(c, needsKeyedBoxes: false), systemID: S.id,
        notApplicableReason: "a reference-layout variant: measured on keyed cases only",
        prepare: { _, _ in nil }))
  }

  @inlinable
  mutating func visitKeyed<C: KeyedBenchmarkCase>(_ c: C) {
    bound.append(
      _bind(CaseInfo(c, needsKeyedBoxes: true), S.self) { system, size, checks in
        c.prepare(on: system, size: size, checks: checks)
      })
  }

  @inlinable
  mutating func visitAsync<C: AsyncBenchmarkCase>(_ c: C) {
    bound.append(
      BoundCase(
        info: CaseInfo(c, needsKeyedBoxes: false, needsAsync: true), systemID: S.id,
        notApplicableReason: "a reference-layout variant: measured on keyed cases only",
        prepare: { _, _ in nil }))
  }
}
