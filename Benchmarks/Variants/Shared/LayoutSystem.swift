import CogBenchCases
import CogBenchSystems
import CogCore
import CogLayoutBinding

/// The core bound to one (edge layout, reference layout) combination behind the benchmark
/// adapter: the systems `cog[<edges>+<references>]`, which the layout comparison measures.
/// The same mapping as `CogSystem` (see there), through the workbench's layout binding instead
/// of the public API. `cog[pool+typed]` (keyed cases) and `cog[pool+inline]` (keyless cases,
/// which read no reference) bind the same layouts as `cog`: equal counts prove that this
/// system measures the layouts and not itself (the calibration in the record).
///
/// This file is compiled into every variant's module (`Benchmarks/Variants/<Name>/
/// LayoutSystem.swift` is a link to it), so each module declares its own `LayoutSystem` and
/// its conformances: a package type's conformance declared in another module is not
/// devirtualized there (every adapter method was called through the witness table,
/// unspecialized: 16-37× the instructions of `cog`), and one type shared by every variant
/// would put every variant's specializations in one module.
@MainActor
package final class LayoutSystem<Edges: EdgeStore & NamedEdgeLayout, Refs: ReferenceLayout>:
  ReactiveSystem
{
  package nonisolated static var id: String { layoutSystemID(Edges.self, Refs.self) }
  package nonisolated static var capabilities: SystemCapabilities {
    .all.union([.uiReads, .ownAPI])
  }

  package let cogs = LayoutCogs<Edges>(reservingRows: 1024)
  /// `cogs`' graph, for the handles' reads: one load from the system instead of two (as
  /// `CogSystem.graph`; read through `cogs`, an outermost read retained the graph).
  @usableFromInline let graph: Graph<Edges>
  @exclusivity(unchecked) @usableFromInline var writer: LayoutWriter<Edges>?
  @exclusivity(unchecked) @usableFromInline var built = EffectList<LayoutReaction<Edges>>()
  /// Writes of a batch opened inside an effect, applied by a scheduled turn.
  @exclusivity(unchecked) @usableFromInline var collected: [(LayoutWriter<Edges>) -> Void]?
  /// Owns the descriptors behind the handles (handles are unretained).
  package let handles = HandleKeeper()

  package init() {
    graph = cogs.graph
    // Dropped descriptors go in `collect()`, untimed (as JS leaves them to its collector).
    cogs.graph.maps.sweepsAfterFlush = false
  }

  @inlinable
  package func signal<T: Equatable>(_ initial: T) -> SignalHandle<T> {
    SignalHandle(handles.keep(LayoutCog<T, Edges>(initial)))
  }

  @inlinable
  package func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T> {
    ComputedHandle(handles.keep(LayoutCog<T, Edges>(body: LayoutAdapterBody(body))))
  }

  @inlinable
  package func effect(_ body: @escaping () -> Void) {
    effect(prepared: Self.prepareEffect(body))
  }

  /// As `CogSystem`'s: the case's closure is the reaction's body as is.
  @inlinable
  package static func prepareEffect(_ body: consuming @escaping () -> Void)
    -> CogPreparedEffect
  {
    CogPreparedEffect(row: ReactionRow.plain("effect", body))
  }

  @inlinable
  package func effect(prepared: consuming CogPreparedEffect) {
    built.append(cogs.react(prepared: prepared.row))
  }

  /// Inside a batch, the batch's writer (it sees the batch's own writes); otherwise the
  /// computed handle's read. As `CogSystem`'s reads, so that the layout systems and `cog`
  /// differ only in what they bind.
  @inlinable @inline(__always)
  package func read<T>(_ signal: SignalHandle<T>) -> T {
    if let writer { return readInBatch(signal, writer) }
    return graph.read(Unretained(signal.object(as: LayoutCog<T, Edges>.self)), .tracked)
  }

  @inlinable @inline(never)
  func readInBatch<T>(_ signal: SignalHandle<T>, _ writer: LayoutWriter<Edges>) -> T {
    withGuaranteed(signal.object(as: LayoutCog<T, Edges>.self)) { writer[$0] }
  }

  /// The handle's cog read unretained (an `Unretained` name), as `CogSystem.read(_:)`.
  @inlinable @inline(__always)
  package func read<T>(_ computed: ComputedHandle<T>) -> T {
    graph.read(Unretained(computed.object(as: LayoutCog<T, Edges>.self)), .tracked)
  }

  @inlinable
  package func write<T>(_ signal: SignalHandle<T>, _ value: T) {
    withGuaranteed(signal.object(as: LayoutCog<T, Edges>.self)) { cog in
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
  package func withBatch(_ body: () -> Void) {
    if writer != nil || collected != nil {
      body()
    } else if let reaction = cogs.runningReaction {
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

  @inlinable
  package func withBuild<R>(_ body: () -> R) -> R { body() }

  /// A view's read (`CogSystem.uiRead`'s, through the binding).
  @inlinable
  package func uiRead<T>(_ signal: SignalHandle<T>) -> T {
    withGuaranteed(signal.object(as: LayoutCog<T, Edges>.self)) { cogs.uiRead($0) }
  }

  @inlinable
  package func uiRead<T>(_ computed: ComputedHandle<T>) -> T {
    withGuaranteed(computed.object(as: LayoutCog<T, Edges>.self)) { cogs.uiRead($0) }
  }

  /// One registrar per boundary.
  package var registrarCount: Int? { cogs.graph.boundaryCount }

  /// `cog/deep-api` through the workbench binding's API (what `CogSystem` does with Cog's).
  @inlinable
  package func deepThroughOwnAPI(
    length: Int, iterationsPerSample: Int, explainsTurns: Bool, secondContext: Bool,
    checks: CaseChecks
  ) -> PreparedCase? {
    let cogs = self.cogs
    let runs = OwnAPIRunCounter()
    let head = LayoutCog<Int, Edges>(0)
    var current = LayoutCog<Int, Edges> { c in c[head] + 1 }
    for _ in 1..<length {
      let previous = current
      current = LayoutCog<Int, Edges> { c in c[previous] + 1 }
    }
    let last = current
    // The other context reads the chain first and lives as long as the case (the handles
    // keep it, not the closure: a capture costs a retain per iteration): its rows hold the
    // descriptors' caches, so this context finds each of its rows through its map.
    let other = secondContext ? LayoutCogs<Edges>() : nil
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
    cogs.graph.explainsTurns = explainsTurns
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

  /// `cog/first-read-new-context` through the workbench binding's API (what `CogSystem`
  /// does with Cog's).
  @inlinable
  package func firstReadsInNewContext(count n: Int, checks: CaseChecks) -> PreparedCase? {
    NewContextSample<LayoutCogs<Edges>, LayoutCog<Int, Edges>>.prepare(
      count: n, checks: checks, state: { LayoutCog($0) }, context: { LayoutCogs() },
      graph: { $0.graph })
  }

  package func cleanup() {
    for r in built.live { r.cancel() }
    built.retire()
  }

  package func collect() {
    built.collect()
    handles.releaseAll()
    // The descriptors behind the handles are dropped now: their rows go too, as the JS
    // garbage collector frees its nodes (untimed, like it).
    cogs.graph.sweepDropped()
  }
}

extension LayoutSystem: KeyedReactiveSystem {
  @inlinable
  package func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T> {
    KeyedHandle(handles.keep(LayoutBox<K, T, Edges, Refs> { key, _ in body(key) }))
  }

  @inlinable
  package func cachedBox<K: Hashable, T: Equatable>(limit: Int, _ body: @escaping (K) -> T)
    -> KeyedHandle<K, T>
  {
    let box = LayoutBox<K, T, Edges, Refs>(
      lifetime: .cache, cachePolicy: (limit, .seconds(86_400))
    ) { key, _ in body(key) }
    return KeyedHandle(handles.keep(box))
  }

  @inlinable
  package func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    withGuaranteed(box.object(as: LayoutBox<K, T, Edges, Refs>.self)) { cogs[$0, key] }
  }

  @inlinable
  package func uiRead<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    withGuaranteed(box.object(as: LayoutBox<K, T, Edges, Refs>.self)) { cogs.uiRead($0, key: key) }
  }

  @inlinable
  package func release<K, T>(_ box: KeyedHandle<K, T>, key: K) {
    _ = withGuaranteed(box.object(as: LayoutBox<K, T, Edges, Refs>.self)) { cogs.evict($0, key) }
  }
}

extension LayoutSystem: AsyncReactiveSystem {
  /// A `.latest` async state (`CogSystem.latestComputed`'s, through the binding).
  @inlinable
  package func latestComputed<T: Equatable & Sendable>(
    initial: T, _ body: @escaping () -> BenchWork<T>
  ) -> ComputedHandle<T> {
    let cog = LayoutCog<T, Edges>(async: .latest, initial: initial) { _ -> AsyncWork<T> in
      switch body() {
      case .run(let work): return .run(work)
      case .stream(let feed): return .following(feed.sequence) { $0 }
      }
    }
    return ComputedHandle(handles.keep(cog))
  }
}

/// The case's closure as a layout body (see `AdapterBody`). Main-actor confined, as the
/// system is.
@frozen @usableFromInline
struct LayoutAdapterBody<T, Edges: EdgeStore>: LayoutBody, @unchecked Sendable {
  @usableFromInline let body: () -> T
  @inlinable nonisolated init(_ body: @escaping () -> T) { self.body = body }
  @MainActor @inlinable @inline(__always)
  func run(_: LayoutContext<T, Edges>) -> T { body() }
}
