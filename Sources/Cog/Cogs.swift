import CogCore
import CogEdgePool
import CogTypedKey

/// The context that owns every state of an app (or of one test or preview): one table of rows
/// over which turns, reads and reactions run. Confined to the main actor: no locks, no
/// atomics in the graph.
///
/// ```swift
/// let cogs = Cogs()
/// cogs.turn("increment") { w in w[countCog] += 1 }
/// print(cogs[doubledCog])
/// ```
@MainActor
public final class Cogs {
  /// The state table (the core over the default layouts).
  @usableFromInline package let graph: CogGraph

  /// - Parameter rows: rows to reserve up front, so that building a graph of known size does
  ///   not grow the columns mid-benchmark.
  public init(reservingRows rows: Int = 64) {
    graph = CogGraph(reservingRows: rows)
  }

  /// A context whose `.cache` retention runs on `clock` (tests pass a manual clock).
  public init<C: Clock>(reservingRows rows: Int = 64, clock: C) where C.Duration == Duration {
    let origin = clock.now
    graph = CogGraph(reservingRows: rows, now: { origin.duration(to: clock.now) })
    if let test = clock as? CogTestClock { graph.diagnostics.testClock = test }
  }

  /// Receives recoverable errors that no caller can be handed: a cycle met by a read through
  /// the subscript or while a flush runs reactions, and reaction loops. The default prints the
  /// error to standard error.
  @inlinable public var errorHandler: (CogError) -> Void {
    get { graph.turns.errorHandler }
    set { graph.turns.errorHandler = newValue }
  }

  /// How many turns scheduled by reactions may run in a row, with no outside turn between
  /// them, before the runtime calls it a reaction loop: it drops the remaining scheduled turns
  /// and reports `CogError.reactionLoop` to `errorHandler`. A reaction that writes what it
  /// reads would otherwise run forever. Default 10,000.
  @inlinable public var scheduledTurnLimit: Int {
    get { graph.turns.scheduledTurnLimit }
    set { graph.turns.scheduledTurnLimit = newValue }
  }

  /// Bumped by every value change: compare two readings to learn whether anything changed.
  @inlinable public var revision: UInt32 { graph.revision }

  /// Whether any state changed since `revision` was read.
  @inlinable public func hasChanged(since revision: UInt32) -> Bool {
    graph.revision != revision
  }

  // MARK: Reads

  /// The current value of `cog`, computing what it needs. Inside a running body or reaction
  /// the read is tracked, as `c[cog]` is. A cycle met on the way goes to `errorHandler`, and
  /// the read serves `cog`'s last value (its placeholder if it never had one).
  @inlinable @inline(__always) public subscript<T>(cog: Cog<T>) -> T { graph.read(cog, .tracked) }

  /// The current value of the keyed state `ref`.
  @inlinable @inline(__always) public subscript<K, T>(ref: CogRef<K, T>) -> T {
    graph.read(ref.name, .tracked)
  }

  /// Like the subscript, but a cycle met on the way is thrown instead of reported (whether or
  /// not the states in it ever had a value). Inside a body, the read is tracked and a cycle is
  /// reported by the outermost operation, as for the subscript.
  @inlinable public func read<T>(_ cog: Cog<T>) throws(CogError) -> T {
    try graph.readOperation(cog).get()
  }

  /// Like the subscript, but a cycle met on the way is thrown instead of reported.
  @inlinable public func read<K, T>(_ ref: CogRef<K, T>) throws(CogError) -> T {
    try graph.readOperation(ref.name).get()
  }

  /// Whether the async cog `cog` has work in flight, and its last failure; `.idle` for a cog
  /// that is not async. Reads `cog` first (its body runs if its inputs changed, and starts its
  /// work), then its status; inside a running body both reads are tracked.
  @inlinable public func status<T>(of cog: Cog<T>) -> CogAsyncStatus {
    graph.readAsyncStatus(cog, .tracked)
  }

  // MARK: Turns

  /// Runs one turn: `body` stages writes through the writer; then the flush publishes the
  /// sources that really changed, settles the reactions that depend on them (in registration
  /// order), and runs the turns those reactions scheduled, first in first out.
  ///
  /// A turn cannot start inside another turn, a body or a reaction: a reaction schedules its
  /// writes with `c.turn`.
  @inlinable public func turn(_ name: StaticString, _ body: (CogWriter) -> Void) {
    graph.turn(name) { g, id in body(CogWriter(graph: g, turn: id)) }
  }

  // MARK: Reactions

