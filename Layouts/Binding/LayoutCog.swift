import CogCore

/// A keyless state descriptor of the layout binding (see `Cog` for the public one).
@usableFromInline
package final class LayoutCog<Value, Edges: EdgeStore>: RowOwner, @unchecked Sendable {
  @usableFromInline let state: KeylessState<Value, Edges>

  deinit { state.cache.free() }

  @inlinable package var label: String { state.label }
  @inlinable package var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }
  @inlinable package var isManual: Bool { state.isManual }

  /// A manual state compared with `==`.
  @inlinable package init(_ initial: Value, label: String = "") where Value: Equatable {
    state = KeylessState(
      manual: initial, label: label,
      equality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) })
  }

  /// An automatic state compared with `==`.
  @inlinable package init(
    label: String = "", lifetime: RowLifetime = .context,
    cachePolicy: (limit: Int, retention: Duration)? = nil,
    _ body: @escaping @MainActor (LayoutContext<Value, Edges>) -> Value
  ) where Value: Equatable {
    let ti = Registry.typeIndex(for: Value.self)
    state = KeylessState(
      automatic: label, lifetime: lifetime, cachePolicy: cachePolicy, typeIndex: ti,
      behavior: RowBehavior { graph, slot in
        let new = body(LayoutContext(graph: graph, slot: slot))
        return graph.store(new, at: slot, typeIndex: ti) { $0 == $1 }
      })
  }
}

extension LayoutCog: StateName {
  @inlinable package var typeIndex: Int32 { state.typeIndex }

  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    state.names(candidate, in: graph)
  }

  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>) -> Slot { state.resolve(in: graph, owner: self) }

  @MainActor @inlinable package func existing(in graph: Graph<Edges>) -> Slot {
    state.existing(in: graph)
  }
}

/// A keyed box of the layout binding (inline `AnyHashable` references; see `CogBox`).
@usableFromInline
package final class LayoutBox<Key: Hashable, Value, Edges: EdgeStore>: @unchecked Sendable {
  @usableFromInline let core: KeyedBox<Key, Value, Edges>

  @inlinable package init(
    label: String = "", lifetime: RowLifetime = .context,
    cachePolicy: (limit: Int, retention: Duration)? = nil,
    _ body: @escaping @MainActor (Key, LayoutContext<Value, Edges>) -> Value
  ) where Value: Equatable {
    core = KeyedBox(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      { key, graph, slot in body(key, LayoutContext(graph: graph, slot: slot)) },
      same: equatableEquals)
  }

  @inlinable package subscript(key: Key) -> LayoutRef<Value, Edges> {
    LayoutRef(name: InlineKeyName(box: core, key: AnyHashable(key)))
  }
}

/// A value reference of the layout binding: a box and a key.
@usableFromInline package struct LayoutRef<Value, Edges: EdgeStore> {
  @usableFromInline let name: InlineKeyName<Value, Edges>
  @inlinable init(name: InlineKeyName<Value, Edges>) { self.name = name }
}
