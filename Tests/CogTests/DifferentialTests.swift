@_spi(Testing) import Cog
import CogEdgePool
import CogLayoutBinding
import CogPrefixArrays
import CogSimpleCore
import Foundation
import Testing

/// Seeded random graphs run against the simple core (Benchmarks/Baselines/SimpleCore), the
/// deliberately simple reference implementation of the same semantics.
///
/// After every turn: the values read agree; no computed ran more often than in the reference;
/// every body saw values consistent with the sources committed at that moment (no glitch),
/// except in an operation that met a cycle (its results are discarded); reactions ran in the
/// same order with the same values, and the same cycles and reaction loops were reported at
/// the same moments.
///
/// Graphs come in three modes: plain; with cycles that close and open as sources change
/// (`late` nodes that read a later node); and with lifetime-managed rows (`.whileObserved` and
/// `.cache`, some only ever peeked). Every mode has reaction churn (reactions registered and
/// cancelled between turns) and self-feeding reactions (stopped by the reaction-loop guard).
///
/// A failure prints its seed; replay it with `COG_DIFF_SEED=<seed> swift test --filter
/// Differential`. `COG_DIFF_CASES` sets how many graphs one run tries (default 2,000; the
/// long mode is `COG_DIFF_CASES=100000`).
@MainActor
@Suite("Differential against the simple core")
struct DifferentialTests {
  @Test("random graphs agree with the reference after every turn, through the public API")
  func publicAPI() { Self.run(PublicRuntime.self, defaultCases: 2_000) }

  @Test("random graphs agree with the reference on the shared linked pool")
  func sharedEdgePool() {
    Self.run(LayoutRuntime<SharedEdgePool, InlineReferences>.self, defaultCases: 1_000)
  }

  @Test("random graphs agree with the reference on prefix arrays")
  func prefixArrays() {
    Self.run(LayoutRuntime<PrefixArrays, InlineReferences>.self, defaultCases: 1_000)
  }

  @Test("random graphs agree with the reference on inline dependencies with overflow")
  func inlineOverflow() {
    Self.run(LayoutRuntime<DefaultInlineOverflow, InlineReferences>.self, defaultCases: 1_000)
  }

  @Test("random graphs agree with the reference with interned key references (pool)")
  func internedReferences() {
    Self.run(LayoutRuntime<SharedEdgePool, InternedReferences>.self, defaultCases: 1_000)
  }

  @Test("random graphs agree with the reference with generic key references (pool)")
  func typedReferences() {
    Self.run(LayoutRuntime<SharedEdgePool, TypedReferences>.self, defaultCases: 1_000)
  }

  /// `COG_DIFF_CASES` overrides `defaultCases` for every runtime (the long mode).
  static func run<R: DiffRuntime>(_: R.Type, defaultCases: Int) {
    let env = ProcessInfo.processInfo.environment
    let seeds: [UInt64]
    if let one = env["COG_DIFF_SEED"].flatMap(UInt64.init) {
      seeds = [one]
    } else {
      let count = env["COG_DIFF_CASES"].flatMap(Int.init) ?? defaultCases
      seeds = (0..<UInt64(count)).map { $0 &* 0x9E37_79B9 &+ 17 }
    }
    var failures = 0
    var tally = DifferentialTally()
    let verbose = env["COG_DIFF_VERBOSE"] != nil
    for seed in seeds {
      let c = DifferentialCase<R>(seed: seed)
      c.verbose = verbose
      if let problem = c.run() {
        failures += 1
        Issue.record("\(R.name), seed \(seed) (\(c.spec.mode)): \(problem)")
        if failures >= 5 { break }
      }
      tally.add(c)
    }
    // The generator must reach what it is meant to test, not only happy paths.
    if seeds.count >= 500 {
      #expect(tally.cycles > 0, "no graph closed a cycle")
      #expect(tally.loops > 0, "no reaction loop was stopped")
      #expect(tally.released > 0, "no lifetime-managed row was released")
      #expect(tally.cancelled > 0, "no reaction was cancelled")
    }
  }
}

/// What a run of many cases exercised.
struct DifferentialTally {
  var cycles = 0
  var loops = 0
  var released = 0
  var cancelled = 0
  @MainActor mutating func add<R>(_ c: DifferentialCase<R>) {
    cycles += c.cyclesSeen
    loops += c.loopsSeen
    released += c.releasesSeen
    cancelled += c.cancelsSeen
  }
}

/// SplitMix64: small, seedable, identical on every platform.
struct SplitMix {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
}

