// Cog's own cases (seed 000 §9): keyed diamonds, key churn, and the costs §9.4 tracks —
// steady-turn allocations, `box[key]` value-reference creation, retain/release traffic in
// propagation, peak memory of a 1,000-state graph.
//
// Every expected value here follows from the graph by arithmetic stated next to the check; the
// keyed cases never read a released key again and give every cold key a fresh number, so their
// run counts do not depend on whether a system frees released keys. Run counts of computeds and
// boxes are checked on systems with memoized computeds; values everywhere.

public enum CogCases {
  @inlinable @MainActor
  public static func visit<V: CaseVisitor>(_ v: inout V) {
    v.visitKeyed(CogKeyedDiamond())
    v.visitKeyed(CogKeyChurn())
    v.visit(CogSteadyTurn())
    v.visitKeyed(CogCacheSteadyTurn())
    v.visitKeyed(CogBoxRefCreation())
    v.visit(CogPropagationARC())
    v.visit(CogPeakMemory1000())
    v.visit(CogFirstRead())
    v.visit(CogFirstRead(computeds: true))
    v.visit(CogFirstRead(newContext: true))
    v.visitKeyed(CogKeyedSwitch())
    v.visit(CogDependencyChurn())
    v.visit(CogDeepAPI())
    v.visit(CogDeepAPI(explainsTurns: true))
    v.visit(CogDeepAPI(secondContext: true))
    visitBoundaryCases(&v)
  }
}

/// Keyed boxes in a diamond: `left[k] = head + k`, `right[k] = 2·head + k`,
/// `sum[k] = left[k] + right[k]` (= 3·head + 2k). An effect reads `sum[k]` for the warm keys
/// 0 ..< W; each iteration changes head, then reads C cold keys (never read before) outside any
/// computation and releases them.
public struct CogKeyedDiamond: KeyedBenchmarkCase {
  public init() {}
  public var id: String { "cog/keyed-diamond" }
  public var summary: String {
    "keyed diamond: left[k], right[k] → sum[k]; 1000 warm keys in an effect, 100 cold per turn"
  }

  @inlinable
  public func prepare<S: KeyedReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let warm = size == .full ? 1000 : 50
    let cold = size == .full ? 100 : 10
    let counts = RunCounter()  // runs: left bodies, other: right bodies, total: sum bodies
    let effectRuns = CaseState(0)
    let effectTotal = CaseState(0)
    let (head, left, right, sum) = s.withBuild {
      () -> (SignalHandle<Int>, KeyedHandle<Int, Int>, KeyedHandle<Int, Int>, KeyedHandle<Int, Int>)
      in
      let head = s.signal(0)
      let left = s.box { (k: Int) -> Int in
        counts.runs &+= 1
        return s.read(head) + k
      }
      let right = s.box { (k: Int) -> Int in
        counts.other &+= 1
        return s.read(head) * 2 + k
      }
      let sum = s.box { (k: Int) -> Int in
        counts.total &+= 1
        return s.read(left, key: k) + s.read(right, key: k)
      }
      s.effect {
        effectRuns.value &+= 1
        var t = 0
        for k in 0..<warm { t += s.read(sum, key: k) }
        effectTotal.value = t
      }
      return (head, left, right, sum)
    }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let headValue = CaseState(0)
    let nextCold = CaseState(warm)
    return PreparedCase(iterationsPerSample: size == .full ? 100 : 5) {
      counts.reset()
      effectRuns.value = 0
      headValue.value += 1
      let v = headValue.value
      s.withBatch { s.write(head, v) }
      // Σ_{k<W} (3v + 2k) = 3vW + W(W-1)
      checks.expect(
        effectRuns.value == 1 && effectTotal.value == 3 * v * warm + warm * (warm - 1),
        "cog/keyed-diamond: effect ran \(effectRuns.value)× with total \(effectTotal.value), "
          + "expected 1× with \(3 * v * warm + warm * (warm - 1))")
      let firstCold = nextCold.value
      var coldTotal = 0
      for k in firstCold..<(firstCold + cold) { coldTotal += s.read(sum, key: k) }
      for k in firstCold..<(firstCold + cold) {
        s.release(sum, key: k)
        s.release(left, key: k)
        s.release(right, key: k)
      }
      nextCold.value = firstCold + cold
      // Σ_{k=f}^{f+C-1} (3v + 2k) = 3vC + C(2f + C - 1)
      let expectedCold = 3 * v * cold + cold * (2 * firstCold + cold - 1)
      checks.expect(
        coldTotal == expectedCold,
        "cog/keyed-diamond: cold keys sum to \(coldTotal), expected \(expectedCold)")
      // Every warm key's three bodies run once (head changed), every cold key's once (new).
      if memoized {
        let n = warm + cold
        checks.expect(
          counts.runs == n && counts.other == n && counts.total == n,
          "cog/keyed-diamond: left/right/sum ran \(counts.runs)/\(counts.other)/\(counts.total)×, "
            + "expected \(n) each")
      }
    }
  }
}

