import Cog
import CogSimpleCore
import Foundation
import Testing

/// Seeded random graphs run against the simple core (Benchmarks/Baselines/SimpleCore), the
/// deliberately simple reference implementation of the same semantics.
///
/// After every turn: the values read agree; no computed ran more often than in the reference;
/// every body saw values consistent with the sources committed at that moment (no glitch);
/// reactions ran in the same order with the same values. A failure prints its seed; replay it
/// with `COG_DIFF_SEED=<seed> swift test --filter Differential`. `COG_DIFF_CASES` sets how
/// many graphs one run tries (default 2,000).
@MainActor
@Suite("Differential against the simple core")
struct DifferentialTests {
  @Test("random graphs agree with the reference after every turn")
  func randomGraphs() {
    let env = ProcessInfo.processInfo.environment
    let seeds: [UInt64]
    if let one = env["COG_DIFF_SEED"].flatMap(UInt64.init) {
      seeds = [one]
    } else {
      let count = env["COG_DIFF_CASES"].flatMap(Int.init) ?? 2_000
      seeds = (0..<UInt64(count)).map { $0 &* 0x9E37_79B9 &+ 17 }
    }
    var failures = 0
    for seed in seeds {
      if let problem = DifferentialCase(seed: seed).run() {
        failures += 1
        Issue.record("seed \(seed): \(problem)")
        if failures >= 5 { break }
      }
    }
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
/// reactions (some of which write), plus a list of turns.
struct GraphSpec {
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
  }
  struct Node {
    var kind: Kind
    var deps: [Int]
  }
  struct Reaction {
    var reads: [Int]
    /// The source it writes (value: sum of what it read, mod 3), if any.
    var writes: Int?
  }

  var sources = 0
  var nodes: [Node] = []  // computeds; node i has id sources + i
  var keys = 1
  var boxSource: [Int] = []  // box[k] reads source boxSource[k]
  var reactions: [Reaction] = []
  var turns: [[(source: Int, value: Int)]] = []
  var readsAfterTurn: [[Int]] = []

  init(seed: UInt64) {
    var r = SplitMix(state: seed)
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
      let kind: Kind
      switch r.int(10) {
      case 0...3: kind = .sum(mod: 2 + r.int(5))
      case 4, 5: kind = .pick
      case 6: kind = .peekAdd
      case 7: kind = .scan
      default: kind = .keyed
      }
      let depCount: Int
      switch kind {
      case .sum: depCount = 1 + r.int(3)
      case .pick: depCount = 3
      case .peekAdd: depCount = 2
      case .scan, .keyed: depCount = 1
      }
      nodes.append(Node(kind: kind, deps: (0..<depCount).map { _ in pickDep() }))
    }
    let total = sources + count
    for _ in 0..<r.int(4) {
      let reads = (0..<(1 + r.int(3))).map { _ in r.int(total) }
      reactions.append(Reaction(reads: reads, writes: r.chance(40) ? r.int(sources) : nil))
    }
    for _ in 0..<(5 + r.int(20)) {
      turns.append((0..<(1 + r.int(3))).map { _ in (r.int(sources), r.int(3)) })
      readsAfterTurn.append((0..<r.int(total)).map { _ in r.int(total) })
    }
  }

  /// Every node's value computed afresh from committed source values, in id order (a node
  /// only depends on smaller ids); nil for history-dependent nodes (peek, scan) and the
  /// nodes that depend on them.
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
      case .peekAdd, .scan:
        v.append(nil)
      case .keyed:
        v.append(f(n.deps[0]).map { box(abs($0) % keys) })
      }
    }
    return v
  }
}

/// Runs one spec on Cog and on the simple core, side by side.
@MainActor
final class DifferentialCase {
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
  /// value computed afresh from the committed sources.
  func body(
    _ i: Int, system: Int, read: (Int) -> Int, peek: (Int) -> Int, key: (Int) -> Int,
    curr: Int?
  ) -> Int {
    let node = spec.nodes[i]
    func tracked(_ d: Int) -> Int {
      let v = read(d)
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
    }
  }