  /// Registers a reaction: `body` runs now, then once after every turn in which a state it
  /// read changed. Reactions run in registration order. The reaction lives until `cancel()`
  /// or the end of the context.
  ///
  /// A reaction whose run meets a cycle has the cycle reported and is run again after every
  /// later turn that changes something, until it runs without one.
  @inlinable @discardableResult
  public func react(
    _ name: StaticString = "reaction", _ body: @escaping @MainActor (CogReactionContext) -> Void
  ) -> CogReaction {
    typealias Row = TypedReactionRow<ReactionBody>
    // `run` captures nothing (no closure context of its own): it finds the body in the row.
    let row = Row(name: name, body: ReactionBody(body)) { behavior, g, slot in
      let graph = CogGraph.unchecked(g)
      Row.withBody(of: behavior) { $0.run(CogReactionContext(graph: graph, slot: slot)) }
      return false
    }
    // The new object's reference is the graph's (see `Graph.react`).
    let (ref, id) = graph.react(.passRetained(consume row))
    return CogReaction(graph: graph, ref: ref, id: id)
  }

  /// Registers the reaction whose object the caller made (`ReactionRow.plain`: the
  /// workbench's effects, whose bodies take no context).
  @inlinable @discardableResult
  package func react(prepared row: Unmanaged<ReactionRow>) -> CogReaction {
    // Lifetime: `row` comes retained; `Graph.react` takes that reference.
    let (ref, id) = graph.react(row)
    return CogReaction(graph: graph, ref: ref, id: id)
  }

  /// The reaction whose body is running (not a computed it reads), or `nil`.
  @inlinable package var runningReaction: CogReactionContext? {
    let s = graph.activeSub
    if s.isNone || !graph.rows.flags[s].contains(.reaction) { return nil }
    return CogReactionContext(graph: graph, slot: s)
  }

  // MARK: Leases

  /// Keeps a `.whileObserved` or `.cache` state alive (and its row) until the lease ends.
  @inlinable public func lease<T>(_ cog: Cog<T>) -> CogLease { lease(cog.resolve(in: graph)) }

  /// Keeps the keyed state `ref` alive until the lease ends.
  @inlinable public func lease<K, T>(_ ref: CogRef<K, T>) -> CogLease {
    lease(ref.name.resolve(in: graph))
  }

  @inlinable func lease(_ s: Slot) -> CogLease {
    graph.addLease(s)
    graph.collect()
    return CogLease(cogs: self, ref: graph.ref(s))
  }

  // MARK: Inspection

  /// How many rows are live in this context (tests and the workbench).
  @_spi(Testing) public var liveRowCount: Int { graph.liveRowCount }

  /// Whether `ref`'s keyed state currently has a row in this context.
  @_spi(Testing) @inlinable public func hasRow<K, T>(_ ref: CogRef<K, T>) -> Bool {
    !ref.name.existing(in: graph).isNone
  }

  /// Whether `cog` currently has a row in this context.
  @_spi(Testing) @inlinable public func hasRow<T>(_ cog: Cog<T>) -> Bool {
    !cog.existing(in: graph).isNone
  }
}

extension Cogs {
  /// Releases now the rows of every cog and box the app has dropped (no reference to it is
  /// left outside the contexts), and of those they alone kept (swift/SEMANTICS.md §17, "When
  /// a row dies"). A flush does the same on its own once the descriptors used in this context
  /// since the last sweep reach a quarter of all it holds; call this to release them now,
  /// e.g. when a document or screen closes. A row that something still observes (a
  /// subscriber, an export, a lease) stays until it is unobserved and a later sweep finds it.
  /// Outside turns and bodies only; elsewhere it does nothing (a later flush sweeps).
  public func releaseDropped() { graph.sweepDropped() }

  /// Whether a flush releases dropped descriptors' rows on its own once enough descriptors
  /// were used since the last sweep (default `true`). The benchmark adapters turn it off and
  /// call `releaseDropped()` where the JS ports leave garbage to their collector, untimed.
  @_spi(Testing) public var sweepsDroppedAfterFlush: Bool {
    get { graph.maps.sweepsAfterFlush }
    set { graph.maps.sweepsAfterFlush = newValue }
  }

  /// Releases the row of keyed state `ref` now if nothing observes it (no subscriber, no
  /// lease), whatever its lifetime: for apps that know a key is gone. Returns whether a row
  /// was released. The same reference can create a fresh row later.
  @inlinable @discardableResult
  public func evict<K, T>(_ ref: CogRef<K, T>) -> Bool {
    graph.evict(ref.name.existing(in: graph))
  }
}