/// Keys created and released every turn: an effect reads `item[k]` for a window of W keys; each
/// turn moves the window by S, so S keys are new (cold) and S keys leave and are released.
/// `item[k] = head + k` with head = 1 constant.
public struct CogKeyChurn: KeyedBenchmarkCase {
  public init() {}
  public var id: String { "cog/key-churn" }
  public var summary: String {
    "key churn: a window of 1000 keys moves by 100 per turn (100 created, 100 released)"
  }

  @inlinable
  public func prepare<S: KeyedReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let window = size == .full ? 1000 : 100
    let step = size == .full ? 100 : 10
    let counts = RunCounter()  // runs: item bodies, other: effect runs, total: effect's sum
    let (start, item) = s.withBuild { () -> (SignalHandle<Int>, KeyedHandle<Int, Int>) in
      let head = s.signal(1)
      let start = s.signal(0)
      let item = s.box { (k: Int) -> Int in
        counts.runs &+= 1
        return s.read(head) + k
      }
      s.effect {
        counts.other &+= 1
        let first = s.read(start)
        var t = 0
        for k in first..<(first + window) { t += s.read(item, key: k) }
        counts.total = t
      }
      return (start, item)
    }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let current = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 100 : 5) {
      counts.reset()
      let old = current.value
      let first = old + step
      current.value = first
      s.withBatch { s.write(start, first) }
      for k in old..<first { s.release(item, key: k) }
      // Σ_{k=f}^{f+W-1} (1 + k) = W + Wf + W(W-1)/2
      let expected = window + window * first + window * (window - 1) / 2
      checks.expect(
        counts.other == 1 && counts.total == expected,
        "cog/key-churn: effect ran \(counts.other)× with sum \(counts.total), expected 1× with "
          + "\(expected)")
      if memoized {
        checks.expect(
          counts.runs == step,
          "cog/key-churn: item ran \(counts.runs)×, expected \(step) (new keys)")
      }
    }
  }
}

/// A steady turn: 8 sources, each with a chain of 8 computeds and an effect, and one computed
/// summing the chain ends, read by one more effect. Each iteration writes a new value to one
/// source: 8 chain computeds + the sum rerun, 2 effects run; the dependency shape never
/// changes, so a system that reuses its edges and queues should allocate nothing.
public struct CogSteadyTurn: BenchmarkCase {
  public init() {}
  public var id: String { "cog/steady-turn" }
  public var summary: String {
    "steady turn: one write into 8 chains of 8 + a sum; same dependencies every turn"
  }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let chains = 8
    let depth = 8
    let counts = RunCounter()  // runs: computed bodies, other: effect runs
    let (sources, total) = s.withBuild { () -> ([SignalHandle<Int>], ComputedHandle<Int>) in
      let sources = (0..<chains).map { _ in s.signal(0) }
      var ends: [ComputedHandle<Int>] = []
      for j in 0..<chains {
        let source = sources[j]
        var c = s.computed { () -> Int in
          counts.runs &+= 1
          return s.read(source) + 1
        }
        for _ in 1..<depth {
          let previous = c
          c = s.computed { () -> Int in
            counts.runs &+= 1
            return s.read(previous) + 1
          }
        }
        let end = c
        s.effect {
          counts.other &+= 1
          _ = s.read(end)
        }
        ends.append(end)
      }
      let total = s.computed { () -> Int in
        counts.runs &+= 1
        var t = 0
        for i in 0..<ends.count { t += s.read(ends[i]) }
        return t
      }
      s.effect {
        counts.other &+= 1
        _ = s.read(total)
      }
      return (sources, total)
    }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    let valueSum = CaseState(0)  // Σ of the sources' values
    let lastWritten = CaseState([Int](repeating: 0, count: chains))
    return PreparedCase(iterationsPerSample: size == .full ? 1000 : 16) {
      counts.reset()
      tick.value += 1
      let t = tick.value  // strictly increasing: every write changes its source
      let j = t % chains
      valueSum.value += t - lastWritten.value[j]
      lastWritten.value[j] = t
      s.withBatch { s.write(sources[j], t) }
      // total = Σ_j (s_j + depth)
      let expected = valueSum.value + chains * depth
      checks.expect(
        s.read(total) == expected && counts.other == 2,
        "cog/steady-turn: total = \(s.read(total)), effects ran \(counts.other)×, expected "
          + "\(expected) and 2×")
      if memoized {
        checks.expect(
          counts.runs == depth + 1,
          "cog/steady-turn: computeds ran \(counts.runs)×, expected \(depth + 1)")
      }
    }
  }
}

