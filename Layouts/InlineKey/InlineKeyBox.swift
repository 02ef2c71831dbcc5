import CogCore
import CogKeySupport

/// The inline reference layout (seed 000 §4; Cog's default): a reference is the box and an
/// `AnyHashable` key, so `CogRef<Value>` does not name the key type and stays resilient. The
/// warm path confirms a candidate row by descriptor and by comparing the key with the row's
/// `AnyHashable` key, kept by the box's storage (`KeyRowsBase.anyKeys`), not by the core.

/// The part of an inline box that does not depend on the key type: what a reference holds.
@usableFromInline
package class InlineBoxBase<Value, Edges: EdgeStore>: RowOwner, @unchecked Sendable {
  @usableFromInline package let state: KeyedState<Value, Edges>
  /// The key-typed cold paths, made by the typed subclass's initializer so that they run
  /// specialized for the key, value and edge types. Not overridable methods: a vtable call
  /// runs the unspecialized generic implementation, and every graph call inside it then
  /// looks up generic metadata (measured: +54% instructions on cog/key-churn). The closures
  /// capture nothing (the box is passed in), so calling them retains no context.
  @usableFromInline package let lookupImpl: InlineLookup<Value, Edges>
  @usableFromInline package let existingImpl: InlineLookup<Value, Edges>

  @inlinable
  package init(
    id: Int32, typeIndex: Int32, label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?, behavior: RowBehavior,
    cache: DescriptorCacheRef, lookup: @escaping InlineLookup<Value, Edges>,
    existing: @escaping InlineLookup<Value, Edges>
  ) {
    lookupImpl = lookup
    existingImpl = existing
    state = KeyedState(
      id: id, typeIndex: typeIndex, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: behavior, cache: cache)
  }

  deinit { state.cache.free() }

  /// `RowOwner`: the contexts holding this box (in its cache entry).
  @usableFromInline package func contextHold(_ delta: Int32) -> Int32 {
    state.cache.pointee.holds &+= delta
    return state.cache.pointee.holds
  }
  @usableFromInline package var label: String { state.givenLabel }
  @usableFromInline package var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }

  /// Whether row `s` is this box's row for `key` (no hashing): the descriptor, then the key
  /// the box's storage keeps for the row's tag.
  @MainActor @inlinable @inline(__always)
  package final func names(_ s: Slot, key: AnyHashable, in graph: Graph<Edges>) -> Bool {
    guard graph.rows.descriptor[s] == state.id else { return false }
    let tag = Int(graph.rows.tag[s])
    guard let u = state.rowsIfAny(in: graph) else { return false }
    return withGuaranteed(u) { rows in
      let r = unsafeDowncast(rows, to: KeyRowsBase.self)
      return tag < r.anyKeys.count && r.anyKeys[tag] == key
    }
  }

  /// The row for `key`, made if it has none (cold: a key the candidate did not confirm).
  @MainActor @inlinable @inline(never)
  package final func lookup(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    lookupImpl(self, key, graph)
  }

  /// The existing row for `key`, or `.none`.
  @MainActor @inlinable
  package final func existing(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    existingImpl(self, key, graph)
  }
}

/// An inline box's key-typed cold path: the box, a key, the context → a row.
@usableFromInline
package typealias InlineLookup<Value, Edges: EdgeStore> =
  @MainActor (InlineBoxBase<Value, Edges>, AnyHashable, Graph<Edges>) -> Slot

/// An inline box over keys of type `Key`.
@usableFromInline
package final class InlineBox<Key: Hashable, Value, Edges: EdgeStore>: InlineBoxBase<Value, Edges>,
  @unchecked Sendable
{
  /// A box whose rows run `body` for their key and store the result unless `same(old, new)`.
  @inlinable
  package convenience init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (Key, Graph<Edges>, Slot) -> Value,
    same: @escaping @Sendable (Value, Value) -> Bool
  ) {
    let id = Registry.makeDescriptorID()
    let ti = Registry.typeIndex(for: Value.self)
    let cache = DescriptorCache.make()
    self.init(
      id: id, typeIndex: ti, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: keyedBehavior(id: id, typeIndex: ti, cache: cache, body, same: same),
      cache: cache,
      lookup: { box, key, graph in
        unsafeDowncast(box, to: InlineBox.self).typedLookup(key, in: graph)
      },
      existing: { box, key, graph in
        unsafeDowncast(box, to: InlineBox.self).typedExisting(key, in: graph)
      })
  }

  @inlinable package override var label: String {
    state.givenLabel.isEmpty
      ? "CogBox<\(Key.self), \(Value.self)>#\(state.id)" : state.givenLabel
  }

  @MainActor @inlinable
  package func typedExisting(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    guard let u = state.rowsIfAny(in: graph), let k = key.base as? Key else { return .none }
    return withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: k) }
  }

  /// The row of `key`: one cast to the key type and one hash of the concrete key (the
  /// storage comes from the box's cache, no dictionary lookup of it, no reference counting).
  @MainActor @inlinable
  package func typedLookup(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    let k = key.base as! Key
    if let u = state.rowsIfAny(in: graph) {
      let s = withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: k) }
      if !s.isNone { return s }
    }
    return makeRow(k, key, in: graph)
  }

  /// A key with no row in `graph` yet (cold: once per key while its row lives).
  @MainActor @inlinable @inline(never)
  package func makeRow(_ k: Key, _ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    let rows = BoxRows<Key>.rows(
      of: state, owner: self, in: graph, tags: .entries, storesAnyKeys: true)
    return rows.makeRow(k, anyKey: key, box: state, in: graph)
  }
}

/// An inline reference: a keyed box plus an `AnyHashable` key. A stable name that never
/// stores a row, so it stays valid when its row is released and later made again.
@frozen @usableFromInline
package struct InlineKeyName<Value, Edges: EdgeStore> {
  @usableFromInline package let box: InlineBoxBase<Value, Edges>
  @usableFromInline package let key: AnyHashable

  @inlinable package init(box: InlineBoxBase<Value, Edges>, key: AnyHashable) {
    self.box = box
    self.key = key
  }

  @inlinable package var typeIndex: Int32 { box.state.typeIndex }
}

extension InlineKeyName: StateName {
  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    box.names(candidate, key: key, in: graph)
  }

  /// The row by lookup: `Graph.read` has already tried the candidate, so this does not
  /// compare the key with it a second time.
  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>) -> Slot { box.lookup(key, in: graph) }

  @MainActor @inlinable
  package func existing(in graph: Graph<Edges>) -> Slot { box.existing(key, in: graph) }
}
