// Kairo cases (js-reactivity-benchmark `benches/kairo/*.ts`, milomg @56eb45e).
//
// Each case builds the JS graph inside `withBuild` and one `iterate()` is one JS `iter()`, with
// the same writes, reads and asserts (`console.assert` there, `checks.expect` here). The JS
// measures the fastest of 10 samples of 500 `iter()` calls: `.full` has 500 iterations per
// sample; `.quick` runs the same graph and the same `iter()` twice per sample (a sample of
// `kairo/mux` on the Observation baseline takes seconds under callgrind at 5). Every check
// holds for every `iter()` (the counters are reset inside it), so quick expectations are the
// full ones.
//
// Values are `Int` (the JS numbers here are small integers, exact either way). Checks marked
// "(Cog addition)" are not in the JS; they only run on systems with `.equalityCutoff`, whose
// semantics make them exact.
//
// Graph closures capture the system as `Guaranteed` (CaseSupport.swift): the system owns the
// graph, so a strong capture would be a cycle, and the system outlives every call it makes
// into the graph.

@usableFromInline let kairoFullIterations = 500
@usableFromInline let kairoQuickIterations = 2

extension CaseSize {
  @inlinable var kairoIterations: Int { self == .full ? kairoFullIterations : kairoQuickIterations }
}

extension PublishedMeasure {
  @inlinable static func kairo(_ name: String) -> PublishedMeasure {
    PublishedMeasure(name: name, samples: 10, aggregate: .fastest)
  }
}

public enum KairoCases {
  @inlinable @MainActor
  public static func visit<V: CaseVisitor>(_ v: inout V) {
    v.visit(KairoAvoidable())
    v.visit(KairoBroad())
    v.visit(KairoDeep())
    v.visit(KairoDiamond())
    v.visit(KairoMux())
    v.visit(KairoRepeated())
    v.visit(KairoTriangle())
    v.visit(KairoUnstable())
    v.visit(KairoMol())
  }
}

/// `avoidablePropagation`: head → c1 → c2 (always 0) → c3 (busy) → c4 → c5 → effect (busy).
public struct KairoAvoidable: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/avoidable" }
  public var summary: String {
    "avoidablePropagation: 1001 writes whose change stops at a computed that always returns 0"
  }
  public var published: PublishedMeasure? { .kairo("avoidablePropagation") }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let counter = RunCounter()  // runs: c3 executions; other: effect executions
    let (head, c5) = s.withBuild { () -> (SignalHandle<Int>, ComputedHandle<Int>) in
      let head = s.signal(0)
      let c1 = s.computed { s.read(head) }
      let c2 = s.computed { () -> Int in
        _ = s.read(c1)
        return 0
      }
      let c3 = s.computed { () -> Int in
        kairoBusy()  // heavy computation
        counter.runs &+= 1
        return s.read(c2) + 1
      }
      let c4 = s.computed { s.read(c3) + 2 }
      let c5 = s.computed { s.read(c4) + 3 }
      s.effect {
        _ = s.read(c5)
        kairoBusy()  // heavy side effect
        counter.other &+= 1
      }
      return (head, c5)
    }
    let cutoff = S.capabilities.contains(.equalityCutoff)
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      counter.reset()
      s.withBatch { s.write(head, 1) }
      checks.expect(s.read(c5) == 6, "kairo/avoidable: c5 = \(s.read(c5)), expected 6")
      for i in 0..<1000 {
        s.withBatch { s.write(head, i) }
        checks.expect(s.read(c5) == 6, "kairo/avoidable: c5 = \(s.read(c5)) after head = \(i)")
      }
      // (Cog addition) c2's value never changes, so c3 and the effect never run again.
      if cutoff {
        checks.expect(
          counter.runs == 0 && counter.other == 0,
          "kairo/avoidable: c3 ran \(counter.runs)×, effect \(counter.other)×, expected 0, 0")
      }
    }
  }
}

