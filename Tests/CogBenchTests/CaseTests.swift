// Tests of the benchmark cases (Benchmarks/Cases): every case at quick size on every system
// that can express it, the dynamicBench correctness configs of frameworks.test.ts, and the
// JS pseudo-random stream.
//
// Adding a system is one line in `CaseTestSystems.types`.
//
// `CaseOracleSystem` (end of file) is a small, deliberately plain reactive system written for
// these tests only (Reactively's algorithm over objects): it lets the cases be checked on their
// own, independently of the measured adapters.

import CogBenchCases
import Foundation
import Testing

#if canImport(CogBenchSystems)
  import CogBenchSystems
#endif

// MARK: - Systems under test

enum CaseTestSystems {
  /// Every system the case tests run on. Adding a system is one line here.
  static let types: [any ReactiveSystem.Type] = {
    var types: [any ReactiveSystem.Type] = [CaseOracleSystem.self]
    #if canImport(CogBenchSystems)
      types += [CogSystem.self, SimpleSystem.self, ObjectGraphSystem.self, ObservationSystem.self]
    #endif
    return types
  }()

  /// Their ids, the tests' arguments.
  static let all: [String] = types.map { $0.id }

  /// Systems that must run every case (no capability missing, keyed boxes present).
  static let complete: Set<String> = ["oracle", "simple", "cog"]

  static func type(_ id: String) -> any ReactiveSystem.Type {
    types.first { $0.id == id }!
  }

  /// Every case bound to the system (through the keyed overload when the system has boxes).
  @MainActor
  static func bind(_ id: String) -> [BoundCase] {
    func plain<S: ReactiveSystem>(_: S.Type) -> [BoundCase] { CaseRegistry.bind(S.self) }
    func keyed<S: KeyedReactiveSystem>(_: S.Type) -> [BoundCase] { CaseRegistry.bind(S.self) }
    let t = type(id)
    if let k = t as? any KeyedReactiveSystem.Type { return keyed(k) }
    return plain(t)
  }
}

/// Runs `body` with a fresh system of the named type (for the tests that build graphs
/// directly rather than through the registry).
@MainActor
func withSystem(_ id: String, _ body: @MainActor (any ReactiveSystem) -> Void) {
  body(CaseTestSystems.type(id).init())
}

// MARK: - Registry

@MainActor
@Suite struct CaseRegistryTests {
  static let expectedIDs: [String] =
    [
      "kairo/avoidable", "kairo/broad", "kairo/deep", "kairo/diamond", "kairo/mux",
      "kairo/repeated", "kairo/triangle", "kairo/unstable", "kairo/mol",
      "sbench/createSignals",
      "sbench/createComputations/create0to1", "sbench/createComputations/create1to1",
      "sbench/createComputations/create2to1", "sbench/createComputations/create4to1",
      "sbench/createComputations/create1000to1", "sbench/createComputations/create1to2",
      "sbench/createComputations/create1to4", "sbench/createComputations/create1to8",
      "sbench/createComputations/create1to1000",
      "sbench/updateSignals/update1to1", "sbench/updateSignals/update2to1",
      "sbench/updateSignals/update4to1", "sbench/updateSignals/update1000to1",
      "sbench/updateSignals/update1to2", "sbench/updateSignals/update1to4",
      "sbench/updateSignals/update1to1000",
      "cellx/1000", "cellx/2500", "cellx/5000",
      "dynamic/2-10x5-lazy80", "dynamic/6-10x10-dyn25-lazy80", "dynamic/4-1000x12-dyn5",
      "dynamic/25-1000x5", "dynamic/3-5x500", "dynamic/6-100x15-dyn50",
      "cog/keyed-diamond", "cog/key-churn", "cog/steady-turn", "cog/cache-steady-turn",
      "cog/box-ref-creation",
      "cog/propagation-arc", "cog/peak-memory-1000", "cog/first-read", "cog/first-read-computed",
      "cog/first-read-new-context",
      "cog/keyed-switch",
      "cog/dependency-churn",
      "cog/deep-api", "cog/deep-explained", "cog/deep-second-context",
      "cog/boundary-registrars-1000",
      "cog/boundary-keyed-notices",
      "cog/boundary-turn-12", "cog/boundary-turn-100", "cog/boundary-turn-1000",
      "sinks/deep", "sinks/broad", "sinks/diamond", "sinks/triangle", "sinks/fan-out",
      "cog/async-stream", "cog/async-latest-restart",
    ]