/// A steady turn with `.cache` rows present (seed 000 §7): a box `item[k] = 10k` with a cache
/// limit L keeps its C < L keys cached while unobserved (they were read once, outside any
/// computation, when the case was built). Each iteration writes a source read by a chain of 8
/// computeds and an effect, then reads C/4 of the cached keys outside any computation (a
/// different quarter each time). No item body runs; the cache list, its limit and its
/// retention clock are consulted every turn, and nothing should allocate. (Each `box[k]`
/// reference retains its box once, as in `cog/box-ref-creation`: 8 retains per iteration.)
public struct CogCacheSteadyTurn: KeyedBenchmarkCase {
  public init() {}
  public var id: String { "cog/cache-steady-turn" }
  public var summary: String {
    "steady turn with 32 cached unobserved keys present; 8 cached keys read per turn"
  }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations] }

  @inlinable
  public func prepare<S: KeyedReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let cached = 32
    let depth = 8
    let counts = RunCounter()  // runs: chain bodies, other: effect runs, total: item bodies
    let (source, item) = s.withBuild { () -> (SignalHandle<Int>, KeyedHandle<Int, Int>) in
      let source = s.signal(0)
      let item = s.cachedBox(limit: cached * 2) { (k: Int) -> Int in
        counts.total &+= 1
        return k * 10
      }
      var c = s.computed { () -> Int in
        counts.runs &+= 1
        return s.read(source) + 1
      }
      for _ in 1..<depth {
        let previous = c
        c = s.computed { () -> Int in
          counts.runs &+= 1
          return s.read(previous) + 1
        }
      }
      let end = c
      s.effect {
        counts.other &+= 1
        _ = s.read(end)
      }
      return (source, item)
    }
    for k in 0..<cached { _ = s.read(item, key: k) }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 1000 : 16) {
      counts.reset()
      tick.value += 1
      let t = tick.value
      s.withBatch { s.write(source, t) }
      let quarter = cached / 4
      let first = (t % 4) * quarter
      var sum = 0
      for k in first..<(first + quarter) { sum += s.read(item, key: k) }
      // Σ_{k=f}^{f+Q-1} 10k = 10(Qf + Q(Q-1)/2)
      let expected = 10 * (quarter * first + quarter * (quarter - 1) / 2)
      checks.expect(
        counts.other == 1 && sum == expected,
        "cog/cache-steady-turn: effect ran \(counts.other)×, cached keys summed to \(sum), "
          + "expected 1× and \(expected)")
      if memoized {
        checks.expect(
          counts.runs == depth && counts.total == 0,
          "cog/cache-steady-turn: chain ran \(counts.runs)×, items \(counts.total)×, expected "
            + "\(depth) and 0 (cached keys stay current)")
      }
    }
  }
}

/// `box[key]` value-reference creation on warm keys: an effect keeps N keys of `item[k] = base
/// + k` observed and also reads `salt`; each iteration writes `salt` (the effect reruns and
/// reads the N references again, tracked, in the same order), then reads the N references
/// outside any computation. No item body runs; nothing should allocate.
public struct CogBoxRefCreation: KeyedBenchmarkCase {
  public init() {}
  public var id: String { "cog/box-ref-creation" }
  public var summary: String {
    "box[key] references on 1000 warm keys: tracked re-reads in an effect + untracked reads"
  }
  public var steadyStateTargets: SteadyStateTargets { .noAllocations }

