import CogCore
import CogKeySupport

/// The inline reference layout (seed 000 §4; Cog's default until issue 24 shipped the generic
/// one): a reference is the box and the key, type-erased in place (`InlineKey`), so its type
/// does not name the key type and stays resilient. The warm path confirms a candidate row by descriptor, then compares the
/// reference's key with the row's typed key (kept by the box's storage, `BoxRows`) with `Key`'s
/// own `==`, in a closure the box made specialized for its key type. The descriptor fixes the
/// box, and so the key type: a reference holds a key of its box's type by construction, so no
/// type test or cast is needed. Semantics: a key names a row exactly when it is `==` to the
/// row's key as a `Key` (as in the other layouts).

/// The part of an inline box that does not depend on the key type: what a reference holds.
// Safety: immutable after init; rows are reached on the main actor only.
@usableFromInline
package class InlineBoxBase<Value, Edges: EdgeStore>: RowOwner, @unchecked Sendable {
  @usableFromInline package let state: KeyedState<Value, Edges>
  /// The key-typed paths, made by the typed subclass's initializer so that they run
  /// specialized for the key, value and edge types. Not overridable methods: a vtable call
  /// runs the unspecialized generic implementation, and every graph call inside it then
  /// looks up generic metadata. The closures
  /// capture nothing (the box or its storage is passed in), so calling them retains no
  /// context.
  @usableFromInline package let keyPaths: InlineKeyPaths<Value, Edges>

  @inlinable
  package init(
    id: Int32, typeIndex: Int32, label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?, behavior: RowBehavior,
    cache: DescriptorCacheRef, keyPaths: InlineKeyPaths<Value, Edges>
  ) {
    self.keyPaths = keyPaths
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

  /// Whether row `s` is this box's row for `key` (no hashing): the descriptor, then the
  /// row's typed key in the box's storage, compared with `key` by `holds` (`Key`'s `==`).
  @MainActor @inlinable @inline(__always)
  package final func names(
    _ s: Slot, key: InlineKey, holds: InlineKeyHolds, in graph: Graph<Edges>
  ) -> Bool {
    guard graph.rows.descriptor[s] == state.id, let u = state.rowsIfAny(in: graph) else {
      return false
    }
    let tag = graph.rows.tag[s]
    return withGuaranteed(u) { holds($0, tag, key) }
  }

  /// The row for `key`, made if it has none (cold: a key the candidate did not confirm).
  @MainActor @inlinable @inline(never)
  package final func lookup(_ key: InlineKey, in graph: Graph<Edges>) -> Slot {
    keyPaths.lookup(self, key, graph)
  }

  /// The existing row for `key`, or `.none`.
  @MainActor @inlinable
  package final func existing(_ key: InlineKey, in graph: Graph<Edges>) -> Slot {
    keyPaths.existing(self, key, graph)
  }

  /// `key` as an `AnyHashable` (made on demand: `CogRef.key`, labels).
  @inlinable
  package final func anyKey(_ key: InlineKey) -> AnyHashable { keyPaths.anyKey(key) }
}

/// Whether the row tagged `tag` in a box's storage (a `BoxRows<Key>`) has the key (the warm
/// path's compare, specialized for the key type; see `InlineKeyName.holds`).
@usableFromInline
package typealias InlineKeyHolds = @MainActor (AnyObject, UInt32, InlineKey) -> Bool

/// An inline box's key-typed cold paths, each specialized for the box's key type.
// Safety: `let`s; `lookup`/`existing` are `@MainActor`, and `anyKey` (made by the boxes)
// captures nothing.
@frozen @usableFromInline
package struct InlineKeyPaths<Value, Edges: EdgeStore>: @unchecked Sendable {
  /// The row of the key, made if it has none (cold).
  @usableFromInline package let lookup:
    @MainActor (InlineBoxBase<Value, Edges>, InlineKey, Graph<Edges>) -> Slot
  /// The existing row of the key, or `.none`.
  @usableFromInline package let existing:
    @MainActor (InlineBoxBase<Value, Edges>, InlineKey, Graph<Edges>) -> Slot
  @usableFromInline package let anyKey: (InlineKey) -> AnyHashable

  @inlinable package init(
    lookup:
      @escaping @MainActor (InlineBoxBase<Value, Edges>, InlineKey, Graph<Edges>)
      -> Slot,
    existing:
      @escaping @MainActor (
        InlineBoxBase<Value, Edges>, InlineKey, Graph<Edges>
      ) -> Slot,
    anyKey: @escaping (InlineKey) -> AnyHashable
  ) {
    self.lookup = lookup
    self.existing = existing
    self.anyKey = anyKey
  }
}

/// An inline box over keys of type `Key`.
// Safety: immutable after init; rows are reached on the main actor only.
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
      keyPaths: InlineKeyPaths(
        lookup: { box, key, graph in
          key.withKey(as: Key.self) {
            // Safety: this path closure is made in `InlineBox`'s own init and handed that box.
            unsafeDowncast(box, to: InlineBox.self).typedLookup($0, in: graph)
          }
        },
        existing: { box, key, graph in
          key.withKey(as: Key.self) {
            // Safety: this path closure is made in `InlineBox`'s own init and handed that box.
            unsafeDowncast(box, to: InlineBox.self).typedExisting($0, in: graph)
          }
        },
        anyKey: { key in key.withKey(as: Key.self) { AnyHashable($0) } }))
  }

  @inlinable package override var label: String {
    state.givenLabel.isEmpty
      ? "CogBox<\(typeName(Key.self)), \(typeName(Value.self))>#\(state.id)"
      : state.givenLabel
  }

  @MainActor @inlinable
  package func typedExisting(_ key: Key, in graph: Graph<Edges>) -> Slot {
    guard let u = state.rowsIfAny(in: graph) else { return .none }
    // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
    return withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: key) }
  }

  /// The row of `key`: one hash of the concrete key (the storage comes from the box's cache,
  /// no dictionary lookup of it, no reference counting).
  @MainActor @inlinable
  package func typedLookup(_ key: Key, in graph: Graph<Edges>) -> Slot {
    if let u = state.rowsIfAny(in: graph) {
      // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
      let s = withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: key) }
      if !s.isNone { return s }
    }
    return makeRow(key, in: graph)
  }

  /// A key with no row in `graph` yet (cold: once per key while its row lives).
  @MainActor @inlinable @inline(never)
  package func makeRow(_ key: Key, in graph: Graph<Edges>) -> Slot {
    let rows = BoxRows<Key>.rows(of: state, owner: self, in: graph, tags: .entries)
    return rows.makeRow(key, box: state, in: graph)
  }
}

