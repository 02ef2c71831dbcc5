// Sink-read cases: Kairo's deep, broad, diamond and triangle graphs without their effects, and
// a fan-out of one source into 1,000 computeds. One `iterate()` is one update: write a new
// value to the source (outside any batch), then read every sink outside any computation.
//
// This is the shape of work swift-state-graph was measured on (issue 17; a local Linux port,
// "reading every sink after each write"; `research/baselines.md` §1 calls it an update), so
// that the object-graph model and the real library can be compared per recomputed node:
// instructions of a sample ÷ (updates in the sample × computeds an update reruns). The write
// and the sink reads are part of the update and counted with it.
//
// Every update writes a value the source never held, so every computed reruns once per update
// on a memoizing system (`recomputesPerIteration`). The bodies count their runs, and each
// update checks the count exactly: on a system without memoized computeds (Observation) a
// body runs once per read, which is the same count on every shape but the triangle, whose sum
// reads the chain nodes that also read each other (1 + 1 + 2 + … + 9 = 46 runs). The sum of
// the sinks is checked against the arithmetic of the graph.

public enum SinkCases {
  @inlinable @MainActor
  public static func visit<V: CaseVisitor>(_ v: inout V) {
    for shape in SinkCase.Shape.allCases { v.visit(SinkCase(shape)) }
  }
}

/// One update = one write to the source + a read of every sink (see the top of the file).
public struct SinkCase: BenchmarkCase {
  public enum Shape: String, CaseIterable, Sendable {
    /// Kairo's `deepPropagation` graph: head → c1 → … → c50; the sink is c50.
    case deep
    /// Kairo's `broadPropagation` graph: 50 branches head → head + i → + 1; 50 sinks.
    case broad
    /// Kairo's `diamond` graph: head → 5 × (head + 1) → sum; the sink is the sum.
    case diamond
    /// Kairo's `triangle` graph: head → c1 → … → c9 (and a c10 nobody reads), the sink
    /// summing head and c1 … c9.
    case triangle
    /// One source read by 1,000 computeds (`source + i`), every one a sink.
    case fanOut = "fan-out"
  }

  public let shape: Shape
  @inlinable public init(_ shape: Shape) { self.shape = shape }

  public var id: String { "sinks/\(shape.rawValue)" }

  public var summary: String {
    let graph: String
    switch shape {
    case .deep: graph = "a chain of 50 computeds"
    case .broad: graph = "50 branches of 2 computeds"
    case .diamond: graph = "5 computeds summed by one"
    case .triangle: graph = "a chain of 9 computeds, all summed by one"
    case .fanOut: graph = "1 source → 1,000 computeds"
    }
    return "\(graph); one update = write the source, read every sink (no effects)"
  }

  /// Computeds one update reruns on a memoizing system.
  public var recomputesPerIteration: Int? { computedsPerUpdate }
  public var steadyStateTargets: SteadyStateTargets { [.noAllocations, .noRetainRelease] }

  @inlinable public var computedsPerUpdate: Int {
    switch shape {
    case .deep: return 50
    case .broad: return 100
    case .diamond: return 6
    case .triangle: return 10
    case .fanOut: return 1000
    }
  }

  /// Body runs per update on a system that reruns a computed on every read.
  @inlinable public var unmemoizedRunsPerUpdate: Int {
    shape == .triangle ? 1 + (1...9).reduce(0, +) : computedsPerUpdate
  }

  /// Updates per sample: quick keeps a sample of the slowest baseline to about a thousand
  /// recomputes, so that it fits the callgrind phase; full is ten times that.
  @inlinable public func updatesPerSample(_ size: CaseSize) -> Int {
    let quick: Int
    switch shape {
    case .deep: quick = 10
    case .broad: quick = 5
    case .diamond: quick = 100
    case .triangle: quick = 50
    case .fanOut: quick = 1
    }
    return size == .full ? 10 * quick : quick
  }