  func run() -> String? {
    // MARK: Cog
    let cogs = Cogs()
    var cogNodes: [Cog<Int>] = (0..<spec.sources).map { Cog(0, label: "s\($0)") }
    let cogBox = CogBox(label: "box") { [unowned self] (k: Int, c) -> Int in
      c[cogNodes[self.spec.boxSource[k]]] * (k + 1) % 5
    }
    for i in 0..<spec.nodes.count {
      let captured = cogNodes
      cogNodes.append(
        Cog(label: "n\(spec.sources + i)") { [unowned self] c -> Int in
          self.runsCog[i] += 1
          return self.body(
            i, system: 0, read: { c[captured[$0]] }, peek: { c.peek(captured[$0]) },
            key: { c[cogBox[$0]] }, curr: c.curr)
        })
    }
    // MARK: Reference
    let ref = SimpleCogs()
    var refNodes: [SimpleNode<Int>] = (0..<spec.sources).map { ref.source(0, label: "s\($0)") }
    let sourcesForBox = refNodes
    let refBox = ref.box(label: "box") { [unowned self] (k: Int, c: SimpleContext<Int>) -> Int in
      c[sourcesForBox[self.spec.boxSource[k]]] * (k + 1) % 5
    }
    for i in 0..<spec.nodes.count {
      let captured = refNodes
      refNodes.append(
        ref.computed(label: "n\(spec.sources + i)") {
          [unowned self] (c: SimpleContext<Int>) -> Int in
          self.runsRef[i] += 1
          return self.body(
            i, system: 1, read: { c[captured[$0]] }, peek: { c.peek(captured[$0]) },
            key: { c[refBox[$0]] }, curr: c.curr)
        })
    }
    // MARK: Reactions
    var handles: [CogReaction] = []
    for (index, reaction) in spec.reactions.enumerated() {
      handles.append(
        cogs.react("reaction") { [unowned self] c in
          let values = reaction.reads.map { c[cogNodes[$0]] }
          self.logCog.append("r\(index) \(values)")
          if let target = reaction.writes, self.budgetCog > 0 {
            self.budgetCog -= 1
            let value = values.reduce(0, +) % 3
            c.turn("reaction write") { w in
              self.committed[0][target] = value
              w[cogNodes[target]] = value
            }
          }
        })
      ref.react("r\(index)") { [unowned self] c in
        let values = reaction.reads.map { c[refNodes[$0]] }
        self.logRef.append("r\(index) \(values)")
        if let target = reaction.writes, self.budgetRef > 0 {
          self.budgetRef -= 1
          let value = values.reduce(0, +) % 3
          c.turn("reaction write") { w in
            self.committed[1][target] = value
            w[refNodes[target]] = value
          }
        }
      }
    }
    _ = handles
    // MARK: Turns
    for (t, writes) in spec.turns.enumerated() {
      cogs.turn("turn") { w in
        for (s, v) in writes {
          committed[0][s] = v
          w[cogNodes[s]] = v
        }
      }
      ref.turn("turn") { w in
        for (s, v) in writes {
          committed[1][s] = v
          w[refNodes[s]] = v
        }
      }
      if logCog != logRef {
        fail(
          "turn \(t): reaction logs differ\n  cog: \(logCog.suffix(6))\n  ref: \(logRef.suffix(6))")
      }
      for id in spec.readsAfterTurn[t] {
        let a = cogs[cogNodes[id]]
        let b = ref.read(refNodes[id])
        if a != b { fail("turn \(t): node \(id) is \(a) in Cog, \(b) in the reference") }
      }
      for i in 0..<spec.nodes.count where runsCog[i] > runsRef[i] {
        fail("turn \(t): node \(spec.sources + i) ran \(runsCog[i]) times, reference \(runsRef[i])")
      }
      if problem != nil { break }
    }
    return problem
  }
}