/// One random program: a graph of sources, computeds of several kinds, one keyed box, and
/// reactions (some of which write), plus a list of turns with reaction churn between them.
struct GraphSpec {
  enum Mode: String { case plain, cycles, lifetimes }
  enum Kind {
    /// Sum of the dependencies, modulo `mod` (small moduli make equal results common).
    case sum(mod: Int)
    /// deps[0] even ? deps[1] : deps[2] (a dynamic dependency).
    case pick
    /// deps[0] + peek(deps[1]).
    case peekAdd
    /// (curr ?? 0) + deps[0], modulo 7 (history dependent).
    case scan
    /// box[deps[0] % keys] (a dynamic key).
    case keyed
    /// deps[0] odd ? node `later` : deps[1]: reads a later node, so a cycle closes when that
    /// node depends on this one, and opens again when deps[0] turns even.
    case late(later: Int)
  }
  enum Lifetime { case context, whileObserved, cache(limit: Int) }
  struct Node {
    var kind: Kind
    var deps: [Int]
    var lifetime: Lifetime = .context
  }
  struct Reaction {
    var reads: [Int]
    /// The source it writes (value: sum of what it read, mod 3), if any.
    var writes: Int?
    /// Writes with no budget, one more than what it read: only the loop guard stops it.
    var selfFeeding = false
  }
  struct Churn {
    /// Cancel the live reaction at this position (modulo the live count), if any.
    var cancel: Int?
    var register: Reaction?
  }

  var mode = Mode.plain
  var sources = 0
  var nodes: [Node] = []  // computeds; node i has id sources + i
  var keys = 1
  var boxSource: [Int] = []  // box[k] reads source boxSource[k]
  var reactions: [Reaction] = []
  var turns: [[(source: Int, value: Int)]] = []
  var churn: [Churn] = []
  var readsAfterTurn: [[Int]] = []

  init(seed: UInt64) {
    var r = SplitMix(state: seed)
    switch r.int(4) {
    case 0: mode = .cycles
    case 1: mode = .lifetimes
    default: mode = .plain
    }
    sources = 2 + r.int(4)
    keys = 1 + r.int(3)
    boxSource = (0..<keys).map { k in k % sources }
    let count = 3 + r.int(14)
    for i in 0..<count {
      let available = sources + i
      func pickDep() -> Int {
        // Prefer recent nodes so graphs get deep, not only wide.
        r.chance(60) ? max(0, available - 1 - r.int(min(4, available))) : r.int(available)
      }
      var kind: Kind
      switch r.int(10) {
      case 0...3: kind = .sum(mod: 2 + r.int(5))
      case 4, 5: kind = .pick
      case 6: kind = .peekAdd
      case 7: kind = .scan
      default: kind = .keyed
      }
      // With cycles, the two systems may discard different runs (Cog runs a dirty row's body
      // where the reference first checks its dependencies in order): keep values a function
      // of the sources, so that runs discarded in one and not the other cannot show.
      if mode == .cycles {
        switch kind {
        case .peekAdd, .scan: kind = .pick
        default: break
        }
      }
      if mode == .cycles && i + 1 < count && r.chance(30) {
        kind = .late(later: sources + i + 1 + r.int(count - i - 1))
      }
      let depCount: Int
      switch kind {
      case .sum: depCount = 1 + r.int(3)
      case .pick: depCount = 3
      case .peekAdd, .late: depCount = 2
      case .scan, .keyed: depCount = 1
      }
      nodes.append(Node(kind: kind, deps: (0..<depCount).map { _ in pickDep() }))
    }
    if mode == .lifetimes {
      // Only pure nodes (their value follows from the sources) may be released and made
      // again; the reference keeps every node, so a history-dependent one would diverge.
      for i in 0..<count where isPure(i) && r.chance(50) {
        nodes[i].lifetime = r.chance(50) ? .whileObserved : .cache(limit: 1 + r.int(3))
      }
      // Peeks prefer lifetime-managed targets: a row only ever peeked must still be collected.
      let managed = (0..<count).filter { nodes[$0].lifetime.isManaged }.map { sources + $0 }
      for i in 0..<count where !managed.isEmpty {
        if case .peekAdd = nodes[i].kind, r.chance(70) {
          let candidates = managed.filter { $0 < sources + i }
          if !candidates.isEmpty { nodes[i].deps[1] = candidates[r.int(candidates.count)] }
        }
      }
    }
    let total = sources + count
    func makeReaction() -> Reaction {
      let reads = (0..<(1 + r.int(3))).map { _ in r.int(total) }
      if r.chance(15) {
        let readSources = reads.filter { $0 < sources }
        let target = readSources.isEmpty ? r.int(sources) : readSources[0]
        return Reaction(reads: reads + [target], writes: target, selfFeeding: true)
      }
      return Reaction(reads: reads, writes: r.chance(40) ? r.int(sources) : nil)
    }
    for _ in 0..<r.int(4) { reactions.append(makeReaction()) }
    for _ in 0..<(5 + r.int(20)) {
      turns.append((0..<(1 + r.int(3))).map { _ in (r.int(sources), r.int(3)) })
      var c = Churn()
      if r.chance(15) { c.cancel = r.int(8) }
      if r.chance(15) { c.register = makeReaction() }
      churn.append(c)
      readsAfterTurn.append((0..<r.int(total)).map { _ in r.int(total) })
    }
  }

