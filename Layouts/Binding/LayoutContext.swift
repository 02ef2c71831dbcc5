import CogCore

/// What a body of the layout binding sees (see `CogContext`).
@MainActor @frozen
@usableFromInline package struct LayoutContext<Value, Edges: EdgeStore> {
  // Lifetime: unretained, as in `CogContext`/`CogWriter`: checked before each use.
  @usableFromInline let graph: Unmanaged<Graph<Edges>>
  @usableFromInline let slot: Slot

  @inlinable init(graph: Graph<Edges>, slot: Slot) {
    // Lifetime: unretained, as in `CogContext`/`CogWriter`: checked before each use.
    self.graph = Unmanaged.passUnretained(graph)
    self.slot = slot
  }

  @inlinable package subscript<T>(cog: LayoutCog<T, Edges>) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { $0.read(cog, .tracked) }
  }
  @inlinable package subscript<K, T, R>(box: LayoutBox<K, T, Edges, R>, key: K) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { box.read(key, in: $0, .tracked) }
  }
  @inlinable package func peek<T>(_ cog: LayoutCog<T, Edges>) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { $0.read(cog, .peek) }
  }
  @inlinable package func peek<K, T, R>(_ box: LayoutBox<K, T, Edges, R>, _ key: K) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { box.read(key, in: $0, .peek) }
  }
  @inlinable package var curr: Value? {
    withGuaranteed(Graph<Edges>.inBody(graph)) { g in
      g.rows.flags[slot].contains(.hasValue)
        ? g.loadValue(Int32(g.rows.typeIndex[slot]), g.rows.valueIndex[slot], as: Value.self)
        : nil
    }
  }
}

/// What a reaction of the layout binding sees (see `CogReactionContext`).
@MainActor @frozen
@usableFromInline package struct LayoutReactionContext<Edges: EdgeStore> {
  // Lifetime: unretained, as in `CogContext`/`CogWriter`: checked before each use.
  @usableFromInline let graph: Unmanaged<Graph<Edges>>
  @usableFromInline let slot: Slot

  @inlinable init(graph: Graph<Edges>, slot: Slot) {
    // Lifetime: unretained, as in `CogContext`/`CogWriter`: checked before each use.
    self.graph = Unmanaged.passUnretained(graph)
    self.slot = slot
  }

  @inlinable package subscript<T>(cog: LayoutCog<T, Edges>) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { $0.read(cog, .tracked) }
  }
  @inlinable package subscript<K, T, R>(box: LayoutBox<K, T, Edges, R>, key: K) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { box.read(key, in: $0, .tracked) }
  }
  @inlinable package func peek<T>(_ cog: LayoutCog<T, Edges>) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { $0.read(cog, .peek) }
  }
  @inlinable package func peek<K, T, R>(_ box: LayoutBox<K, T, Edges, R>, _ key: K) -> T {
    withGuaranteed(Graph<Edges>.inBody(graph)) { box.read(key, in: $0, .peek) }
  }
  @inlinable package func turn(
    _ name: StaticString, _ body: @escaping (LayoutWriter<Edges>) -> Void
  ) {
    let g = Graph<Edges>.inBody(graph).takeUnretainedValue()
    g.schedule(name, by: g.ref(slot)) { g, id in body(LayoutWriter(graph: g, turn: id)) }
  }
}

/// A turn's writer of the layout binding (see `CogWriter`).
@MainActor @frozen
@usableFromInline package struct LayoutWriter<Edges: EdgeStore> {
  // Lifetime: unretained, as in `CogContext`/`CogWriter`: checked before each use.
  @usableFromInline let graph: Unmanaged<Graph<Edges>>
  @usableFromInline let turn: UInt32

  @inlinable init(graph: Graph<Edges>, turn: UInt32) {
    // Lifetime: unretained, as in `CogContext`/`CogWriter`: checked before each use.
    self.graph = Unmanaged.passUnretained(graph)
    self.turn = turn
  }

  @inlinable package subscript<V>(cog: LayoutCog<V, Edges>) -> V {
    get {
      withGuaranteed(graph) { g in
        // The global test first: it reads nothing of a graph that may be gone.
        if _slowPath(!Graph<Edges>.isTurnGraph(graph) || !g.isActiveTurn(turn)) {
          Graph<Edges>.escapedWriter(turn: turn)
        }
        if !cog.isManual { return g.read(cog, .tracked) }
        return g.stagedValue(cog.resolve(in: g), typeIndex: cog.typeIndex, as: V.self)
      }
    }
    nonmutating set {
      withGuaranteed(graph) { g in
        // The global test first: it reads nothing of a graph that may be gone.
        if _slowPath(!Graph<Edges>.isTurnGraph(graph) || !g.isActiveTurn(turn)) {
          Graph<Edges>.escapedWriter(turn: turn)
        }
        if _slowPath(!cog.isManual) { g.misuse(.notWritable(state: cog.label)) }
        g.stage(
          cog.resolve(in: g), newValue, typeIndex: cog.typeIndex, equality: cog.state.equality)
      }
    }
  }
}
