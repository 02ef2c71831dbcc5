import CogCore

/// The workbench's binding of the core to any edge layout: the public API's surface, generic
/// over the edge store, for the layout systems of `cog-bench` and the layout conformance and
/// differential tests. Everything substantial is the core's (`Graph`, `KeylessState`) or the
/// reference layouts' (their boxes, `ReferenceLayout`); these types name it, as `Sources/Cog`
/// does for the default layouts.
@MainActor
@usableFromInline package final class LayoutCogs<Edges: EdgeStore> {
  @usableFromInline package let graph: Graph<Edges>

  @inlinable package init(reservingRows rows: Int = 64) {
    graph = Graph(reservingRows: rows)
  }

  /// Where recoverable errors go (`Cogs.errorHandler`); the turn settings are the core's.
  @inlinable package var errorHandler: (CogError) -> Void {
    get { graph.turns.errorHandler }
    set { graph.turns.errorHandler = newValue }
  }
  /// Whether the current operation met a cycle (see `Graph.isFailing`).
  @inlinable package var isFailingOperation: Bool { graph.isFailing }
  package var liveRowCount: Int { graph.liveRowCount }

  @inlinable package subscript<T>(cog: LayoutCog<T, Edges>) -> T { graph.read(cog, .tracked) }
  @inlinable package subscript<K, T, R>(box: LayoutBox<K, T, Edges, R>, key: K) -> T {
    box.read(key, in: graph, .tracked)
  }
  /// UI reads (`Cogs.ui`): the state's Observation boundary, made on its first UI read.
  @inlinable package func uiRead<T>(_ cog: LayoutCog<T, Edges>) -> T { graph.uiRead(cog) }
  @inlinable package func uiRead<K, T, R>(_ box: LayoutBox<K, T, Edges, R>, key: K) -> T {
    box.uiRead(key, in: graph)
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
    typealias Row = TypedReactionRow<LayoutReactionBody<Edges>>
    let row = Row(name: name, body: LayoutReactionBody(body)) { behavior, g, slot in
      let graph = Graph<Edges>.unchecked(g)
      Row.withBody(of: behavior) {
        $0.run(LayoutReactionContext(graph: graph, slot: slot))
      }
      return false
    }
    // The new object's reference is the graph's (see `Graph.react`).
    let (ref, id) = graph.react(.passRetained(consume row))
    return LayoutReaction(graph: graph, ref: ref, id: id)
  }

  /// Registers the reaction whose object the caller made (see `Cogs.react(prepared:)`).
  @discardableResult
  @inlinable package func react(prepared row: Unmanaged<ReactionRow>) -> LayoutReaction<Edges> {
    // Lifetime: `row` comes retained; `Graph.react` takes that reference.
    let (ref, id) = graph.react(row)
    return LayoutReaction(graph: graph, ref: ref, id: id)
  }

  /// The reaction whose body is running (not a computed it reads), or `nil`.
  @inlinable package var runningReaction: LayoutReactionContext<Edges>? {
    let s = graph.activeSub
    if s.isNone || !graph.rows.flags[s].contains(.reaction) { return nil }
    return LayoutReactionContext(graph: graph, slot: s)
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

/// A registered reaction of a `LayoutCogs`: a value naming its row (see `CogReaction`).
@MainActor
@usableFromInline package struct LayoutReaction<Edges: EdgeStore> {
  // Lifetime: `GraphHandle`s are pooled, never freed; `isLiveReaction` checks `id` before use.
  @usableFromInline let graph: Unmanaged<GraphHandle<Edges>>
  @usableFromInline let ref: SlotRef
  @usableFromInline let id: Int32
  @inlinable init(graph: Graph<Edges>, ref: SlotRef, id: Int32) {
    // Lifetime: `GraphHandle`s are pooled, never freed; `isLiveReaction` checks `id` before use.
    self.graph = Unmanaged.passUnretained(graph.handle)
    self.ref = ref
    self.id = id
  }
  /// Whether it was cancelled (from any copy), or its context is gone.
  @inlinable package var isCancelled: Bool {
    guard let g = withGuaranteed(graph, { $0.graph }) else { return true }
    return !withGuaranteed(g) { $0.isLiveReaction(ref, id: id) }
  }
  @inlinable package func cancel() {
    if let g = withGuaranteed(graph, { $0.graph }) {
      withGuaranteed(g) { $0.cancelReaction(ref, id: id) }
    }
  }
}

/// A reaction's body as given (a struct: see `TypedReactionRow`).
@usableFromInline package struct LayoutReactionBody<Edges: EdgeStore> {
  @usableFromInline let run: @MainActor (LayoutReactionContext<Edges>) -> Void
  @inlinable init(_ run: @escaping @MainActor (LayoutReactionContext<Edges>) -> Void) {
    self.run = run
  }
}
