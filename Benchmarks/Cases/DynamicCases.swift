// Reactively's dynamic graphs (js-reactivity-benchmark `benches/reactively/dynamicBench.ts`,
// `dependencyGraph.ts`, `config.ts`, milomg @56eb45e).
//
// `makeGraph`: `width` signals with values 0 ..< width; `totalLayers - 1` rows of `width`
// computeds; node `myDex` reads `prev[(myDex + k) % width]` for k in 0 ..< nSources. One
// pseudo-random stream (seed "seed", consumed row-major) decides static (`rand() <
// staticFraction`) or dynamic per node. A static node sums its sources; a dynamic node starts
// from the first and adds the others except `tail[sum % tail.count]` when `sum` is odd. A
// second, fresh stream removes `round(width · (1 - readFraction))` leaves (`splice` at
// `floor(rand() · count)`); one effect reads the remaining leaves. `runGraph(iterations)`:
// `batch { sources[i % width] = i + i % width }`, read every read leaf; returns the sum of the
// read leaves. `count` = computed body runs.
//
// Values are `Double` in every config, as in the JS: the 3-5x500 sum is ≈ 3.02e241, and the
// 6-100x15 leaf sum (1.57e16) passes 2^53, where the JS result is the double-rounded sum; the
// same additions in the same order give the same doubles. The dynamic-node `sum & 1` and
// `sum % tail.length` are reproduced exactly (`jsParityAndRemainder`).
//
// One `iterate()` is one `runGraph(iterations)`, the JS sample (fastest of 5). The JS checks
// the 6th run after the build (2 warm-up runs, 1 more, then the timed ones); every run after the
// first starts from the same state when iterations ≥ 2·width (each source's last write repeats,
// and each source is written at least twice, so every write changes its value), so here
// `prepare` makes one untimed warm-up run and every `iterate()` checks the published sum and
// count. The count is checked on systems with memoized computeds (the JS checks it when
// `readFraction == 1 || testPullCounts`; our adapter semantics are `testPullCounts`).
//
// Expectations:
// - `.full`: the published `expected` values of config.ts.
// - `.quick`: derived with an independent transcription of makeGraph/runGraph plus a small lazy
//   push-pull reactive system in node (Reactively's algorithm: dependencies checked in read
//   order, stop at the first that changed; `===` results do not propagate). That same code
//   first reproduced every published full-size (sum, count) of config.ts and the
//   frameworks.test.ts values, then gave the quick values below. Each quick count is also the
//   published count per iteration times the quick iterations (5.8, 77, 209, 244, 2493, 539 per
//   iteration), a second check (except 25-1000x5, whose quick graph is narrower; its quick
//   values also follow from first principles, see below). Quick sizes keep the graph and cut
//   iterations (to 2·width or more: see above), except the two width-1000 configs, whose quick
//   graphs have width 100 (4-1000x12) and 50 (25-1000x5): 2·1000 iterations would not be quick.

public enum DynamicCases {
  @inlinable @MainActor
  public static func visit<V: CaseVisitor>(_ v: inout V) {
    for c in DynamicCase.published { v.visit(c) }
  }
}

/// A `TestConfig` of the JS benchmark.
public struct DynamicConfig: Sendable, Hashable {
  public var width: Int
  public var totalLayers: Int
  public var staticFraction: Double
  public var nSources: Int
  public var readFraction: Double
  public var iterations: Int

  public init(
    width: Int, totalLayers: Int, staticFraction: Double, nSources: Int, readFraction: Double,
    iterations: Int
  ) {
    self.width = width
    self.totalLayers = totalLayers
    self.staticFraction = staticFraction
    self.nSources = nSources
    self.readFraction = readFraction
    self.iterations = iterations
  }

  /// The JS `makeTitle`, e.g. `6-10x10 - dyn25% - lazy80%`.
  public var title: String { title(separator: " - ", percentSign: "%") }