/// `broadPropagation`: 50 branches head → head+i → +1 → effect.
public struct KairoBroad: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/broad" }
  public var summary: String { "broadPropagation: one head, 50 two-computed branches, 50 effects" }
  public var published: PublishedMeasure? { .kairo("broadPropagation") }
  /// 51 batches, each rerunning 50 × (head + i, + 1, effect).
  public var recomputesPerIteration: Int? { 51 * 150 }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let counter = RunCounter()
    let (head, last) = s.withBuild { () -> (SignalHandle<Int>, ComputedHandle<Int>) in
      let head = s.signal(0)
      var last: ComputedHandle<Int>?
      for i in 0..<50 {
        let current = s.computed { s.read(head) + i }
        let current2 = s.computed { s.read(current) + 1 }
        s.effect {
          _ = s.read(current2)
          counter.runs &+= 1
        }
        last = current2
      }
      return (head, last!)
    }
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      s.withBatch { s.write(head, 1) }
      counter.runs = 0
      for i in 0..<50 {
        s.withBatch { s.write(head, i) }
        checks.expect(
          s.read(last) == i + 50, "kairo/broad: last = \(s.read(last)), expected \(i + 50)")
      }
      checks.expect(
        counter.runs == 2500, "kairo/broad: effects ran \(counter.runs)×, expected 2500")
    }
  }
}

/// `deepPropagation`: a chain of 50 computeds and one effect.
public struct KairoDeep: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/deep" }
  public var summary: String { "deepPropagation: a chain of 50 computeds read by one effect" }
  public var published: PublishedMeasure? { .kairo("deepPropagation") }
  /// 51 batches (the first `write(1)` and 50 more), each rerunning the 50 computeds and the effect.
  public var recomputesPerIteration: Int? { 51 * 51 }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let len = 50
    let counter = RunCounter()
    let (head, current) = s.withBuild { () -> (SignalHandle<Int>, ComputedHandle<Int>) in
      let head = s.signal(0)
      var current = s.computed { s.read(head) + 1 }
      for _ in 1..<len {
        let c = current
        current = s.computed { s.read(c) + 1 }
      }
      let last = current
      s.effect {
        _ = s.read(last)
        counter.runs &+= 1
      }
      return (head, last)
    }
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      s.withBatch { s.write(head, 1) }
      counter.runs = 0
      for i in 0..<50 {
        s.withBatch { s.write(head, i) }
        checks.expect(
          s.read(current) == len + i, "kairo/deep: last = \(s.read(current)), expected \(len + i)")
      }
      checks.expect(counter.runs == 50, "kairo/deep: effect ran \(counter.runs)×, expected 50")
    }
  }
}

/// `diamond`: head → 5 computeds → sum → effect.
public struct KairoDiamond: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/diamond" }
  public var summary: String { "diamond: head → 5 computeds → one sum → effect; 500 writes" }
  public var published: PublishedMeasure? { .kairo("diamond") }
  /// 501 batches, each rerunning the 5 middle computeds, the sum and the effect.
  public var recomputesPerIteration: Int? { 501 * 7 }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let width = 5
    let counter = RunCounter()
    let (head, sum) = s.withBuild { () -> (SignalHandle<Int>, ComputedHandle<Int>) in
      let head = s.signal(0)
      var current: [ComputedHandle<Int>] = []
      for _ in 0..<width { current.append(s.computed { s.read(head) + 1 }) }
      let sum = s.computed { () -> Int in
        var total = 0  // JS: current.map(read).reduce(+, 0), in the same order
        for i in 0..<current.count { total += s.read(current[i]) }
        return total
      }
      s.effect {
        _ = s.read(sum)
        counter.runs &+= 1
      }
      return (head, sum)
    }
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      s.withBatch { s.write(head, 1) }
      checks.expect(s.read(sum) == 2 * width, "kairo/diamond: sum = \(s.read(sum)), expected 10")
      counter.runs = 0
      for i in 0..<500 {
        s.withBatch { s.write(head, i) }
        checks.expect(
          s.read(sum) == (i + 1) * width,
          "kairo/diamond: sum = \(s.read(sum)), expected \((i + 1) * width)")
      }
      checks.expect(counter.runs == 500, "kairo/diamond: effect ran \(counter.runs)×, expected 500")
    }
  }
}