/// An inline reference: a keyed box plus its key, type-erased in place. A stable name that
/// never stores a row, so it stays valid when its row is released and later made again.
@frozen @usableFromInline
package struct InlineKeyName<Value, Edges: EdgeStore> {
  @usableFromInline package let box: InlineBoxBase<Value, Edges>
  @usableFromInline package let key: InlineKey
  /// The warm path's compare, made here, where the key type is known: a closure that
  /// captures nothing, so the reference carries a function pointer. Kept in the reference
  /// rather than the box: calling a closure loaded from the box retained and released the box
  /// around the call (a pair per confirm).
  @usableFromInline package let holds: InlineKeyHolds

  /// The only way to make one: `key` has `box`'s key type, which the box's key paths rely on.
  @inlinable @inline(__always)
  package init<Key: Hashable>(box: InlineBox<Key, Value, Edges>, key: Key) {
    self.box = box
    self.key = InlineKey(key)
    holds = { rows, tag, key in
      // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
      key.withKey(as: Key.self) { unsafeDowncast(rows, to: BoxRows<Key>.self).holds($0, tag: tag) }
    }
  }

  @inlinable package var typeIndex: Int32 { box.state.typeIndex }

  /// The key as an `AnyHashable` (made on demand).
  @inlinable package var anyKey: AnyHashable { box.anyKey(key) }
}

extension InlineKeyName: StateName {
  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    box.names(candidate, key: key, holds: holds, in: graph)
  }

  /// The row by lookup: `Graph.read` has already tried the candidate, so this does not
  /// compare the key with it a second time.
  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>) -> Slot { box.lookup(key, in: graph) }

  @MainActor @inlinable
  package func existing(in graph: Graph<Edges>) -> Slot { box.existing(key, in: graph) }
}