  /// `makeTitle` with another separator and percent sign (ids use `-` and none).
  public func title(separator: String, percentSign: String) -> String {
    func percent(_ x: Double) -> String {
      "\(Int((x * 100).rounded(.toNearestOrAwayFromZero)))" + percentSign
    }
    let dyn = staticFraction < 1 ? separator + "dyn" + percent(1 - staticFraction) : ""
    let read = readFraction < 1 ? separator + "lazy" + percent(1 - readFraction) : ""
    return "\(nSources)-\(width)x\(totalLayers)\(dyn)\(read)"
  }
}

public struct DynamicCase: BenchmarkCase, Sendable {
  public var full: DynamicConfig
  public var fullSum: Double
  public var fullCount: Int
  public var quick: DynamicConfig
  public var quickSum: Double
  public var quickCount: Int

  public init(
    full: DynamicConfig, sum fullSum: Double, count fullCount: Int, quick: DynamicConfig,
    sum quickSum: Double, count quickCount: Int
  ) {
    self.full = full
    self.fullSum = fullSum
    self.fullCount = fullCount
    self.quick = quick
    self.quickSum = quickSum
    self.quickCount = quickCount
  }

  /// The six configs of config.ts with their published expectations, and the quick sizes.
  public static let published: [DynamicCase] = {
    func config(
      _ width: Int, _ totalLayers: Int, _ staticFraction: Double, _ nSources: Int,
      _ readFraction: Double, _ iterations: Int
    ) -> DynamicConfig {
      DynamicConfig(
        width: width, totalLayers: totalLayers, staticFraction: staticFraction,
        nSources: nSources, readFraction: readFraction, iterations: iterations)
    }
    return [
      // Quick sizes keep the shape and shrink width and iterations so that the slowest
      // baseline (the object-graph core) fits the callgrind phase of `scripts/compare.sh`.
      // A run writes source i % width, so iterations are twice the width: fewer would write
      // each source once with the value of the warm-up run, and the measured run would do
      // nothing. Quick expectations come from the simple core and Cog, which agree (the
      // tests check every system against them); the full ones are the published values.
      //
      // 2-10x5 - lazy80%: quick 2000 iterations (5.8 runs per iteration).
      DynamicCase(
        full: config(10, 5, 1, 2, 0.2, 600_000), sum: 19_199_968, count: 3_480_000,
        quick: config(10, 5, 1, 2, 0.2, 2000), sum: 63_968, count: 11_600),
      // 6-10x10 - dyn25% - lazy80%: quick 60 iterations (77 per iteration).
      DynamicCase(
        full: config(10, 10, 3 / 4, 6, 0.2, 15000), sum: 302_310_782_860, count: 1_155_000,
        quick: config(10, 10, 3 / 4, 6, 0.2, 60), sum: 1_189_226_380, count: 4620),
      // 4-1000x12 - dyn5%: quick graph width 40, 80 iterations (209 per iteration).
      DynamicCase(
        full: config(1000, 12, 0.95, 4, 1, 7000), sum: 29_355_933_696_000, count: 1_463_000,
        quick: config(40, 12, 0.95, 4, 1, 80), sum: 13_254_000_640, count: 16_720),
      // 25-1000x5: quick graph width 30, 60 iterations (115 runs per iteration). Also from
      // first principles, as this graph is static and fully read: a leaf row sums each source
      // 25^4 times, and after the run source s holds 30 + 2s (its last write, i = 30 + s), so
      // sum = 390625 · Σ(30 + 2s) = 390625 · 1770. (The same argument gives the published
      // full values: 390625 · 2,999,000, and 25 + 49 + 73 + 97 = 244 runs per iteration.)
      DynamicCase(
        full: config(1000, 5, 1, 25, 1, 3000), sum: 1_171_484_375_000, count: 732_000,
        quick: config(30, 5, 1, 25, 1, 60), sum: 691_406_250, count: 6900),
      // 3-5x500: quick 10 iterations (2493 per iteration).
      DynamicCase(
        full: config(5, 500, 1, 3, 1, 500), sum: 3.0239642676898464e241, count: 1_246_500,
        quick: config(5, 500, 1, 3, 1, 10), sum: 5.454043769380487e239, count: 24_930),
      // 6-100x15 - dyn50%: quick graph width 30, 60 iterations (350 per iteration).
      DynamicCase(
        full: config(100, 15, 0.5, 6, 1, 2000), sum: 15_664_996_402_790_400, count: 1_078_000,
        quick: config(30, 15, 0.5, 6, 1, 60), sum: 138_704_570_449_920, count: 21_000),
    ]
  }()