/// `mux`: 100 heads → one computed collecting them → 100 index computeds → +1 → 100 effects.
///
/// The JS mux returns a fresh object each run (identity: always "changed"); here it returns an
/// `[Int]`, and Swift `==` compares contents. That lets equal arrays stop propagation where the
/// JS would not, but every write in `iter()` that reaches mux changes one element (the writes of
/// an equal value, `heads[0] = 0`, do not reach it in either), so the asserts and the work on
/// them are unaffected.
public struct KairoMux: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/mux" }
  public var summary: String { "mux: 100 heads collected into one array, split into 100 effects" }
  public var published: PublishedMeasure? { .kairo("mux") }
  /// No steady-state targets: its computeds return a fresh `[Int]` per run (as the JS returns
  /// fresh objects), which allocates, and reading one retains the array (impl/perf-notes.md).
  public var steadyStateTargets: SteadyStateTargets { [] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let (heads, splited) = s.withBuild { () -> ([SignalHandle<Int>], [ComputedHandle<Int>]) in
      let heads = (0..<100).map { _ in s.signal(0) }
      let mux = s.computed { () -> [Int] in heads.map { s.read($0) } }
      let splited = (0..<100)
        .map { index in s.computed { s.read(mux)[index] } }
        .map { x in s.computed { s.read(x) + 1 } }
      for x in splited { s.effect { _ = s.read(x) } }
      return (heads, splited)
    }
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      for i in 0..<10 {
        s.withBatch { s.write(heads[i], i) }
        checks.expect(
          s.read(splited[i]) == i + 1,
          "kairo/mux: splited[\(i)] = \(s.read(splited[i])), expected \(i + 1)")
      }
      for i in 0..<10 {
        s.withBatch { s.write(heads[i], i * 2) }
        checks.expect(
          s.read(splited[i]) == i * 2 + 1,
          "kairo/mux: splited[\(i)] = \(s.read(splited[i])), expected \(i * 2 + 1)")
      }
    }
  }
}

/// `repeatedObservers`: one computed reads the same head 30 times.
public struct KairoRepeated: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/repeated" }
  public var summary: String { "repeatedObservers: one computed reading the same signal 30 times" }
  public var published: PublishedMeasure? { .kairo("repeatedObservers") }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let size30 = 30
    let counter = RunCounter()
    let (head, current) = s.withBuild { () -> (SignalHandle<Int>, ComputedHandle<Int>) in
      let head = s.signal(0)
      let current = s.computed { () -> Int in
        var result = 0
        for _ in 0..<size30 { result += s.read(head) }
        return result
      }
      s.effect {
        _ = s.read(current)
        counter.runs &+= 1
      }
      return (head, current)
    }
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      s.withBatch { s.write(head, 1) }
      checks.expect(
        s.read(current) == size30, "kairo/repeated: current = \(s.read(current)), expected 30")
      counter.runs = 0
      for i in 0..<100 {
        s.withBatch { s.write(head, i) }
        checks.expect(
          s.read(current) == i * size30,
          "kairo/repeated: current = \(s.read(current)), expected \(i * size30)")
      }
      checks.expect(
        counter.runs == 100, "kairo/repeated: effect ran \(counter.runs)×, expected 100")
    }
  }
}