  /// Whether node `i`'s value follows from the sources alone (no peek, scan or late node on
  /// the way).
  func isPure(_ i: Int) -> Bool {
    switch nodes[i].kind {
    case .peekAdd, .scan, .late: return false
    case .sum, .pick, .keyed:
      return nodes[i].deps.allSatisfy { $0 < sources || isPure($0 - sources) }
    }
  }

  /// Every node's value computed afresh from committed source values, in id order (a node
  /// only depends on smaller ids, but for late nodes); nil for history-dependent nodes (peek,
  /// scan, late) and the nodes that depend on them.
  func fresh(_ src: [Int], _ box: (Int) -> Int) -> [Int?] {
    var v: [Int?] = src.map { $0 }
    for n in nodes {
      func f(_ d: Int) -> Int? { v[d] }
      switch n.kind {
      case .sum(let mod):
        let parts = n.deps.map(f)
        v.append(parts.contains { $0 == nil } ? nil : parts.reduce(0) { $0 + $1! } % mod)
      case .pick:
        if let c = f(n.deps[0]) {
          v.append(c % 2 == 0 ? f(n.deps[1]) : f(n.deps[2]))
        } else {
          v.append(nil)
        }
      case .peekAdd, .scan, .late:
        v.append(nil)
      case .keyed:
        v.append(f(n.deps[0]).map { box(abs($0) % keys) })
      }
    }
    return v
  }
}

extension GraphSpec.Lifetime {
  var isManaged: Bool {
    if case .context = self { return false }
    return true
  }
  var cog: CogLifetime {
    switch self {
    case .context: return .context
    case .whileObserved: return .whileObserved
    case .cache(let limit): return .cache(limit: limit, retention: .seconds(3600))
    }
  }
}

/// Runs one spec on a Cog runtime and on the simple core, side by side.
@MainActor
final class DifferentialCase<R: DiffRuntime> {
  let seed: UInt64
  let spec: GraphSpec
  var problem: String? = nil
  /// Committed source values per system (index 0: Cog, 1: reference), updated in each turn's
  /// writer body, before that turn's flush runs any body.
  var committed: [[Int]] { didSet { freshCache = [nil, nil] } }
  var freshCache: [[Int?]?] = [nil, nil]
  var budgetCog = 30
  var budgetRef = 30
  var logCog: [String] = []
  var logRef: [String] = []
  var runsCog: [Int]
  var runsRef: [Int]
  // What this case exercised.
  var cyclesSeen = 0
  var loopsSeen = 0
  var releasesSeen = 0
  var cancelsSeen = 0

  /// Prints the spec and each turn's logs (`COG_DIFF_VERBOSE`, with `COG_DIFF_SEED`).
  var verbose = false

  /// Both systems stop a reaction loop after this many scheduled turns in a row.
  static var loopLimit: Int { 12 }

  init(seed: UInt64) {
    self.seed = seed
    spec = GraphSpec(seed: seed)
    committed = Array(repeating: Array(repeating: 0, count: spec.sources), count: 2)
    runsCog = Array(repeating: 0, count: spec.nodes.count)
    runsRef = Array(repeating: 0, count: spec.nodes.count)
  }

  func fail(_ message: @autoclosure () -> String) {
    if problem == nil { problem = message() }
  }

  func boxValue(_ k: Int, _ system: Int) -> Int {
    committed[system][spec.boxSource[k]] * (k + 1) % 5
  }