  @inlinable
  public func prepare<S: KeyedReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let n = size == .full ? 1000 : 100
    let base = 7
    let counts = RunCounter()  // runs: item bodies, other: effect runs, total: effect's sum
    let (salt, item) = s.withBuild { () -> (SignalHandle<Int>, KeyedHandle<Int, Int>) in
      let head = s.signal(base)
      let salt = s.signal(0)
      let item = s.box { (k: Int) -> Int in
        counts.runs &+= 1
        return s.read(head) + k
      }
      s.effect {
        counts.other &+= 1
        var t = s.read(salt)
        for k in 0..<n { t += s.read(item, key: k) }
        counts.total = t
      }
      return (salt, item)
    }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    let itemSum = n * base + n * (n - 1) / 2  // Σ_{k<N} (base + k)
    return PreparedCase(iterationsPerSample: size == .full ? 100 : 5) {
      counts.reset()
      tick.value += 1
      let t = tick.value
      s.withBatch { s.write(salt, t) }
      var untracked = 0
      for k in 0..<n { untracked += s.read(item, key: k) }
      checks.expect(
        counts.other == 1 && counts.total == t + itemSum && untracked == itemSum,
        "cog/box-ref-creation: effect ran \(counts.other)× with \(counts.total), untracked sum "
          + "\(untracked); expected 1× with \(t + itemSum), \(itemSum)")
      if memoized {
        checks.expect(
          counts.runs == 0, "cog/box-ref-creation: item ran \(counts.runs)×, expected 0")
      }
    }
  }
}

/// Propagation through 100 branches of 5 computeds (`b[i][0] = head + i`, `b[i][d] =
/// b[i][d-1] + 1`), each read by an effect: every write reruns 500 computeds and 100 effects.
/// The graph walk itself should retain and release nothing and allocate nothing.
public struct CogPropagationARC: BenchmarkCase {
  public init() {}
  public var id: String { "cog/propagation-arc" }
  public var summary: String {
    "propagation: one write reruns 100 branches × 5 computeds and 100 effects"
  }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let branches = 100
    let depth = 5
    let counts = RunCounter()  // runs: computed bodies, other: effect runs, total: effect sum
    let head = s.withBuild { () -> SignalHandle<Int> in
      let head = s.signal(0)
      for i in 0..<branches {
        var c = s.computed { () -> Int in
          counts.runs &+= 1
          return s.read(head) + i
        }
        for _ in 1..<depth {
          let previous = c
          c = s.computed { () -> Int in
            counts.runs &+= 1
            return s.read(previous) + 1
          }
        }
        let end = c
        s.effect {
          counts.other &+= 1
          counts.total &+= s.read(end)
        }
      }
      return head
    }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 100 : 5) {
      counts.reset()
      tick.value += 1
      let v = tick.value
      s.withBatch { s.write(head, v) }
      // Σ_i (v + i + depth - 1)
      let expected = branches * (v + depth - 1) + branches * (branches - 1) / 2
      checks.expect(
        counts.other == branches && counts.total == expected,
        "cog/propagation-arc: effects ran \(counts.other)× reading \(counts.total), expected "
          + "\(branches)× reading \(expected)")
      if memoized {
        checks.expect(
          counts.runs == branches * depth,
          "cog/propagation-arc: computeds ran \(counts.runs)×, expected \(branches * depth)")
      }
    }
  }
}