/// `triangle`: head, c1 … c9 (a chain), and a sum over all ten.
public struct KairoTriangle: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/triangle" }
  public var summary: String { "triangle: a chain of 10 nodes, all summed by one computed" }
  public var published: PublishedMeasure? { .kairo("triangle") }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let width = 10
    let counter = RunCounter()
    let (head, sum) = s.withBuild { () -> (SignalHandle<Int>, ComputedHandle<Int>) in
      let head = s.signal(0)
      // JS: list = [head, c1 … c9]; c_k = c_{k-1} + 1; the loop also makes a c10 nobody reads.
      var chain: [ComputedHandle<Int>] = []
      var current = s.computed { s.read(head) + 1 }
      for _ in 1..<width {
        chain.append(current)
        let c = current
        current = s.computed { s.read(c) + 1 }
      }
      let sum = s.computed { () -> Int in
        var total = s.read(head)
        for i in 0..<chain.count { total += s.read(chain[i]) }
        return total
      }
      s.effect {
        _ = s.read(sum)
        counter.runs &+= 1
      }
      return (head, sum)
    }
    let constant = (1...width).reduce(0, +)  // count(10) = 55
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      s.withBatch { s.write(head, 1) }
      checks.expect(s.read(sum) == constant, "kairo/triangle: sum = \(s.read(sum)), expected 55")
      counter.runs = 0
      for i in 0..<100 {
        s.withBatch { s.write(head, i) }
        checks.expect(
          s.read(sum) == constant - width + i * width,
          "kairo/triangle: sum = \(s.read(sum)), expected \(constant - width + i * width)")
      }
      checks.expect(
        counter.runs == 100, "kairo/triangle: effect ran \(counter.runs)×, expected 100")
    }
  }
}

/// `unstable`: a computed whose dependency set flips with head's parity.
public struct KairoUnstable: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/unstable" }
  public var summary: String { "unstable: a computed whose dependencies flip with head's parity" }
  public var published: PublishedMeasure? { .kairo("unstable") }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let counter = RunCounter()
    let (head, current) = s.withBuild { () -> (SignalHandle<Int>, ComputedHandle<Int>) in
      let head = s.signal(0)
      let double = s.computed { s.read(head) * 2 }
      let inverse = s.computed { -s.read(head) }
      let current = s.computed { () -> Int in
        var result = 0
        for _ in 0..<20 {
          result += s.read(head) % 2 != 0 ? s.read(double) : s.read(inverse)
        }
        return result
      }
      s.effect {
        _ = s.read(current)
        counter.runs &+= 1
      }
      return (head, current)
    }
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      s.withBatch { s.write(head, 1) }
      checks.expect(
        s.read(current) == 40, "kairo/unstable: current = \(s.read(current)), expected 40")
      counter.runs = 0
      for i in 0..<100 {
        s.withBatch { s.write(head, i) }
        // The JS per-step value assert is commented out upstream; not read here either.
      }
      checks.expect(
        counter.runs == 100, "kairo/unstable: effect ran \(counter.runs)×, expected 100")
    }
  }
}

/// molBench's D: `[0..4].map(i => ({ x: i + A % 2 - B % 2 }))`, a fresh value per run that
/// compares by identity, as JS objects do.
public final class MolRow: Equatable {
  public let x: [Int]
  @inlinable init(_ x: [Int]) { self.x = x }
  @inlinable public static func == (a: MolRow, b: MolRow) -> Bool { a === b }
}

/// How often molBench's E, F and effects H, I, J ran in one `iter()`.
@usableFromInline
final class MolRuns {
  @usableFromInline @exclusivity(unchecked) var e = 0
  @usableFromInline @exclusivity(unchecked) var f = 0
  @usableFromInline @exclusivity(unchecked) var h = 0
  @usableFromInline @exclusivity(unchecked) var i = 0
  @usableFromInline @exclusivity(unchecked) var j = 0

  @inlinable init() {}

  @inlinable @inline(__always)
  func reset() {
    e = 0
    f = 0
    h = 0
    i = 0
    j = 0
  }
}

