@_spi(Testing) import Cog
import CogBenchCases
import CogCore

/// Cog behind the benchmark adapter.
///
/// Mapping: `signal` = manual cog, `computed` = automatic cog (reads in its body go through
/// `Cogs`' subscript, which tracks the running body), `effect` = reaction, `withBatch` = turn,
/// `write` outside a batch = a turn of one write. Inside a batch, signal reads go through the
/// turn's writer and see the values written earlier in the batch (as in the JS frameworks).
/// A write or batch made inside an effect is scheduled from the reaction as a later turn.
///
/// Methods are `@inlinable` so that a case specialized for this system calls Cog's API
/// directly, with no witness-table call per read.
@MainActor
public final class CogSystem: ReactiveSystem {
  public nonisolated static var id: String { "cog" }
  public nonisolated static var capabilities: SystemCapabilities {
    SystemCapabilities.all.union([.uiReads, .ownAPI])
  }

  public let cogs = Cogs(reservingRows: 1024)
  /// `cogs`' graph, for the computed handles' reads: one load from the system instead of two.
  @usableFromInline let graph: CogGraph
  // `@exclusivity(unchecked)`: the adapter's own state is touched on every write and effect
  // run; it is main-actor confined and never accessed overlapping.
  @exclusivity(unchecked) @usableFromInline var writer: CogWriter?
  @exclusivity(unchecked) @usableFromInline var built = EffectList<CogReaction>()
  /// Owns the descriptors behind the handles (handles are unretained).
  public let handles = HandleKeeper()

  public init() {
    graph = cogs.graph
    // Dropped descriptors go in `collect()`, untimed (as JS leaves them to its collector).
    cogs.sweepsDroppedAfterFlush = false
  }

  @inlinable
  public func signal<T: Equatable>(_ initial: T) -> SignalHandle<T> {
    SignalHandle(handles.keep(Cog(initial)))
  }

  @inlinable
  public func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T> {
    ComputedHandle(handles.keep(Cog(body: AdapterBody(body))))
  }

  @inlinable
  public func effect(_ body: @escaping () -> Void) {
    effect(prepared: Self.prepareEffect(body))
  }

  /// The case's closure is the reaction's body as is; writes made in it find the running
  /// reaction through `runningReaction`. (A wrapper that set the reaction around the body
  /// cost a closure context per effect.)
  @inlinable
  public static func prepareEffect(_ body: consuming @escaping () -> Void) -> CogPreparedEffect {
    CogPreparedEffect(row: ReactionRow.plain("effect", body))
  }

  @inlinable
  public func effect(prepared: consuming CogPreparedEffect) {
    built.append(cogs.react(prepared: prepared.row))
  }

  /// Inside a batch, the batch's writer (it sees the batch's own writes); otherwise the
  /// same read as a computed handle's (`cogs[cog]`, named unretained: a closure around it
  /// was not inlined into the case's body).
  @inlinable @inline(__always)
  public func read<T>(_ signal: SignalHandle<T>) -> T {
    if let writer { return readInBatch(signal, writer) }
    return graph.read(Unretained(signal.object(as: Cog<T>.self)), .tracked)
  }

  @inlinable @inline(never)
  func readInBatch<T>(_ signal: SignalHandle<T>, _ writer: CogWriter) -> T {
    withGuaranteed(signal.object(as: Cog<T>.self)) { writer[$0] }
  }

  /// The handle's cog read unretained (an `Unretained` name), rather than
  /// `withGuaranteed(…) { cogs[$0] }`: the optimizer did not inline that closure into the
  /// case's body, so every read was a call of its own (a frame, a saved register and a call
  /// through LLVM's merged thunk: impl/perf-notes.md).
  @inlinable @inline(__always)
  public func read<T>(_ computed: ComputedHandle<T>) -> T {
    graph.read(Unretained(computed.object(as: Cog<T>.self)), .tracked)
  }

  @inlinable
  public func write<T>(_ signal: SignalHandle<T>, _ value: T) {
    withGuaranteed(signal.object(as: Cog<T>.self)) { cog in
      if let writer {
        writer[cog] = value
      } else if collected != nil {
        collected!.append { w in w[cog] = value }
      } else if let reaction = cogs.runningReaction {
        reaction.turn("write") { w in w[cog] = value }
      } else {
        cogs.turn("write") { w in w[cog] = value }
      }
    }
  }

  @inlinable
  public func withBatch(_ body: () -> Void) {
    if writer != nil || collected != nil {
      body()  // nested batch: part of the outer one
    } else if let reaction = cogs.runningReaction {
      // Inside an effect: the batch's writes become one turn scheduled by the reaction.
      collected = []
      body()
      let writes = collected!
      collected = nil
      reaction.turn("batch") { w in for write in writes { write(w) } }
    } else {
      cogs.turn("batch") { w in
        writer = w
        body()
        writer = nil
      }
    }
  }