  @Test func everyCaseIsRegisteredOnceInOrder() {
    let ids = CaseRegistry.all.cases.map(\.id)
    #expect(ids == Self.expectedIDs)
    #expect(Set(ids).count == ids.count)
  }

  @Test func publishedNamesMatchTheJSBenchmark() {
    let registry = CaseRegistry.all
    #expect(
      registry.info(for: "dynamic/6-10x10-dyn25-lazy80")?.published?.name
        == "6-10x10 - dyn25% - lazy80%")
    #expect(registry.info(for: "dynamic/4-1000x12-dyn5")?.published?.name == "4-1000x12 - dyn5%")
    #expect(registry.info(for: "kairo/mol")?.published?.name == "molBench")
    #expect(registry.info(for: "cellx/2500")?.published?.aggregate == .sum)
    let create = registry.cases.filter { $0.published?.name == "createComputations" }
    #expect(create.count == 9 && create.allSatisfy { $0.published!.summedOverGroup })
    let update = registry.cases.filter { $0.published?.name == "updateSignals" }
    #expect(update.count == 7)
    #expect(
      registry.cases.filter { $0.needsKeyedBoxes }.map(\.id)
        == [
          "cog/keyed-diamond", "cog/key-churn", "cog/cache-steady-turn", "cog/box-ref-creation",
          "cog/keyed-switch", "cog/boundary-keyed-notices",
        ])
  }

  @Test(arguments: CaseTestSystems.all)
  func bindingListsEveryCase(system: String) {
    let bound = CaseTestSystems.bind(system)
    #expect(bound.map(\.info.id) == Self.expectedIDs)
    #expect(bound.allSatisfy { $0.systemID == system })
    if CaseTestSystems.complete.contains(system) {
      // Async cases run in the runner only (AsyncCaseTests). UI reads need Observation (Cog's boundaries, raw @Observable): the oracle and the
      // simple core have none, and say so.
      // Own-API cases run on Cog's systems only.
      let capabilities = CaseTestSystems.type(system).capabilities
      let notApplicable = bound.filter {
        $0.notApplicableReason != nil && !$0.info.needsAsync
          && capabilities.isSuperset(of: $0.info.requirements.intersection([.uiReads, .ownAPI]))
      }.map(\.info.id)
      #expect(notApplicable.isEmpty, "\(system) should run every case: \(notApplicable)")
    }
  }
}

// MARK: - Every case, quick size

@MainActor
@Suite struct QuickCaseTests {
  @Test(arguments: CaseTestSystems.all)
  func everyCasePassesItsChecksAtQuickSize(system: String) {
    for bound in CaseTestSystems.bind(system) {
      // Async cases drain the main queue, which a test (a main-queue job) cannot: they run in
      // the runner (AsyncCaseTests).
      if bound.notApplicableReason != nil || bound.info.needsAsync { continue }
      let checks = CaseChecks()
      guard let prepared = bound.prepare(.quick, checks) else {
        Issue.record("\(bound.info.id) on \(system): prepare returned nil")
        continue
      }
      // Two samples (the second checks that a sample repeats) on the complete systems; one on
      // the baselines, which are slow by design.
      let start = ContinuousClock.now
      prepared.runUnmeasured(samples: CaseTestSystems.complete.contains(system) ? 2 : 1)
      prepared.tearDown()
      if ProcessInfo.processInfo.environment["COG_CASES_TIMING"] == "1" {
        print("case-timing \(system) \(bound.info.id) \(ContinuousClock.now - start)")
      }
      #expect(
        checks.failures.isEmpty,
        "\(bound.info.id) on \(system): \(checks.failureCount) failures: \(checks.failures)")
    }
  }

  /// Skipping `beforeSample` (a runner bug) still gives correct results.
  @Test func casesWithSetUpSurviveAMissingBeforeSample() {
    for bound in CaseTestSystems.bind("oracle")
    where ["sbench/updateSignals/update2to1", "cellx/1000", "cog/peak-memory-1000"]
      .contains(bound.info.id)
    {
      let checks = CaseChecks()
      let prepared = bound.prepare(.quick, checks)!
      for _ in 0..<3 { prepared.iterate() }
      prepared.tearDown()
      #expect(checks.failures.isEmpty, "\(bound.info.id): \(checks.failures)")
    }
  }

  /// A check that fails is recorded with its message, and only then formatted.
  @Test func checksRecordFailures() {
    let checks = CaseChecks()
    var formatted = 0
    checks.expect(
      true,
      {
        formatted += 1
        return "never"
      }())
    checks.expect(false, "one")
    #expect(formatted == 0)
    #expect(checks.failures == ["one"] && checks.failureCount == 1)
  }
}