  /// The body of computed `i`, shared by both systems; `read`, `peek`, `key` and `curr`
  /// come from the system's context. Checks for glitches: a pure dependency must equal its
  /// value computed afresh from the committed sources (unless the operation is failing).
  func body(
    _ i: Int, system: Int, failing: () -> Bool, read: (Int) -> Int, peek: (Int) -> Int,
    key: (Int) -> Int, curr: Int?
  ) -> Int {
    let node = spec.nodes[i]
    if verbose { print("  \(system == 0 ? "cog" : "ref") runs n\(spec.sources + i)") }
    defer { if verbose { print("  \(system == 0 ? "cog" : "ref") done n\(spec.sources + i)") } }
    func tracked(_ d: Int) -> Int {
      let v = read(d)
      if verbose {
        print("    \(system == 0 ? "cog" : "ref") n\(spec.sources + i) read \(d) = \(v)")
      }
      if failing() { return v }
      if freshCache[system] == nil {
        freshCache[system] = spec.fresh(committed[system]) { self.boxValue($0, system) }
      }
      if let expected = freshCache[system]![d], expected != v {
        fail(
          "\(system == 0 ? "cog" : "reference"): node \(spec.sources + i) read \(d) = \(v), expected \(expected) (glitch)"
        )
      }
      return v
    }
    switch node.kind {
    case .sum(let mod): return node.deps.reduce(0) { $0 + tracked($1) } % mod
    case .pick:
      return tracked(node.deps[0]) % 2 == 0 ? tracked(node.deps[1]) : tracked(node.deps[2])
    case .peekAdd: return tracked(node.deps[0]) + peek(node.deps[1])
    case .scan: return ((curr ?? 0) + tracked(node.deps[0])) % 7
    case .keyed: return key(abs(tracked(node.deps[0])) % spec.keys)
    case .late(let later):
      return tracked(node.deps[0]) % 2 == 1 ? tracked(later) : tracked(node.deps[1])
    }
  }

  static func normalized(_ error: CogError) -> String {
    switch error {
    case .cycle(let states): return SimpleFailure.cycle(states).description
    case .reactionLoop(let reactions, let states):
      return SimpleFailure.reactionLoop(reactions: reactions, states: states).description
    default: return "\(error)"
    }
  }

