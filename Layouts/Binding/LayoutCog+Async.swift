import CogCore

extension LayoutCog where Value: Equatable & Sendable {
  /// An async state (`Cog.Async`'s, through the binding): `body` runs like an automatic
  /// state's, its reads tracked, and returns the work to run or the sequence to follow; the
  /// core's async rows do the rest (`Graph+Async.swift`), on every edge layout.
  @inlinable package convenience init(
    async policy: AsyncPolicy, initial: Value, label: String = "",
    lifetime: RowLifetime = .context,
    _ body: @escaping @MainActor (LayoutContext<Value, Edges>) -> AsyncWork<Value>
  ) {
    let ti = Registry.typeIndex(for: Value.self)
    let spec = AsyncSpec<Value>(
      policy: policy, initial: initial, typeIndex: ti,
      equality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) }
        .takeUnretainedValue())
    // The workbench's async states are not torn down in chains: `run` may capture.
    let behavior = KeylessBehavior<Void>(
      label: label, lifetime: lifetime, cachePolicy: nil, body: ()
    ) { _, g, slot in
      let graph = Graph<Edges>.unchecked(g)
      return graph.submitAsync(
        body(LayoutContext(graph: graph, slot: slot)), at: slot, spec: spec)
    }
    self.init(state: KeylessState(automatic: behavior, typeIndex: ti))
  }
}