/// Every case at full size: slow (minutes in a debug build), so opt-in with
/// `COG_CASES_FULL=1`. This is what ties the Swift port to the published full-size values.
@MainActor
@Suite(.enabled(if: ProcessInfo.processInfo.environment["COG_CASES_FULL"] == "1"))
struct FullCaseTests {
  @Test(arguments: CaseTestSystems.all.filter { CaseTestSystems.complete.contains($0) })
  func everyCasePassesItsChecksAtFullSize(system: String) {
    for bound in CaseTestSystems.bind(system) {
      if bound.notApplicableReason != nil { continue }
      let checks = CaseChecks()
      let prepared = bound.prepare(.full, checks)!
      // One sample; Kairo samples are 500 iterations, so run those with fewer.
      var p = prepared
      if bound.info.family == "kairo" { p.iterationsPerSample = 20 }
      p.runUnmeasured(samples: 1)
      p.tearDown()
      #expect(checks.failures.isEmpty, "\(bound.info.id) on \(system): \(checks.failures)")
    }
  }
}

// MARK: - dynamicBench correctness configs (frameworks.test.ts)

@MainActor
@Suite struct DynamicCorrectnessTests {
  /// `makeConfig()`: width 3, totalLayers 3, staticFraction 1, nSources 2, readFraction 1.
  static func makeConfig(iterations: Int = 1) -> DynamicConfig {
    DynamicConfig(
      width: 3, totalLayers: 3, staticFraction: 1, nSources: 2, readFraction: 1,
      iterations: iterations)
  }

  @Test(arguments: CaseTestSystems.all)
  func simpleDependencyExecutes(system: String) {
    withSystem(system) { s in
      @MainActor func run<S: ReactiveSystem>(_ s: S) {
        let signal = s.signal(2)
        let c = s.computed { s.read(signal) * 2 }
        #expect(s.read(c) == 4)
      }
      run(s)
    }
  }

  /// The counts include the build (the tests count from `makeGraph` on, as upstream).
  @Test(arguments: CaseTestSystems.all)
  func staticGraph(system: String) {
    withSystem(system) { s in
      @MainActor func run<S: ReactiveSystem>(_ s: S) {
        guard S.capabilities.contains(.memoizedComputeds) else { return }
        let graph = DynamicGraph.make(on: s, config: Self.makeConfig())
        #expect(graph.run(iterations: 2) == 16)
        #expect(graph.count == 11)
        s.cleanup()
      }
      run(s)
    }
  }

  @Test(arguments: CaseTestSystems.all)
  func staticGraphReadingTwoThirdsOfTheLeaves(system: String) {
    withSystem(system) { s in
      @MainActor func run<S: ReactiveSystem>(_ s: S) {
        guard S.capabilities.contains(.memoizedComputeds) else { return }
        var config = Self.makeConfig(iterations: 10)
        config.readFraction = 2.0 / 3.0
        let graph = DynamicGraph.make(on: s, config: config)
        #expect(graph.readLeaves.count == 2)
        #expect(graph.run(iterations: 10) == 72)
        #expect(graph.count == 41)  // upstream: only when testPullCounts (ours: always)
        s.cleanup()
      }
      run(s)
    }
  }

  @Test(arguments: CaseTestSystems.all)
  func dynamicGraph(system: String) {
    withSystem(system) { s in
      @MainActor func run<S: ReactiveSystem>(_ s: S) {
        guard S.capabilities.contains(.memoizedComputeds) else { return }
        var config = Self.makeConfig()
        config.staticFraction = 0.5
        config.width = 4
        config.totalLayers = 2
        let graph = DynamicGraph.make(on: s, config: config)
        #expect(graph.run(iterations: 10) == 72)
        #expect(graph.count == 22)
        s.cleanup()
      }
      run(s)
    }
  }