  /// `dynamic/` + the JS title without spaces and `%`: `dynamic/6-10x10-dyn25-lazy80`.
  public var id: String { "dynamic/" + full.title(separator: "-", percentSign: "") }
  public var summary: String {
    "dynamicBench \(full.title): \(full.width)×\(full.totalLayers - 1) computeds, "
      + "\(full.nSources) sources each, \(full.iterations) iterations"
  }
  /// Without memoization a read recomputes the whole cone: exponential in depth.
  public var requirements: SystemCapabilities { .memoizedComputeds }
  public var published: PublishedMeasure? {
    PublishedMeasure(name: full.title, samples: 5, aggregate: .fastest)
  }
  /// Every configuration, dynamic ones included: a row whose reads change between runs
  /// reuses its freed edges, so steady samples allocate and retain nothing.
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let config = size == .full ? full : quick
    let expectedSum = size == .full ? fullSum : quickSum
    let expectedCount = size == .full ? fullCount : quickCount
    let checkCount = S.capabilities.contains(.memoizedComputeds)
    let id = self.id
    let graph = DynamicGraph.make(on: system, config: config)
    _ = graph.run(iterations: config.iterations)  // warm-up: reach the steady state
    return PreparedCase(iterationsPerSample: 1) {
      graph.counter.runs = 0
      let sum = graph.run(iterations: config.iterations)
      checks.expect(
        sum == expectedSum, "\(id): sum = \(sum), expected \(expectedSum) (\(size.rawValue))")
      if checkCount {
        checks.expect(
          graph.counter.runs == expectedCount,
          "\(id): count = \(graph.counter.runs), expected \(expectedCount) (\(size.rawValue))")
      }
    }
  }
}

/// A graph made by `makeGraph` on one system.
public struct DynamicGraph<S: ReactiveSystem> {
  @usableFromInline let system: Guaranteed<S>
  public let sources: [SignalHandle<Double>]
  public let readLeaves: [ComputedHandle<Double>]
  @usableFromInline let counter: RunCounter

  @inlinable
  init(
    system: Guaranteed<S>, sources: [SignalHandle<Double>], readLeaves: [ComputedHandle<Double>],
    counter: RunCounter
  ) {
    self.system = system
    self.sources = sources
    self.readLeaves = readLeaves
    self.counter = counter
  }

  /// Computed body runs since the graph was made or `resetCount` was called.
  @MainActor public var count: Int { counter.runs }
  @MainActor public func resetCount() { counter.runs = 0 }

  /// `makeGraph(framework, config.readFraction, config)`, inside `withBuild`. The system must
  /// outlive the graph.
  @inlinable @MainActor
  public static func make(on system: S, config: DynamicConfig) -> DynamicGraph {
    let s = Guaranteed(system)
    return s.withBuild { () -> DynamicGraph in
      let counter = RunCounter()
      let sources = (0..<config.width).map { s.signal(Double($0)) }
      var random = JSPseudoRandom()
      var row = dynamicRow(s, sources, config, &random, counter)
      for _ in 1..<(config.totalLayers - 1) {
        row = dynamicRow(s, row, config, &random, counter)
      }
      // The leaves: the last row, minus `round(count · (1 - readFraction))` removed with a
      // fresh stream.
      var leaves = row
      var leafRandom = JSPseudoRandom()
      let skip = Int(
        (Double(leaves.count) * (1 - config.readFraction)).rounded(.toNearestOrAwayFromZero))
      for _ in 0..<skip {
        leaves.remove(at: Int((leafRandom.next() * Double(leaves.count)).rounded(.down)))
      }
      let readLeaves = leaves
      s.effect {
        for i in 0..<readLeaves.count { _ = s.read(readLeaves[i]) }
      }
      return DynamicGraph(system: s, sources: sources, readLeaves: readLeaves, counter: counter)
    }
  }