  /// The sum of every sink's value once the source holds `v`.
  @inlinable public func expectedSum(_ v: Int) -> Int {
    switch shape {
    case .deep: return v + 50
    case .broad: return 50 * v + (0..<50).reduce(0, +) + 50
    case .diamond: return 5 * (v + 1)
    case .triangle: return 10 * v + (1...9).reduce(0, +)
    case .fanOut: return 1000 * v + (0..<1000).reduce(0, +)
    }
  }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let counter = RunCounter()  // runs: computed bodies
    let shape = self.shape
    let (source, sinks) = s.withBuild { () -> (SignalHandle<Int>, [ComputedHandle<Int>]) in
      switch shape {
      case .deep: return sinkDeep(s, counter)
      case .broad: return sinkBroad(s, counter)
      case .diamond: return sinkDiamond(s, counter)
      case .triangle: return sinkTriangle(s, counter)
      case .fanOut: return sinkFanOut(s, counter)
      }
    }
    // The first read runs every computed and makes every dependency (not measured).
    var first = 0
    for sink in sinks { first += s.read(sink) }
    let id = self.id
    checks.expect(
      first == expectedSum(0), "\(id): sinks sum to \(first) at build, expected \(expectedSum(0))")
    let runs =
      S.capabilities.contains(.memoizedComputeds) ? computedsPerUpdate : unmemoizedRunsPerUpdate
    let value = CaseState(0)
    let this = self
    return PreparedCase(iterationsPerSample: updatesPerSample(size)) {
      counter.runs = 0
      value.value &+= 1
      let v = value.value  // strictly increasing: every write changes the source
      s.write(source, v)
      var total = 0
      for i in 0..<sinks.count { total &+= s.read(sinks[i]) }
      checks.expect(
        total == this.expectedSum(v) && counter.runs == runs,
        "\(id): sinks sum to \(total) after writing \(v), computeds ran \(counter.runs)×; "
          + "expected \(this.expectedSum(v)) and \(runs)×")
    }
  }
}

// MARK: - Graphs (each returns the source and the sinks, in read order)

@inlinable @MainActor
func sinkDeep<S: ReactiveSystem>(_ s: Guaranteed<S>, _ counter: RunCounter)
  -> (SignalHandle<Int>, [ComputedHandle<Int>])
{
  let head = s.signal(0)
  return (head, [sinkChain(s, counter, from: head, length: 50).last!])
}

@inlinable @MainActor
func sinkBroad<S: ReactiveSystem>(_ s: Guaranteed<S>, _ counter: RunCounter)
  -> (SignalHandle<Int>, [ComputedHandle<Int>])
{
  let head = s.signal(0)
  var sinks: [ComputedHandle<Int>] = []
  for i in 0..<50 {
    let current = s.computed { () -> Int in
      counter.runs &+= 1
      return s.read(head) + i
    }
    sinks.append(
      s.computed { () -> Int in
        counter.runs &+= 1
        return s.read(current) + 1
      })
  }
  return (head, sinks)
}

@inlinable @MainActor
func sinkDiamond<S: ReactiveSystem>(_ s: Guaranteed<S>, _ counter: RunCounter)
  -> (SignalHandle<Int>, [ComputedHandle<Int>])
{
  let head = s.signal(0)
  var current: [ComputedHandle<Int>] = []
  for _ in 0..<5 {
    current.append(
      s.computed { () -> Int in
        counter.runs &+= 1
        return s.read(head) + 1
      })
  }
  return (head, [sinkSum(s, counter, head: nil, current)])
}

@inlinable @MainActor
func sinkTriangle<S: ReactiveSystem>(_ s: Guaranteed<S>, _ counter: RunCounter)
  -> (SignalHandle<Int>, [ComputedHandle<Int>])
{
  let head = s.signal(0)
  // As in Kairo: the loop also makes a c10 that nobody reads (lazy: it never runs).
  let chain = sinkChain(s, counter, from: head, length: 10)
  return (head, [sinkSum(s, counter, head: head, Array(chain.dropLast()))])
}

@inlinable @MainActor
func sinkFanOut<S: ReactiveSystem>(_ s: Guaranteed<S>, _ counter: RunCounter)
  -> (SignalHandle<Int>, [ComputedHandle<Int>])
{
  let source = s.signal(0)
  var sinks: [ComputedHandle<Int>] = []
  sinks.reserveCapacity(1000)
  for i in 0..<1000 {
    sinks.append(
      s.computed { () -> Int in
        counter.runs &+= 1
        return s.read(source) + i
      })
  }
  return (source, sinks)
}

/// c1 = head + 1, c_k = c_{k-1} + 1: the chain c1 … c_length.
@inlinable @MainActor
func sinkChain<S: ReactiveSystem>(
  _ s: Guaranteed<S>, _ counter: RunCounter, from head: SignalHandle<Int>, length: Int
) -> [ComputedHandle<Int>] {
  var current = s.computed { () -> Int in
    counter.runs &+= 1
    return s.read(head) + 1
  }
  var chain = [current]
  for _ in 1..<length {
    let c = current
    current = s.computed { () -> Int in
      counter.runs &+= 1
      return s.read(c) + 1
    }
    chain.append(current)
  }
  return chain
}

/// One computed summing `head` (when given, read first) and `nodes`, in order.
@inlinable @MainActor
func sinkSum<S: ReactiveSystem>(
  _ s: Guaranteed<S>, _ counter: RunCounter, head: SignalHandle<Int>?,
  _ nodes: [ComputedHandle<Int>]
) -> ComputedHandle<Int> {
  s.computed { () -> Int in
    counter.runs &+= 1
    var total = head.map { s.read($0) } ?? 0
    for i in 0..<nodes.count { total += s.read(nodes[i]) }
    return total
  }
}