  func run() -> String? {
    // MARK: Cog
    let cogs = R(loopLimit: Self.loopLimit) { [unowned self] error in
      self.logCog.append("error \(Self.normalized(error))")
    }
    var cogNodes: [R.Node] = (0..<spec.sources).map { cogs.source("s\($0)") }
    let cogBox = cogs.box("box") { [unowned self] k, read in
      read(cogNodes[self.spec.boxSource[k]]) * (k + 1) % 5
    }
    // Late nodes read nodes made after them: through a table filled once all exist.
    let cogTable = Late<[R.Node]>()
    for i in 0..<spec.nodes.count {
      let captured = cogNodes
      cogNodes.append(
        cogs.computed("n\(spec.sources + i)", spec.nodes[i].lifetime) { [unowned self] c -> Int in
          self.runsCog[i] += 1
          return self.body(
            i, system: 0, failing: { cogs.isFailing },
            read: { $0 < captured.count ? c.read(captured[$0]) : c.read(cogTable.value[$0]) },
            peek: { c.peek(captured[$0]) }, key: { c.key(cogBox, $0) }, curr: c.curr)
        })
    }
    cogTable.value = cogNodes
    // MARK: Reference
    let ref = SimpleCogs()
    ref.scheduledTurnLimit = Self.loopLimit
    ref.failureHandler = { [unowned self] failure in self.logRef.append("error \(failure)") }
    var refNodes: [SimpleNode<Int>] = (0..<spec.sources).map { ref.source(0, label: "s\($0)") }
    let sourcesForBox = refNodes
    let refBox = ref.box(label: "box") { [unowned self] (k: Int, c: SimpleContext<Int>) -> Int in
      c[sourcesForBox[self.spec.boxSource[k]]] * (k + 1) % 5
    }
    let refTable = Late<[SimpleNode<Int>]>()
    for i in 0..<spec.nodes.count {
      let captured = refNodes
      refNodes.append(
        ref.computed(label: "n\(spec.sources + i)") {
          [unowned self] (c: SimpleContext<Int>) -> Int in
          self.runsRef[i] += 1
          return self.body(
            i, system: 1, failing: { ref.isFailing },
            read: { $0 < captured.count ? c[captured[$0]] : c[refTable.value[$0]] },
            peek: { c.peek(captured[$0]) }, key: { c[refBox[$0]] }, curr: c.curr)
        })
    }
    refTable.value = refNodes
    // MARK: Reactions
    var live: [(cog: R.Reaction, ref: SimpleReaction, cancelled: Bool)] = []
    func register(_ reaction: GraphSpec.Reaction) {
      let index = live.count
      let cogReaction = cogs.react { [unowned self] c in
        let values = reaction.reads.map { c.read(cogNodes[$0]) }
        // A run that met a cycle saw stale values; the reference may not have run at all.
        if cogs.isFailing { return }
        self.logCog.append("r\(index) \(values)")
        if let target = reaction.writes, reaction.selfFeeding || self.budgetCog > 0 {
          if !reaction.selfFeeding { self.budgetCog -= 1 }
          let value = (values.reduce(0, +) + (reaction.selfFeeding ? 1 : 0)) % 3
          c.schedule { w in
            self.committed[0][target] = value
            w.write(cogNodes[target], value)
          }
        }
      }
      let refReaction = ref.react("reaction") { [unowned self] c in
        let values = reaction.reads.map { c[refNodes[$0]] }
        if ref.isFailing { return }
        self.logRef.append("r\(index) \(values)")
        if let target = reaction.writes, reaction.selfFeeding || self.budgetRef > 0 {
          if !reaction.selfFeeding { self.budgetRef -= 1 }
          let value = (values.reduce(0, +) + (reaction.selfFeeding ? 1 : 0)) % 3
          c.turn("reaction write") { w in
            self.committed[1][target] = value
            w[refNodes[target]] = value
          }
        }
      }
      live.append((cogReaction, refReaction, false))
    }
    if verbose {
      print("spec \(seed): mode \(spec.mode), \(spec.sources) sources, box keys \(spec.keys)")
      for (i, n) in spec.nodes.enumerated() {
        print("  n\(spec.sources + i): \(n.kind) deps \(n.deps) \(n.lifetime)")
      }
      for r in spec.reactions { print("  reaction \(r)") }
    }
    for reaction in spec.reactions { register(reaction) }
    func compareLogs(_ when: String) {
      if logCog != logRef {
        fail("\(when): logs differ\n  cog: \(logCog.suffix(6))\n  ref: \(logRef.suffix(6))")
      }
    }
    compareLogs("registration")
    // MARK: Turns
    for (t, writes) in spec.turns.enumerated() {
      if verbose { print("turn \(t)") }
      cogs.turn { w in
        for (s, v) in writes {
          committed[0][s] = v
          w.write(cogNodes[s], v)
        }
      }
      ref.turn("turn") { w in
        for (s, v) in writes {
          committed[1][s] = v
          w[refNodes[s]] = v
        }
      }
      if verbose {
        print("turn \(t) \(writes): cog \(logCog.suffix(8)) runs \(runsCog)")
        print("         ref \(logRef.suffix(8)) runs \(runsRef)")
      }
      compareLogs("turn \(t)")
      for id in spec.readsAfterTurn[t] {
        if verbose { print(" read \(id)") }
        let (errorsCog, errorsRef) = (logCog.count, logRef.count)
        let a = cogs.read(cogNodes[id])
        let b = ref.read(refNodes[id])
        // A read that met a cycle serves a stale value: both must fail, with the same cycle.
        let failed = (logCog.count > errorsCog, logRef.count > errorsRef)
        if failed.0 != failed.1 {
          fail("turn \(t): reading node \(id) failed in \(failed.0 ? "Cog" : "the reference") only")
        } else if !failed.0 && a != b {
          fail("turn \(t): node \(id) is \(a) in Cog, \(b) in the reference")
        }
      }
      compareLogs("reads after turn \(t)")
      for i in 0..<spec.nodes.count where runsCog[i] > runsRef[i] && spec.mode != .cycles {
        if spec.nodes[i].lifetime.isManaged { continue }  // released rows run again
        fail("turn \(t): node \(spec.sources + i) ran \(runsCog[i]) times, reference \(runsRef[i])")
      }
      for i in 0..<spec.nodes.count where spec.nodes[i].lifetime.isManaged {
        if !cogs.hasRow(cogNodes[spec.sources + i]) && runsCog[i] > 0 { releasesSeen += 1 }
      }
      let c = spec.churn[t]
      let active = live.indices.filter { !live[$0].cancelled }
      if let k = c.cancel, !active.isEmpty {
        let v = active[k % active.count]
        cogs.cancel(live[v].cog)
        live[v].ref.cancel()
        live[v].cancelled = true
        cancelsSeen += 1
      }
      if let reaction = c.register {
        register(reaction)
        compareLogs("registration after turn \(t)")
      }
      if problem != nil { break }
    }
    cyclesSeen = logCog.filter { $0.hasPrefix("error cycle") }.count
    loopsSeen = logCog.filter { $0.hasPrefix("error reaction loop") }.count
    return problem
  }
}
