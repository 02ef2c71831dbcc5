import CogCore

/// A keyless state descriptor of the layout binding (see `Cog` for the public one).
// Safety: as `Cog`'s (immutable, main-actor rows), with the same `initial` caveat.
@usableFromInline
package final class LayoutCog<Value, Edges: EdgeStore>: @unchecked Sendable {
  /// This state's row in the context it was last used in, and its id (see `Cog.cache`).
  @usableFromInline let cache = KeylessCache()
  /// The rest, an automatic state's rows' behavior among its details (see `Cog.state`).
  @usableFromInline package let state: KeylessState<Value, Edges>

  @inlinable package var label: String { state.label(id: cache.id) }

  deinit { cache.descriptorDeinit(details: state.details) }

  /// The descriptor's process-wide id (for tests).
  package var id: Int32 { cache.id }

  @inlinable package var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }
  @inlinable package var isManual: Bool { state.isManual }

  /// A descriptor for `state` (the async factory's; see `LayoutCog+Async.swift`).
  @inlinable package init(state: KeylessState<Value, Edges>) {
    self.state = state
  }

  /// A manual state compared with `==`.
  @inlinable package init(_ initial: Value, label: String = "") where Value: Equatable {
    state = KeylessState(
      manual: initial, label: label,
      sharedEquality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) })
  }

  /// An automatic state compared with `==`.
  @inlinable package convenience init(
    label: String = "", lifetime: RowLifetime = .context,
    cachePolicy: (limit: Int, retention: Duration)? = nil,
    _ body: @escaping @MainActor (LayoutContext<Value, Edges>) -> Value
  ) where Value: Equatable {
    self.init(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, body: LayoutClosureBody(body))
  }

  /// An automatic state whose body is a value of its own type (see `Cog`'s
  /// `init(label:lifetime:body:)`).
  @inlinable package init<Body: LayoutBody>(
    label: String = "", lifetime: RowLifetime = .context,
    cachePolicy: (limit: Int, retention: Duration)? = nil, body: Body
  ) where Body.Value == Value, Body.Edges == Edges, Value: Equatable {
    typealias Behavior = KeylessBehavior<Body>
    let behavior = Behavior(label: label, lifetime: lifetime, cachePolicy: cachePolicy, body: body)
    { behavior, g, slot in
      // Safety: this is `Behavior`'s own `run`, and the graph hands `run` its own object.
      let b = unsafeDowncast(behavior, to: Behavior.self)
      let graph = Graph<Edges>.unchecked(g)
      let new = b.body.run(LayoutContext(graph: graph, slot: slot))
      return graph.store(new, at: slot) { $0 == $1 }
    }
    state = KeylessState(automatic: behavior, typeIndex: Registry.typeIndex(for: Value.self))
  }
}

/// An automatic state's body as a type (see `LayoutCog.init(label:lifetime:cachePolicy:body:)`).
@usableFromInline
package protocol LayoutBody: Sendable {
  associatedtype Value
  associatedtype Edges: EdgeStore
  @MainActor func run(_ c: LayoutContext<Value, Edges>) -> Value
}

/// A closure as a `LayoutBody`.
@frozen @usableFromInline
struct LayoutClosureBody<Value, Edges: EdgeStore>: LayoutBody {
  @usableFromInline let body: @MainActor (LayoutContext<Value, Edges>) -> Value
  @inlinable nonisolated init(
    _ body: @escaping @MainActor (LayoutContext<Value, Edges>) -> Value
  ) {
    self.body = body
  }
  @MainActor @inlinable @inline(__always)
  func run(_ c: LayoutContext<Value, Edges>) -> Value { body(c) }
}

extension LayoutCog: StateName {
  @inlinable package var typeIndex: Int32 { state.typeIndex }

  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    state.names(candidate, in: graph, id: cache.id)
  }

  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>) -> Slot {
    state.resolve(in: graph, cache: cache)
  }

  @MainActor @inlinable package func existing(in graph: Graph<Edges>) -> Slot {
    state.existing(in: graph, cache: cache)
  }

  @MainActor @inlinable @inline(__always)
  package func knownSlot(in graph: Graph<Edges>) -> Slot {
    state.knownSlot(in: graph, cache: cache)
  }

  @MainActor @inlinable @inline(__always)
  package func resolveUnknown(in graph: Graph<Edges>) -> Slot {
    state.resolveSlow(in: graph, cache: cache)
  }
}

/// A keyed box of the layout binding, in the reference layout `Refs` (see `ReferenceLayout`):
/// the layout's own box behind an unretained handle, so that a read costs no reference
/// counting.
// Safety: immutable after init; `core` is the layout's box, used by main-actor graph code.
@usableFromInline
package final class LayoutBox<Key: Hashable, Value, Edges: EdgeStore, Refs: ReferenceLayout>:
  @unchecked Sendable
{
  @usableFromInline let core: AnyObject
  // Lifetime: `core`, a `let` beside it, keeps the box alive as long as this object.
  @usableFromInline let unmanaged: Unmanaged<AnyObject>

  @inlinable package init(
    label: String = "", lifetime: RowLifetime = .context,
    cachePolicy: (limit: Int, retention: Duration)? = nil,
    _ body: @escaping @MainActor (Key, LayoutContext<Value, Edges>) -> Value
  ) where Value: Equatable {
    core = Refs.makeBox(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      { (key: Key, graph: Graph<Edges>, slot) in body(key, LayoutContext(graph: graph, slot: slot))
      },
      same: equatableEquals)
    // Lifetime: `core`, a `let` beside it, keeps the box alive as long as this object.
    unmanaged = Unmanaged.passUnretained(core)
  }

  /// Reads `key`'s state (`mode`) in `graph`: the layout's reference, through the core's one
  /// typed read.
  @MainActor @inlinable @inline(__always)
  func read(_ key: Key, in graph: Graph<Edges>, _ mode: ReadMode) -> Value {
    Refs.read(unmanaged, key, as: Value.self, in: graph, mode)
  }

  /// A UI read of `key`'s state in `graph`.
  @MainActor @inlinable
  func uiRead(_ key: Key, in graph: Graph<Edges>) -> Value {
    Refs.uiRead(unmanaged, key, as: Value.self, in: graph)
  }

  /// `key`'s existing row in `graph`, or `.none`.
  @MainActor @inlinable
  func existing(_ key: Key, in graph: Graph<Edges>) -> Slot {
    Refs.existing(unmanaged, key, as: Value.self, in: graph)
  }
}