/// A 1,000-state graph: 100 signals (values 0 ..< 100) and 9 rows of 100 computeds, node x
/// of a row summing nodes x and x+1 (mod 100) of the row before, and one effect reading the
/// last row. One `iterate()` builds it, runs one turn (`s0 = 100`) and leaves it alive, so the
/// measured region's net allocation is the graph's size; `beforeSample` disposes the previous
/// graph outside the region.
public struct CogPeakMemory1000: BenchmarkCase {
  public init() {}
  public var id: String { "cog/peak-memory-1000" }
  public var summary: String {
    "peak memory: build 100 signals + 900 computeds + 1 effect, one turn; the graph stays alive"
  }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let width = 100
    let rows = 9
    let counts = RunCounter()  // runs: computed bodies, other: effect runs, total: leaf sum
    let built = CaseState(false)
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let setUp: @MainActor () -> Void = {
      if built.value {
        s.cleanup()
        s.collect()
        built.value = false
      }
    }
    return PreparedCase(
      iterationsPerSample: 1, beforeSample: setUp,
      iterate: {
        setUp()  // no-op after beforeSample
        counts.reset()
        let source0 = s.withBuild { () -> SignalHandle<Int> in
          let sources = (0..<width).map { s.signal($0) }
          var row = peakMemoryRow(s, sources, counts)
          for _ in 1..<rows { row = peakMemoryRow(s, row, counts) }
          let leaves = row
          s.effect {
            counts.other &+= 1
            var t = 0
            for i in 0..<leaves.count { t += s.read(leaves[i]) }
            counts.total = t
          }
          return sources[0]
        }
        built.value = true
        // Each row's sum doubles the previous row's: leaf sum = 2^9 · Σ sources.
        checks.expect(
          counts.total == 512 * 4950,
          "cog/peak-memory-1000: leaf sum \(counts.total) after build, expected \(512 * 4950)")
        let buildRuns = counts.runs
        s.withBatch { s.write(source0, 100) }
        checks.expect(
          counts.total == 512 * 5050 && counts.other == 2,
          "cog/peak-memory-1000: leaf sum \(counts.total), effect ran \(counts.other)×, "
            + "expected \(512 * 5050), 2×")
        // Build: 900 runs. The turn: row l has l + 1 nodes that depend on s0 → 2 + … + 10 = 54.
        if memoized {
          checks.expect(
            buildRuns == rows * width && counts.runs - buildRuns == 54,
            "cog/peak-memory-1000: computeds ran \(buildRuns)× to build, "
              + "\(counts.runs - buildRuns)× in the turn, expected 900, 54")
        }
      })
  }
}

/// The first read of fresh states at scale (issue 25): `beforeSample` makes N signals with
/// values 0 ..< N outside the measured region, and drops the previous sample's; the region
/// reads each once, outside any computation. On Cog and its layouts a signal is a descriptor
/// until its first read in a context makes its row, so this measures what a first read costs
/// in a warm context (the record's "Creation per row" divides by N): a sample's rows reuse
/// the slots its previous sample freed, so no column grows (a new context's first reads:
/// `cog/first-read-new-context`, below). On systems that make the node with the signal, it
/// is a plain read.
///
/// `cog/first-read-computed` (`computeds`): N signals and N computeds, computed i = signal i +
/// 1, and the region reads each computed once: its row, its first run, and its read of the
/// signal, which makes the signal's row and the edge (the research's "first read of a fresh
/// state", 10⁶ sources and 10⁶ computeds). Per created row is per computed, its signal's row
/// included.
///
/// `cog/first-read-new-context` (`newContext`, needs `.ownAPI`): `cog/first-read` with each
/// sample's reads in a context made for it (`ReactiveSystem.firstReadsInNewContext`): the
/// rows are appended and the columns grow, where the other two reuse the slots the previous
/// sample freed.
public struct CogFirstRead: BenchmarkCase {
  public let computeds: Bool
  public let newContext: Bool
  public init(computeds: Bool = false, newContext: Bool = false) {
    self.computeds = computeds
    self.newContext = newContext
  }
  public var id: String {
    newContext
      ? "cog/first-read-new-context" : computeds ? "cog/first-read-computed" : "cog/first-read"
  }
  public var summary: String {
    newContext
      ? "first read in a new context: 100,000 fresh signals (1,000,000 at full size), each "
        + "read once in a context made for the sample"
      : computeds
        ? "first read of a computed: 100,000 fresh computeds over as many fresh signals "
          + "(1,000,000 at full size), each computed read once"
        : "first read: 100,000 fresh signals (1,000,000 at full size), each read once"
  }
  public var requirements: SystemCapabilities { newContext ? .ownAPI : [] }
  public var createdRows: CreatedRows? {
    CreatedRows(computeds ? .automatic : .manual, quick: 100_000, full: 1_000_000)
  }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    if newContext {
      return system.firstReadsInNewContext(count: createdRows!.count(size), checks: checks)
    }
    return computeds
      ? prepareComputeds(on: system, size: size, checks: checks)
      : prepareSignals(on: system, size: size, checks: checks)
  }

  @inlinable
  func prepareSignals<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let n = createdRows!.count(size)
    let signals = CaseState<[SignalHandle<Int>]>([])
    let ready = CaseState(false)
    let setUp: @MainActor () -> Void = {
      signals.value = []
      s.collect()  // the last sample's signals and their rows, freed outside the region
      signals.value = s.withBuild { (0..<n).map { s.signal($0) } }
      ready.value = true
    }
    return PreparedCase(
      iterationsPerSample: 1, beforeSample: setUp,
      iterate: {
        if !ready.value { setUp() }
        ready.value = false
        let made = signals.value
        var total = 0
        for i in 0..<made.count { total &+= s.read(made[i]) }
        checks.expect(
          total == n * (n - 1) / 2, "cog/first-read: sum \(total), expected \(n * (n - 1) / 2)")
      })
  }

  @inlinable
  func prepareComputeds<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let n = createdRows!.count(size)
    let signals = CaseState<[SignalHandle<Int>]>([])
    let made = CaseState<[ComputedHandle<Int>]>([])
    let ready = CaseState(false)
    let setUp: @MainActor () -> Void = {
      made.value = []
      signals.value = []
      s.collect()  // the last sample's states and their rows, freed outside the region
      s.withBuild {
        signals.value = (0..<n).map { s.signal($0) }
        // `&+`, not `+`: a body identical to kairo/diamond's (`s.read(head) + 1`) was merged
        // with it by LLVM, which moved kairo/diamond's count (+0.95%, a thunk per call).
        made.value = signals.value.map { a in s.computed { s.read(a) &+ 1 } }
      }
      ready.value = true
    }
    return PreparedCase(
      iterationsPerSample: 1, beforeSample: setUp,
      iterate: {
        if !ready.value { setUp() }
        ready.value = false
        let computeds = made.value
        var total = 0
        for i in 0..<computeds.count { total &+= s.read(computeds[i]) }
        checks.expect(
          total == n * (n + 1) / 2,
          "cog/first-read-computed: sum \(total), expected \(n * (n + 1) / 2)")
      })
  }
}

