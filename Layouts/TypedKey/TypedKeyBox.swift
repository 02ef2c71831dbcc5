import CogCore
import CogKeySupport

/// The generic reference layout (seed 000 §4; the app's `CogRef<Key, Value>` since issue 24,
/// decided in impl/perf-notes.md, "M6, round two"): the key type is part of the reference
/// (`TypedKeyName<Key, Value, …>`, so in the read surface), and the warm path confirms a
/// candidate by descriptor and by comparing the row's typed key with `==` on `Key` itself:
/// no existential, no dynamic cast and no `AnyHashable` anywhere on the path.

/// A box over keys of type `Key` whose references carry the key typed. Either a keyed box of
/// computed rows (`CogBox`) or, made with `init(family:…)`, a writable family of manual rows
/// (`CogFamily`): the same class, so that one reference type names both and a read or
/// release takes one path; only the making of a row and writing differ, by `family`.
// Safety: immutable after init; rows are reached on the main actor only.
@usableFromInline
package final class TypedBox<Key: Hashable, Value, Edges: EdgeStore>: RowOwner,
  @unchecked Sendable
{
  @usableFromInline package let state: KeyedState<Value, Edges>
  /// A writable family's parts; `nil` for a box of computed rows.
  @usableFromInline package let family: TypedFamilyParts<Key, Value>?

  @inlinable
  package init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (Key, Graph<Edges>, Slot) -> Value,
    same: @escaping @Sendable (Value, Value) -> Bool
  ) {
    let id = Registry.makeDescriptorID()
    let ti = Registry.typeIndex(for: Value.self)
    let cache = DescriptorCache.make()
    state = KeyedState(
      id: id, typeIndex: ti, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: keyedBehavior(id: id, typeIndex: ti, cache: cache, body, same: same),
      cache: cache)
    family = nil
  }

  /// A writable family whose rows start at `initial(key)`; writes compare with `equality`
  /// (held unretained; `equalityKeeper` keeps a custom one alive).
  @inlinable
  package init(
    family label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?,
    // Lifetime: the registry (shared `==`, for the process) or `equalityKeeper` keeps it alive.
    equality: Unmanaged<SourceEquality<Value>>?, equalityKeeper: SourceEquality<Value>?,
    initial: @escaping @MainActor (Key) -> Value
  ) {
    state = KeyedState(
      id: Registry.makeDescriptorID(), typeIndex: Registry.typeIndex(for: Value.self),
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, behavior: manualRowBehavior,
      cache: DescriptorCache.make())
    family = TypedFamilyParts(
      initial: initial, equality: equality, equalityKeeper: equalityKeeper)
  }

  deinit { state.cache.free() }

  /// `RowOwner`: the contexts holding this box (in its cache entry).
  @usableFromInline package func contextHold(_ delta: Int32) -> Int32 {
    state.cache.pointee.holds &+= delta
    return state.cache.pointee.holds
  }
  @usableFromInline package var label: String {
    guard state.givenLabel.isEmpty else { return state.givenLabel }
    let kind = family == nil ? "CogBox" : "CogFamily"
    return "\(kind)<\(typeName(Key.self)), \(typeName(Value.self))>#\(state.id)"
  }
  @usableFromInline package var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }

  /// Whether row `s` is this box's row for `key`: the descriptor, then `==` on the typed key
  /// the box's storage keeps for the row's tag (no hashing).
  @MainActor @inlinable @inline(__always)
  package func names(_ s: Slot, key: Key, in graph: Graph<Edges>) -> Bool {
    guard graph.rows.descriptor[s] == state.id, let u = state.rowsIfAny(in: graph) else {
      return false
    }
    let tag = graph.rows.tag[s]
    // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
    return withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).key(tag: tag) == key }
  }

  /// The row of `key`, made if it has none (cold: one hash of the concrete key); a family's
  /// new row starts at its initial value for the key.
  @MainActor @inlinable @inline(never)
  package func lookup(_ key: Key, in graph: Graph<Edges>) -> Slot {
    if let u = state.rowsIfAny(in: graph) {
      // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
      let s = withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: key) }
      if !s.isNone { return s }
    }
    let rows = BoxRows<Key>.rows(of: state, owner: self, in: graph, tags: .entries)
    if let family {
      return rows.makeManualRow(key, initial: family.initial(key), box: state, in: graph)
    }
    return rows.makeRow(key, box: state, in: graph)
  }

  /// The existing row of `key`, or `.none`.
  @MainActor @inlinable
  package func existing(_ key: Key, in graph: Graph<Edges>) -> Slot {
    guard let u = state.rowsIfAny(in: graph) else { return .none }
    // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
    return withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: key) }
  }
}

/// What makes a typed box a writable family: its rows' initial value and their equality for
/// writes (`nil`: every write changes). A class, so that a box holds one word for it (the
/// parts are read only when a row is made or written, never on a read).
// Safety: `let`s; `initial` is `@MainActor` and only graph code calls it.
@usableFromInline
package final class TypedFamilyParts<Key, Value>: @unchecked Sendable {
  @usableFromInline package let initial: @MainActor (Key) -> Value
  // Lifetime: the registry (shared `==`, for the process) or `equalityKeeper` keeps it alive.
  @usableFromInline package let equality: Unmanaged<SourceEquality<Value>>?
  @usableFromInline let equalityKeeper: SourceEquality<Value>?

  @inlinable init(
    initial: @escaping @MainActor (Key) -> Value,
    // Lifetime: as the stored `equality` above (the caller's registry or `equalityKeeper`).
    equality: Unmanaged<SourceEquality<Value>>?, equalityKeeper: SourceEquality<Value>?
  ) {
    self.initial = initial
    self.equality = equality
    self.equalityKeeper = equalityKeeper
  }
}

/// A generic reference: the box and the typed key.
@frozen @usableFromInline
package struct TypedKeyName<Key: Hashable, Value, Edges: EdgeStore> {
  @usableFromInline package let box: TypedBox<Key, Value, Edges>
  @usableFromInline package let key: Key

  @inlinable package init(box: TypedBox<Key, Value, Edges>, key: Key) {
    self.box = box
    self.key = key
  }

  @inlinable package var typeIndex: Int32 { box.state.typeIndex }
}

extension TypedKeyName: StateName {
  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    box.names(candidate, key: key, in: graph)
  }

  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>) -> Slot { box.lookup(key, in: graph) }

  @MainActor @inlinable
  package func existing(in graph: Graph<Edges>) -> Slot { box.existing(key, in: graph) }
}