  /// `runGraph(graph, iterations, framework)`: the sum of the read leaves.
  @inlinable @MainActor
  public func run(iterations: Int) -> Double {
    let s = system
    let sources = self.sources
    let readLeaves = self.readLeaves
    let width = sources.count
    for i in 0..<iterations {
      s.withBatch {
        let sourceDex = i % width
        s.write(sources[sourceDex], Double(i + sourceDex))
      }
      for i in 0..<readLeaves.count { _ = s.read(readLeaves[i]) }
    }
    var total = 0.0
    // JS: readLeaves.reduce((total, leaf) => leaf.read() + total, 0)
    for i in 0..<readLeaves.count { total = s.read(readLeaves[i]) + total }
    return total
  }
}

/// `makeRow`: one row of computeds over `previous`.
@inlinable @MainActor
func dynamicRow<S: ReactiveSystem, H: ReadableHandle>(
  _ s: Guaranteed<S>, _ previous: [H], _ config: DynamicConfig, _ random: inout JSPseudoRandom,
  _ counter: RunCounter
) -> [ComputedHandle<Double>] where H.Value == Double {
  let width = previous.count
  var row: [ComputedHandle<Double>] = []
  row.reserveCapacity(width)
  for myDex in 0..<width {
    var mySources: [H] = []
    mySources.reserveCapacity(config.nSources)
    for sourceDex in 0..<config.nSources { mySources.append(previous[(myDex + sourceDex) % width]) }
    let mine = mySources
    if random.next() < config.staticFraction {
      // Static node: always reads all its sources.
      row.append(
        s.computed { () -> Double in
          counter.runs &+= 1
          var sum = 0.0
          for i in 0..<mine.count { sum += mine[i].read(in: s) }
          return sum
        })
    } else {
      // Dynamic node: drops one of the tail sources when the first source's value is odd.
      let first = mine[0]
      let tail = Array(mine.dropFirst())
      row.append(
        s.computed { () -> Double in
          counter.runs &+= 1
          var sum = first.read(in: s)
          let (shouldDrop, dropDex) = jsParityAndRemainder(sum, tail.count)
          for i in 0..<tail.count {
            if shouldDrop && Double(i) == dropDex { continue }
            sum += tail[i].read(in: s)
          }
          return sum
        })
    }
  }
  return row
}

/// The JS `sum & 0x1` (truthy when odd after ToInt32) and `sum % divisor` (a double remainder)
/// of the dynamic node. For integral values below 2^53, the only ones that reach a dynamic
/// node in the published configs, this is integer parity and remainder; other values take the
/// spec's definitions.
@inlinable @inline(__always)
func jsParityAndRemainder(_ x: Double, _ divisor: Int) -> (odd: Bool, remainder: Double) {
  if let n = Int64(exactly: x), n.magnitude < (1 << 53) {
    return (n & 1 != 0, Double(n % Int64(divisor)))
  }
  return (jsToInt32(x) & 1 != 0, x.truncatingRemainder(dividingBy: Double(divisor)))
}

/// ECMAScript ToInt32.
@usableFromInline
func jsToInt32(_ x: Double) -> Int32 {
  guard x.isFinite else { return 0 }
  var m = x.rounded(.towardZero).truncatingRemainder(dividingBy: 4_294_967_296)
  if m < 0 { m += 4_294_967_296 }
  return Int32(bitPattern: UInt32(m))
}

/// Internals exposed for CaseTests.
public enum CogBenchCasesTestHooks {
  /// `jsParityAndRemainder`.
  public static func parityAndRemainder(_ x: Double, _ divisor: Int) -> (
    odd: Bool, remainder: Double
  ) {
    jsParityAndRemainder(x, divisor)
  }
}