/// `molBench`: the $mol_wire benchmark graph (A, B → C, D → E, F → G → effects H, I, J).
///
/// D returns a fresh `MolRow` per run, equal only to itself: the JS returns a fresh array of
/// `{x}` objects, which every framework compares by reference, so each rerun of D is a
/// change and F, which reads only D, reruns in both batches. (An `[Int]` compared by contents
/// would stop there: D's contents are always [0, 1, 2, 3, 4], and F would never rerun.)
///
/// Check (Cog addition, systems with `.equalityCutoff`): per `iter()`, batch 1 moves G from 1604
/// to 1607 (C = 2) and batch 2 back to 1604 (C = 0, E odd), while F stays hard(2) = 1599; so H
/// and I run twice and J not at all: `res` = {hard(1607), 1607, hard(1604), 1604} = {3204,
/// 1607, 3201, 1604}, count 4, sum 9616 (order by effect scheduling, so only count and sum are
/// checked). Derived by hand and confirmed by running the JS graph in node.
///
/// Run counts (systems that memoize and cut off, as alien-signals does): E once per `iter()`
/// (G reads it only in batch 2, when C is 0), F twice (D changes in both batches), H and I
/// twice, J never (F's value stays 1599): five `fib(16)` calls per `iter()`, as in the JS.
public struct KairoMol: BenchmarkCase {
  public init() {}
  public var id: String { "kairo/mol" }
  public var summary: String { "molBench: $mol_wire's graph with fib(16) work in some nodes" }
  public var published: PublishedMeasure? { .kairo("molBench") }
  /// No steady-state targets: D returns a fresh object holding a fresh `[Int]` per run (as
  /// the JS returns fresh objects), which allocates, and reading it retains it
  /// (impl/perf-notes.md).
  public var steadyStateTargets: SteadyStateTargets { [] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let res = CaseState<[Int]>([])
    res.value.reserveCapacity(64)
    let runs = MolRuns()
    let (a, b) = s.withBuild { () -> (SignalHandle<Int>, SignalHandle<Int>) in
      let a = s.signal(0)
      let b = s.signal(0)
      let c = s.computed { (s.read(a) % 2) + (s.read(b) % 2) }
      let d = s.computed { () -> MolRow in
        MolRow((0..<5).map { i in i + (s.read(a) % 2) - (s.read(b) % 2) })
      }
      let e = s.computed { () -> Int in
        runs.e &+= 1
        return kairoHard(s.read(c) + s.read(a) + s.read(d).x[0])
      }
      let f = s.computed { () -> Int in
        runs.f &+= 1
        let x = s.read(d).x[2]
        return kairoHard(x != 0 ? x : s.read(b))  // JS: D[2].x || B
      }
      let g = s.computed { () -> Int in
        let c1 = s.read(c)
        let c2 = s.read(c)
        return c1 + (c2 != 0 ? c2 : s.read(e) % 2) + s.read(d).x[4] + s.read(f)
      }
      s.effect {  // H
        runs.h &+= 1
        res.value.append(kairoHard(s.read(g)))
      }
      s.effect {  // I
        runs.i &+= 1
        res.value.append(s.read(g))
      }
      s.effect {  // J
        runs.j &+= 1
        res.value.append(kairoHard(s.read(f)))
      }
      return (a, b)
    }
    let cutoff = S.capabilities.contains(.equalityCutoff)
    let memoized = S.capabilities.contains([.memoizedComputeds, .equalityCutoff])
    let i = CaseState(0)
    return PreparedCase(iterationsPerSample: size.kairoIterations) {
      i.value += 1
      res.value.removeAll(keepingCapacity: true)
      runs.reset()
      s.withBatch {
        s.write(b, 1)
        s.write(a, 1 + i.value * 2)
      }
      s.withBatch {
        s.write(a, 2 + i.value * 2)
        s.write(b, 2)
      }
      if cutoff {
        var sum = 0
        for x in res.value { sum += x }
        checks.expect(
          res.value.count == 4 && sum == 9616,
          "kairo/mol: res = \(res.value), expected 3204, 1607, 3201, 1604 in some order")
      }
      // The original's run counts per iter() (alien-signals, which memoizes and cuts off
      // equal values): E once, F twice, H and I twice, J never: 5 hard() calls.
      if memoized {
        checks.expect(
          runs.e == 1 && runs.f == 2 && runs.h == 2 && runs.i == 2 && runs.j == 0,
          "kairo/mol: E ran \(runs.e)×, F \(runs.f)×, H \(runs.h)×, I \(runs.i)×, J "
            + "\(runs.j)×; the original runs E once, F twice, H twice, I twice, J never")
      }
    }
  }
}