  @Test func titlesAndIDs() {
    let titles = DynamicCase.published.map(\.full.title)
    #expect(
      titles == [
        "2-10x5 - lazy80%", "6-10x10 - dyn25% - lazy80%", "4-1000x12 - dyn5%", "25-1000x5",
        "3-5x500", "6-100x15 - dyn50%",
      ])
  }

  /// The JS `sum & 0x1` / `sum % n` of the dynamic node, including outside the integer range.
  @Test func jsParityAndRemainder() {
    #expect(CogBenchCasesTestHooks.parityAndRemainder(7, 5) == (true, 2))
    #expect(CogBenchCasesTestHooks.parityAndRemainder(302_310_782_860, 5) == (false, 0))
    // 2^53 + 2: even; 2^32 + 3: odd after ToInt32 (3).
    #expect(CogBenchCasesTestHooks.parityAndRemainder(9_007_199_254_740_994, 5).odd == false)
    #expect(CogBenchCasesTestHooks.parityAndRemainder(4_294_967_299, 2) == (true, 1))
  }
}

// MARK: - The JS pseudo-random stream

@Suite struct JSPseudoRandomTests {
  /// `pseudoRandom("seed")`'s first outputs. Derived independently twice: with node (a
  /// transcription of pseudoRandom.ts: `sfc32`, `xmur3a`, `Math.imul`, `>>>`) and with Python
  /// (explicit `& 0xffffffff` arithmetic); both gave these values.
  @Test func firstOutputsForSeed() {
    var hash = XMur3a("seed")
    #expect(
      [hash.next(), hash.next(), hash.next(), hash.next()]
        == [246_123_560, 2_434_935_956, 752_727_108, 913_990_249])

    var random = JSPseudoRandom(seed: "seed")
    let raw = (0..<8).map { _ in random.nextUInt32() }
    #expect(
      raw == [
        3_595_049_766, 1_538_291_281, 523_797_495, 2_091_590_326, 1_224_444_238, 2_865_563_924,
        2_468_257_480, 3_646_388_805,
      ])

    var doubles = JSPseudoRandom()
    let values = (0..<8).map { _ in doubles.next() }
    #expect(
      values == [
        0.8370377509854734, 0.35816134908236563, 0.12195610790513456, 0.486986321862787,
        0.28508814005181193, 0.6671910928562284, 0.5746859777718782, 0.8489910524804145,
      ])
  }
}

// MARK: - The oracle system

/// A plain reactive system for testing the cases: objects, arrays and recursion, Reactively's
/// algorithm. Writes push CHECK/DIRTY marks; reads pull, checking dependencies in read order
/// and stopping at the first that changed; equal (`==`) results do not propagate; effects run
/// when created and, in registration order, after each batch whose writes reached them. Batch
/// writes are staged and published at the end (a value written back changes nothing). Keyed
/// boxes keep a computed per key; `release` unlinks an unobserved key and forgets it.
@MainActor
final class CaseOracleSystem: KeyedReactiveSystem {
  nonisolated static var id: String { "oracle" }

  fileprivate var tracking: OracleNode?
  fileprivate var batchDepth = 0
  fileprivate var touched: [OracleSignalBase] = []
  fileprivate var queue: [OracleNode] = []
  fileprivate var built: [OracleNode] = []
  fileprivate var nextSerial = 0
  /// Owns the objects behind the handles (handles are unretained).
  let handles = HandleKeeper()

  init() {}

  func signal<T: Equatable>(_ initial: T) -> SignalHandle<T> {
    SignalHandle(handles.keep(register(OracleSignal(initial))))
  }

  func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T> {
    ComputedHandle(handles.keep(register(OracleComputed(body))))
  }

  func effect(_ body: @escaping () -> Void) {
    let node = register(OracleEffect(body))
    nextSerial += 1
    node.serial = nextSerial
    recompute(node)
  }

  func read<T>(_ signal: SignalHandle<T>) -> T {
    let node = signal.object(as: OracleSignal<T>.self).takeUnretainedValue()
    track(node)
    if batchDepth > 0, tracking == nil, let pending = node.pending { return pending }
    return node.value
  }