  /// Writes of a batch opened inside an effect, applied by a scheduled turn.
  @exclusivity(unchecked) @usableFromInline var collected: [(CogWriter) -> Void]?

  @inlinable
  public func withBuild<R>(_ body: () -> R) -> R { body() }

  /// A view's read: `cogs.ui[…]` (the first one makes the state's boundary).
  @inlinable
  public func uiRead<T>(_ signal: SignalHandle<T>) -> T {
    withGuaranteed(signal.object(as: Cog<T>.self)) { cogs.ui[$0] }
  }

  @inlinable
  public func uiRead<T>(_ computed: ComputedHandle<T>) -> T {
    withGuaranteed(computed.object(as: Cog<T>.self)) { cogs.ui[$0] }
  }

  /// One registrar per boundary.
  public var registrarCount: Int? { cogs.graph.boundaryCount }

  /// `cog/deep-api`: kairo/deep written as an app writes it with Cog's public API (automatic
  /// cogs reading the previous one, a reaction, turns), no adapter in between.
  @inlinable
  public func deepThroughOwnAPI(
    length: Int, iterationsPerSample: Int, explainsTurns: Bool, secondContext: Bool,
    checks: CaseChecks
  ) -> PreparedCase? {
    let cogs = self.cogs
    let runs = OwnAPIRunCounter()
    let head = Cog(0)
    var current = Cog { c in c[head] + 1 }
    for _ in 1..<length {
      let previous = current
      current = Cog { c in c[previous] + 1 }
    }
    let last = current
    // The other context reads the chain first and lives as long as the case (the handles
    // keep it, not the closure: a capture costs a retain per iteration): its rows hold the
    // descriptors' caches, so this context finds each of its rows through its map.
    let other: Cogs? = secondContext ? Cogs() : nil
    if let other {
      _ = other[last]
      _ = handles.keep(other)
    }
    built.append(
      cogs.react("deep-api") { c in
        _ = c[last]
        runs.count &+= 1
      })
    _ = handles.keep(head)
    _ = handles.keep(last)
    cogs.explainsTurns = explainsTurns
    // A closure value, not a literal argument: a main-actor closure literal handed to the
    // cases' module (Swift 5 mode) gets a dynamic executor check on every call (seen in a
    // caller profile: one retain and two releases per iteration).
    let iterate: @MainActor () -> Void = {
      cogs.turn("write") { w in w[head] = 1 }
      runs.count = 0
      for i in 0..<length {
        cogs.turn("write") { w in w[head] = i }
        checks.expect(
          cogs[last] == length + i,
          "cog/deep-api: last = \(cogs[last]), expected \(length + i)")
      }
      checks.expect(
        runs.count == length, "cog/deep-api: reaction ran \(runs.count)×, expected \(length)")
    }
    return PreparedCase(iterationsPerSample: iterationsPerSample, iterate: iterate)
  }

  /// `cog/first-read-new-context`: fresh manual cogs read once each in a new `Cogs()`.
  @inlinable
  public func firstReadsInNewContext(count n: Int, checks: CaseChecks) -> PreparedCase? {
    NewContextSample<Cogs, Cog<Int>>.prepare(
      count: n, checks: checks, state: { Cog($0) }, context: { Cogs() }, graph: { $0.graph })
  }

  public func cleanup() {
    for r in built.live { r.cancel() }
    built.retire()
  }

  public func collect() {
    built.collect()
    handles.releaseAll()
    // The descriptors behind the handles are dropped now: their rows go too, as the JS
    // garbage collector frees its nodes (untimed, like it).
    cogs.releaseDropped()
  }
}

extension CogSystem: KeyedReactiveSystem {
  @inlinable
  public func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T> {
    KeyedHandle(handles.keep(CogBox { (key: K, _: CogContext<T>) in body(key) }))
  }

  /// A box with the `.cache` lifetime (retention long enough never to expire in a run).
  @inlinable
  public func cachedBox<K: Hashable, T: Equatable>(limit: Int, _ body: @escaping (K) -> T)
    -> KeyedHandle<K, T>
  {
    let box = CogBox(lifetime: .cache(limit: limit, retention: .seconds(86_400))) {
      (key: K, _: CogContext<T>) in body(key)
    }
    return KeyedHandle(handles.keep(box))
  }

