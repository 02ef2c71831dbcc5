import CogCore

/// The workbench's binding of the core to any edge layout: the public API's surface, generic
/// over the edge store, for the layout systems of `cog-bench` and the layout conformance and
/// differential tests. Everything substantial is the core's (`Graph`, `KeylessState`,
/// `KeyedBox`); these types name it, as `Sources/Cog` does for the default layouts.
@MainActor
@usableFromInline package final class LayoutCogs<Edges: EdgeStore> {
  @usableFromInline package let graph: Graph<Edges>

  @inlinable package init(reservingRows rows: Int = 64) {
    graph = Graph(reservingRows: rows)
  }

  @inlinable package var errorHandler: (CogError) -> Void {
    get { graph.turns.errorHandler }
    set { graph.turns.errorHandler = newValue }
  }
  @inlinable package var scheduledTurnLimit: Int {
    get { graph.turns.scheduledTurnLimit }
    set { graph.turns.scheduledTurnLimit = newValue }
  }
  /// Whether the current operation met a cycle (see `Graph.isFailing`).
  @inlinable package var isFailingOperation: Bool { graph.isFailing }
  package var liveRowCount: Int { graph.liveRowCount }

  @inlinable package subscript<T>(cog: LayoutCog<T, Edges>) -> T { graph.read(cog, .tracked) }
  @inlinable package subscript<K, T, R>(box: LayoutBox<K, T, Edges, R>, key: K) -> T {
    box.read(key, in: graph, .tracked)
  }
  @inlinable package func read<T>(_ cog: LayoutCog<T, Edges>) throws(CogError) -> T {
    try graph.readOperation(cog).get()
  }

  @inlinable package func turn(_ name: StaticString, _ body: (LayoutWriter<Edges>) -> Void) {
    graph.turn(name) { g, id in body(LayoutWriter(graph: g, turn: id)) }
  }

  @discardableResult
  @inlinable package func react(
    _ name: StaticString = "reaction",
    _ body: @escaping @MainActor (LayoutReactionContext<Edges>) -> Void
  ) -> LayoutReaction<Edges> {
    let behavior = RowBehavior<Edges> { graph, slot in
      body(LayoutReactionContext(graph: graph, slot: slot))
      return false
    }
    return LayoutReaction(graph: graph, ref: graph.react(name, behavior))
  }

  @inlinable package func hasRow<T>(_ cog: LayoutCog<T, Edges>) -> Bool {
    !cog.existing(in: graph).isNone
  }
  @inlinable package func hasRow<K, T, R>(_ box: LayoutBox<K, T, Edges, R>, _ key: K) -> Bool {
    !box.existing(key, in: graph).isNone
  }
  @discardableResult
  @inlinable package func evict<K, T, R>(_ box: LayoutBox<K, T, Edges, R>, _ key: K) -> Bool {
    graph.evict(box.existing(key, in: graph))
  }
}

/// A registered reaction of a `LayoutCogs`.
@MainActor
@usableFromInline package final class LayoutReaction<Edges: EdgeStore> {
  @usableFromInline weak var graph: Graph<Edges>?
  @usableFromInline let ref: SlotRef
  @usableFromInline package var isCancelled = false
  @inlinable init(graph: Graph<Edges>, ref: SlotRef) {
    self.graph = graph
    self.ref = ref
  }
  @inlinable package func cancel() {
    if isCancelled { return }
    isCancelled = true
    graph?.cancelReaction(ref)
  }
}