  func read<T>(_ computed: ComputedHandle<T>) -> T {
    readComputed(computed.object(as: OracleComputed<T>.self).takeUnretainedValue())
  }

  func write<T>(_ signal: SignalHandle<T>, _ value: T) {
    let node = signal.object(as: OracleSignal<T>.self).takeUnretainedValue()
    withBatch {
      if node.pending == nil { touched.append(node) }
      node.pending = value
    }
  }

  func withBatch(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    if batchDepth == 0 { publish() }
  }

  func withBuild<R>(_ body: () -> R) -> R { body() }

  /// Unlinks everything built (the oracle needs no finer disposal: cases never use a node
  /// built before a cleanup); the objects stay until `collect`.
  func cleanup() {
    for node in built { unlink(node) }
    built.removeAll()
  }

  func collect() { handles.releaseAll() }

  func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T> {
    KeyedHandle(handles.keep(OracleBox(body)))
  }

  func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    let box = box.object(as: OracleBox<K, T>.self).takeUnretainedValue()
    if let node = box.nodes[key] { return readComputed(node) }
    let node = register(box.makeNode(key))
    box.nodes[key] = node
    return readComputed(node)
  }

  func release<K, T>(_ box: KeyedHandle<K, T>, key: K) {
    let box = box.object(as: OracleBox<K, T>.self).takeUnretainedValue()
    guard let node = box.nodes[key] else { return }
    precondition(node.subs.isEmpty, "released key \(key) is still observed")
    unlink(node)
    box.nodes[key] = nil
  }

  // MARK: Algorithm

  private func register<N: OracleNode>(_ node: N) -> N {
    built.append(node)
    return node
  }

  private func track(_ node: OracleNode) {
    guard let current = tracking else { return }
    if node.trackedBy === current && node.trackedRun == current.runNumber { return }
    node.trackedBy = current
    node.trackedRun = current.runNumber
    current.newDeps.append(node)
  }

  private func readComputed<T>(_ node: OracleComputed<T>) -> T {
    track(node)
    refresh(node)
    return node.value!
  }

  private func refresh(_ node: OracleNode) {
    if node.state == .check {
      for dep in node.deps {
        if dep.isDerived { refresh(dep) }
        if node.state == .dirty { break }
      }
    }
    if node.state == .dirty { recompute(node) }
    node.state = .clean
  }

  /// Runs the body, swaps in the new dependencies and, when the value changed, marks the
  /// readers dirty.
  private func recompute(_ node: OracleNode) {
    let outer = tracking
    tracking = node
    node.runNumber += 1
    node.newDeps = []
    let changed = node.run()
    tracking = outer
    let old = node.deps
    node.deps = node.newDeps
    node.newDeps = []
    if !old.elementsEqual(node.deps, by: ===) {
      for dep in old where !node.deps.contains(where: { $0 === dep }) {
        dep.subs.removeAll { $0 === node }
      }
      for dep in node.deps where !old.contains(where: { $0 === dep }) { dep.subs.append(node) }
    }
    node.state = .clean
    if changed {
      for sub in node.subs { sub.state = .dirty }
    }
  }

  private func mark(_ node: OracleNode, _ state: OracleNode.State) {
    guard node.state < state else { return }
    if node.state == .clean && node.serial > 0 { queue.append(node) }
    node.state = state
    for sub in node.subs { mark(sub, .check) }
  }

  private func publish() {
    let signals = touched
    touched = []
    for signal in signals where signal.commit() {
      for sub in signal.subs { mark(sub, .dirty) }
    }
    // Effects queued while these run (none in the cases) run in a later round.
    while !queue.isEmpty {
      let round = queue.sorted { $0.serial < $1.serial }
      queue = []
      for effect in round where !effect.disposed { refresh(effect) }
    }
  }

  private func unlink(_ node: OracleNode) {
    for dep in node.deps { dep.subs.removeAll { $0 === node } }
    node.deps = []
    node.disposed = true
  }
}