  @inlinable @inline(__always)
  public func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    withGuaranteed(box.object(as: CogBox<K, T>.self)) { cogs[$0[key]] }
  }

  /// A list row's read: `cogs.ui[box[key]]` (pins the key's row with a boundary).
  @inlinable
  public func uiRead<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    withGuaranteed(box.object(as: CogBox<K, T>.self)) { cogs.ui[$0[key]] }
  }

  /// Drops the key's row (if nothing observes it), as an app does when a key is gone.
  @inlinable
  public func release<K, T>(_ box: KeyedHandle<K, T>, key: K) {
    _ = withGuaranteed(box.object(as: CogBox<K, T>.self)) { cogs.evict($0[key]) }
  }
}

extension CogSystem: AsyncReactiveSystem {
  /// A `.latest` async cog (`Cog<T>.Async`); a feed becomes a `.stream`.
  @inlinable
  public func latestComputed<T: Equatable & Sendable>(
    initial: T, _ body: @escaping () -> BenchWork<T>
  ) -> ComputedHandle<T> {
    let cog = Cog<T>.Async(.latest, initial: initial) { (_: CogContext<T>) -> CogWork<T> in
      switch body() {
      case .run(let work): return .run(work)
      case .stream(let feed): return .stream(feed.sequence)
      }
    }
    return ComputedHandle(handles.keep(cog))
  }
}

/// `cog/first-read-new-context`'s sample: the context made for it and the states it reads
/// (both made before the sample, and let go before the next one's are made).
@MainActor @usableFromInline
package final class NewContextSample<Context, State: StateName & AnyObject>
where State.Value == Int {
  @usableFromInline package var context: Context?
  @usableFromInline package var states: [State] = []
  /// `states`, unretained (`states` keeps them).
  @usableFromInline package var unretained: [Unmanaged<State>] = []
  @usableFromInline package var ready = false
  @inlinable package init() {}

  /// The case over any context and manual state type (Cog's own, a layout binding's): `n`
  /// states made by `state`, read once each in a context made by `context`, whose graph
  /// `graph` gives. Set-up is untimed; the region reads.
  @inlinable
  package static func prepare(
    count n: Int, checks: CaseChecks, state: @escaping @MainActor (Int) -> State,
    context: @escaping @MainActor () -> Context,
    graph: @escaping @MainActor (Context) -> Graph<State.Edges>
  ) -> PreparedCase {
    let sample = NewContextSample()
    let setUp: @MainActor () -> Void = {
      // The previous sample's context and states go first, outside the region.
      sample.context = nil
      sample.unretained = []
      sample.states = []
      sample.states = (0..<n).map(state)
      sample.unretained = sample.states.map { Unmanaged.passUnretained($0) }
      sample.context = context()
      sample.ready = true
    }
    // A closure value, not a literal argument (see `CogSystem.deepThroughOwnAPI`).
    let iterate: @MainActor () -> Void = {
      if !sample.ready { setUp() }
      sample.ready = false
      let g = graph(sample.context.unsafelyUnwrapped)
      let states = sample.unretained
      var total = 0
      // The context's read as its subscript makes it (`graph.read(_:_:)`), of an unretained
      // name, as `cog/first-read`'s handles: an array element read as a strong reference costs
      // a retain and a release per read, which are not the read's.
      for i in 0..<states.count { total &+= g.read(Unretained(states[i]), .tracked) }
      checks.expect(
        total == n * (n - 1) / 2,
        "cog/first-read-new-context: sum \(total), expected \(n * (n - 1) / 2)")
    }
    return PreparedCase(iterationsPerSample: 1, beforeSample: setUp, iterate: iterate)
  }
}

/// The reaction-run counter of the own-API cases: a bump is one add (unchecked exclusivity,
/// as the cases' `RunCounter`).
@MainActor @usableFromInline
package final class OwnAPIRunCounter {
  @usableFromInline @exclusivity(unchecked) package var count = 0
  @inlinable package init() {}
}

/// The case's closure as a Cog body: the row's behavior calls the case's closure directly,
/// where a closure body (`Cog { _ in body() }`) put a call of the adapter's own closure in
/// between (about 15 instructions per recomputed row on kairo/deep). Main-actor confined, as
/// the system is.
@frozen @usableFromInline
struct AdapterBody<T>: CogBody, @unchecked Sendable {
  @usableFromInline let body: () -> T
  @inlinable nonisolated init(_ body: @escaping () -> T) { self.body = body }
  @MainActor @inlinable @inline(__always)
  func run(_: CogContext<T>) -> T { body() }
}

/// `CogSystem`'s prepared effect (`ReactiveSystem.prepareEffect`): the reaction's object,
/// made and retained, not yet registered. Trivial, so that capturing it copies nothing.
@frozen
public struct CogPreparedEffect {
  // Lifetime: retained by `ReactionRow.plain`; `react(prepared:)` hands that reference to the
  // graph. Made only to be registered at once.
  @usableFromInline package let row: Unmanaged<ReactionRow>
  @inlinable package init(row: Unmanaged<ReactionRow>) { self.row = row }
}