@inlinable @MainActor
func peakMemoryRow<S: ReactiveSystem, H: ReadableHandle>(
  _ s: Guaranteed<S>, _ previous: [H], _ counts: RunCounter
) -> [ComputedHandle<Int>] where H.Value == Int {
  let width = previous.count
  return (0..<width).map { x in
    let a = previous[x]
    let b = previous[(x + 1) % width]
    return s.computed { () -> Int in
      counts.runs &+= 1
      return a.read(in: s) + b.read(in: s)
    }
  }
}

/// kairo/deep's graph and iteration through Cog's own API instead of the benchmark adapter
/// (`ReactiveSystem.deepThroughOwnAPI`): what an app's chain of 50 automatic cogs and one
/// reaction costs per recomputed row, next to `kairo/deep`'s figure through the adapter. With
/// `explainsTurns`, `cog/deep-explained`: the same in a context that explains every turn
/// (`Cogs.explainsTurns`), what explanations cost per recomputed row when on.
public struct CogDeepAPI: BenchmarkCase {
  public let explainsTurns: Bool
  /// `cog/deep-second-context`: another live context read the chain first.
  public let secondContext: Bool
  public init(explainsTurns: Bool = false, secondContext: Bool = false) {
    self.explainsTurns = explainsTurns
    self.secondContext = secondContext
  }
  public var id: String {
    explainsTurns
      ? "cog/deep-explained" : secondContext ? "cog/deep-second-context" : "cog/deep-api"
  }
  public var summary: String {
    explainsTurns
      ? "cog/deep-api with explainsTurns on: what explaining every turn costs per recomputed row"
      : secondContext
        ? "cog/deep-api in a second context: another live context read the chain first, so "
          + "each read finds its row through this context's map"
        : "kairo/deep through Cog's own API: 50 chained automatic cogs read by one reaction"
  }
  public var requirements: SystemCapabilities { .ownAPI }
  /// As kairo/deep: 51 turns, each rerunning the 50 computeds and the effect.
  public var recomputesPerIteration: Int? { 51 * 51 }
  /// None when explaining: an explanation describes values and keeps the last 64 turns.
  public var steadyStateTargets: SteadyStateTargets {
    explainsTurns ? [] : [.noAllocations, .noRetainRelease]
  }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    system.deepThroughOwnAPI(
      length: 50, iterationsPerSample: size.kairoIterations, explainsTurns: explainsTurns,
      secondContext: secondContext, checks: checks)
  }
}