@MainActor
class OracleNode {
  enum State: Int, Comparable {
    case clean, check, dirty
    static func < (a: State, b: State) -> Bool { a.rawValue < b.rawValue }
  }
  var state = State.dirty
  var deps: [OracleNode] = []
  var newDeps: [OracleNode] = []
  var subs: [OracleNode] = []
  /// Effects: registration order (0 for other nodes).
  var serial = 0
  var runNumber = 0
  unowned(unsafe) var trackedBy: OracleNode?
  var trackedRun = 0
  var disposed = false
  var isDerived: Bool { true }
  /// Runs the body; true when the value changed.
  func run() -> Bool { false }
}

@MainActor
class OracleSignalBase: OracleNode {
  override var isDerived: Bool { false }
  /// Publishes the staged value; true when it differs from the current one.
  func commit() -> Bool { false }
}

@MainActor
final class OracleSignal<T>: OracleSignalBase {
  var value: T
  var pending: T?
  let equals: (T, T) -> Bool

  init(_ value: T) where T: Equatable {
    self.value = value
    self.equals = (==)
    super.init()
    state = .clean
  }

  override func commit() -> Bool {
    guard let next = pending else { return false }
    pending = nil
    if equals(value, next) { return false }
    value = next
    return true
  }
}

@MainActor
final class OracleComputed<T>: OracleNode {
  var value: T?
  let body: () -> T
  let equals: (T, T) -> Bool

  init(_ body: @escaping () -> T) where T: Equatable {
    self.body = body
    self.equals = (==)
  }

  override func run() -> Bool {
    let next = body()
    if let value, equals(value, next) { return false }
    value = next
    return true
  }
}

@MainActor
final class OracleEffect: OracleNode {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
  override func run() -> Bool {
    body()
    return false
  }
}

@MainActor
final class OracleBox<K: Hashable, T> {
  let makeNode: (K) -> OracleComputed<T>
  var nodes: [K: OracleComputed<T>] = [:]
  init(_ body: @escaping (K) -> T) where T: Equatable {
    makeNode = { key in OracleComputed { body(key) } }
  }
}

// MARK: - Async cases, through the runner

/// The async cases drain the main queue from the measuring thread, which only the runner's
/// synchronous `main` can do; so they are checked by running `cog-bench` on them (debug build).
@MainActor
@Suite("Async cases", .serialized)
struct AsyncCaseTests {
  @Test("the async cases pass their checks on cog and are not applicable elsewhere")
  func asyncCasesRunInTheRunner() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cog/async-stream,cog/async-latest-restart",
        "--systems", "cog,simple", "--metrics", "allocations,retains", "--output-dir", "out",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let json = try readJSON(try #require(writtenResult(o, in: dir)))
    let results = try #require(json["results"] as? [[String: Any]])
    let cog = results.filter { ($0["system"] as? String) == "cog" }
    #expect(cog.count == 2, "\(results)")
    for r in cog {
      let checks = try #require(r["checks"] as? [String: Any])
      #expect(checks["passed"] as? Bool == true, "\(r)")
      let metrics = try #require(r["metrics"] as? [String: Any])
      #expect(metrics["allocations"] != nil, "\(r)")
    }
  }

  @Test("their variable counts are recorded but neither gated nor compared exactly")
  func variableCountsAreNotGated() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cog/async-stream", "--systems", "cog",
        "--metrics", "retains,allocations,graphBytes", "--output-dir", "out",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let result = try #require(writtenResult(o, in: dir))
    let json = try readJSON(result)
    let r = try #require((json["results"] as? [[String: Any]])?.first)
    #expect((r["metrics"] as? [String: Any])?["graphBytes"] != nil)  // recorded
    #expect((r["metrics"] as? [String: Any])?["allocations"] != nil)
    let update = try CogBench.run(
      [
        "thresholds", "update", result, "--thresholds", "t.json", "--allow-debug",
        "--allow-dirty", "--merge",
      ], in: dir)
    #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
    let values = try #require(try readJSON(dir + "/t.json")["values"] as? [String: Any])
    #expect(values["cog/async-stream@cog retains"] != nil)
    #expect(values["cog/async-stream@cog allocations"] == nil)
    #expect(values["cog/async-stream@cog graphBytes"] == nil)
    let check = try CogBench.run(
      ["check", result, "--thresholds", "t.json", "--allow-debug"], in: dir)
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }
}
