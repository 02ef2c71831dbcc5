/// Keyed boxes with the inline `AnyHashable` reference (seed 000 §4): one body shared by every
/// key, one row per key per context, named by (box, key). Generic over the edge store so that
/// every binding uses the same implementation.

/// The part of a keyed box that does not depend on the key type: what a reference holds.
/// Not main-actor isolated: apps declare boxes as global constants, made on whatever thread
/// first touches them; everything that touches a graph is.
@usableFromInline
package class KeyedBoxBase<Value, Edges: EdgeStore>: RowOwner, @unchecked Sendable {
  @usableFromInline package let id: Int32
  @usableFromInline package let typeIndex: Int32
  /// The label given at declaration; empty for the default one.
  @usableFromInline package let givenLabel: String
  @usableFromInline package let lifetime: RowLifetime
  @usableFromInline package let cachePolicy: (limit: Int, retention: Duration)?
  @usableFromInline package let behavior: RowBehavior<Edges>
  /// The box's key index in the context it was last used in.
  @usableFromInline package let cache: DescriptorCacheRef
  /// The key-typed cold paths, made by the typed subclass's initializer so that they run
  /// specialized for the key, value and edge types. Not overridable methods: a vtable call
  /// runs the unspecialized generic implementation, and every graph call inside it then
  /// looks up generic metadata (measured: +54% instructions on cog/key-churn). The closures
  /// capture nothing (the box is passed in), so calling them retains no context.
  @usableFromInline package let lookupImpl: KeyedLookup<Value, Edges>
  @usableFromInline package let existingImpl: KeyedLookup<Value, Edges>

  @inlinable
  package init(
    id: Int32, typeIndex: Int32, label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?, behavior: RowBehavior<Edges>,
    cache: DescriptorCacheRef, lookup: @escaping KeyedLookup<Value, Edges>,
    existing: @escaping KeyedLookup<Value, Edges>
  ) {
    self.cache = cache
    lookupImpl = lookup
    existingImpl = existing
    self.id = id
    self.typeIndex = typeIndex
    self.givenLabel = label
    self.lifetime = lifetime
    self.cachePolicy = cachePolicy
    self.behavior = behavior
  }

  deinit { cache.free() }

  @usableFromInline package var label: String { givenLabel }

  /// The row for `key`. Warm path: the running body's candidate is the row it read here last
  /// time; comparing descriptor and key confirms it without hashing. Cold path: the box's
  /// per-context `Dictionary<Key, Int32>`, which hashes the concrete key.
  @MainActor @inlinable @inline(__always)
  package final func slot(for key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    let candidate = graph.candidate()
    if !candidate.isNone && names(candidate, key: key, in: graph) { return candidate }
    return lookup(key, in: graph)
  }

  /// Whether row `s` is this box's row for `key` (no hashing).
  @MainActor @inlinable @inline(__always)
  package final func names(_ s: Slot, key: AnyHashable, in graph: Graph<Edges>) -> Bool {
    guard graph.rows.descriptor[s] == id, let k = graph.rows.keyOf[s] else { return false }
    return k == key
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

/// A keyed box's key-typed cold path: the box, a key, the context → a row.
@usableFromInline
package typealias KeyedLookup<Value, Edges: EdgeStore> =
  @MainActor (KeyedBoxBase<Value, Edges>, AnyHashable, Graph<Edges>) -> Slot

/// A keyed box over keys of type `Key`.
@usableFromInline
package final class KeyedBox<Key: Hashable, Value, Edges: EdgeStore>: KeyedBoxBase<Value, Edges>,
  @unchecked Sendable
{
  /// A box whose rows run `body` for their key and store the result unless `same(old, new)`.
  /// `same` is inlined into the behavior: `==` itself, or the caller's equality (calling a
  /// captured equality closure costs a retain and release of its context per run, profiled
  /// on cog/keyed-diamond).
  @inlinable
  package convenience init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (Key, Graph<Edges>, Slot) -> Value,
    same: @escaping @Sendable (Value, Value) -> Bool
  ) {
    let id = Registry.makeDescriptorID()
    let ti = Registry.typeIndex(for: Value.self)
    let cache = DescriptorCache.make()
    let behavior = RowBehavior<Edges> { graph, slot in
      let key = KeyedBox.key(of: slot, in: graph, id: id, cache: cache)
      let new = body(key, graph, slot)
      return graph.store(new, at: slot, typeIndex: ti, same: same)
    }
    self.init(
      id: id, typeIndex: ti, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: behavior, cache: cache,
      lookup: { box, key, graph in
        unsafeDowncast(box, to: KeyedBox.self).typedLookup(key, in: graph)
      },
      existing: { box, key, graph in
        unsafeDowncast(box, to: KeyedBox.self).typedExisting(key, in: graph)
      })
  }

  @inlinable package override var label: String {
    givenLabel.isEmpty ? "CogBox<\(Key.self), \(Value.self)>#\(id)" : givenLabel
  }

  /// The key of row `slot`, read from the box's key index through the cache (filled here on
  /// the first run in a context).
  @MainActor @inlinable @inline(__always)
  package static func key(
    of slot: Slot, in graph: Graph<Edges>, id: Int32, cache: DescriptorCacheRef
  ) -> Key {
    if _slowPath(cache.pointee.context != graph.identity) {
      cache.pointee.context = graph.identity
      cache.pointee.index = Unmanaged.passUnretained(graph.keyIndex(of: id)! as AnyObject)
    }
    return withGuaranteed(cache.pointee.index.unsafelyUnwrapped) {
      unsafeDowncast($0, to: BoxIndex<Key>.self).keys[slot].unsafelyUnwrapped
    }
  }

  @MainActor @inlinable
  package func index(in graph: Graph<Edges>) -> BoxIndex<Key> {
    if let existing = graph.keyIndex(of: id) {
      return unsafeDowncast(existing as AnyObject, to: BoxIndex<Key>.self)
    }
    let index = BoxIndex<Key>()
    graph.setKeyIndex(index, for: id)
    graph.setOwner(self, for: id)
    return index
  }

  /// The row of `k` through the one-entry cache (context identity + unretained key index),
  /// which the behavior also fills: a read outside a body (no candidate to confirm) then
  /// costs one hash of the concrete key and no dictionary lookup of the index, no existential
  /// and no reference counting. `.none` on a miss.
  @MainActor @inlinable @inline(__always)
  package func cachedSlot(_ k: Key, in graph: Graph<Edges>) -> Slot {
    guard cache.pointee.context == graph.identity, let index = cache.pointee.index else {
      return .none
    }
    let raw = withGuaranteed(index) { unsafeDowncast($0, to: BoxIndex<Key>.self).slots[k] }
    if let raw { return Slot(raw) }
    return .none
  }

  @MainActor @inlinable
  package func typedExisting(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    guard let existing = graph.keyIndex(of: id), let k = key.base as? Key else { return .none }
    let index = unsafeDowncast(existing as AnyObject, to: BoxIndex<Key>.self)
    if let raw = index.slots[k] { return Slot(raw) }
    return .none
  }

  @MainActor @inlinable
  package func typedLookup(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    let k = key.base as! Key
    let cached = cachedSlot(k, in: graph)
    if !cached.isNone { return cached }
    let index = index(in: graph)
    cache.pointee.context = graph.identity
    cache.pointee.index = Unmanaged.passUnretained(index as AnyObject)
    if let s = index.slots[k] { return Slot(s) }
    let pair = graph.allocateValuePair(typeIndex, initial: Value?.none)
    let s = graph.allocateRow(
      kind: .computed, descriptor: id, typeIndex: typeIndex, valueIndex: pair,
      behavior: behavior, lifetime: lifetime, key: key)
    index.slots[k] = s.raw
    index.keys.extend(to: s.index + 1, with: nil)
    index.keys[s] = k
    return s
  }
}

/// A keyed box's rows in one context: key → slot for cold lookups, and slot → typed key so
/// the shared body gets its key without a dynamic cast.
@MainActor @usableFromInline
package final class BoxIndex<Key: Hashable>: KeyedRowIndex {
  @usableFromInline var slots: [Key: Int32] = [:]
  @exclusivity(unchecked) @usableFromInline var keys = RawColumn<Key?>(capacity: 16)

  @inlinable package init() {}
  isolated deinit { keys.free() }

  @inlinable package func forget(key: AnyHashable, slot: Slot) {
    if let k = key.base as? Key, slots[k] == slot.raw { slots[k] = nil }
    if slot.index < keys.count { keys[slot] = nil }
  }
}

/// An inline reference: a keyed box plus an `AnyHashable` key. A stable name that never
/// stores a row, so it stays valid when its row is released and later made again.
@frozen @usableFromInline
package struct InlineKeyName<Value, Edges: EdgeStore> {
  @usableFromInline package let box: KeyedBoxBase<Value, Edges>
  @usableFromInline package let key: AnyHashable

  @inlinable package init(box: KeyedBoxBase<Value, Edges>, key: AnyHashable) {
    self.box = box
    self.key = key
  }

  @inlinable package var typeIndex: Int32 { box.typeIndex }
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
