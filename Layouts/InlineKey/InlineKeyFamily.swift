import CogCore
import CogKeySupport

/// A writable keyed family in the inline reference layout (`CogFamily`): an inline box whose
/// rows are manual states, each made with the family's initial value for its key. References
/// are a box's (`InlineKeyName`), so reads, lifetimes, release and dropping go through the
/// box's paths; only the rows' kind and their making differ. Sendable as a box is: nothing
/// changes after `init`, and rows are reached on the main actor only.
// Safety: immutable after init; rows are reached on the main actor only.
@usableFromInline
package class InlineFamilyBase<Value, Edges: EdgeStore>: InlineBoxBase<Value, Edges>,
  @unchecked Sendable
{
  /// The rows' equality for writes (`nil`: every write changes). Unretained, and safe so:
  /// the registry keeps the shared `==` for the process, `equalityOwner` a custom one.
  // Lifetime: the registry (shared `==`, for the process) or `equalityOwner` keeps it alive.
  @usableFromInline package let equality: Unmanaged<SourceEquality<Value>>?
  @usableFromInline let equalityOwner: SourceEquality<Value>?

  @inlinable
  package init(
    id: Int32, typeIndex: Int32, label: String, lifetime: RowLifetime,
    // Lifetime: the registry (shared `==`, for the process) or `equalityOwner` keeps it alive.
    cachePolicy: (limit: Int, retention: Duration)?, equality: Unmanaged<SourceEquality<Value>>?,
    equalityOwner: SourceEquality<Value>?, cache: DescriptorCacheRef,
    keyPaths: InlineKeyPaths<Value, Edges>
  ) {
    self.equality = equality
    self.equalityOwner = equalityOwner
    super.init(
      id: id, typeIndex: typeIndex, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: manualRowBehavior, cache: cache, keyPaths: keyPaths)
  }
}

/// A family's `KeyedState.behavior`, which its rows never run: they are sources (their
/// behavior column is `nil`), and `KeyedState` holds one for every keyed descriptor.
@usableFromInline
package let manualRowBehavior = RowBehavior(run: { _, _, _ -> Bool in
  fatalError("Cog: a family's row is manual and has no body to run")
})

/// A writable family over keys of type `Key` (Sendable as its base is; `initial` is called on
/// the main actor only).
// Safety: immutable after init; rows are reached on the main actor only.
@usableFromInline
package final class InlineFamily<Key: Hashable, Value, Edges: EdgeStore>:
  InlineFamilyBase<Value, Edges>, @unchecked Sendable
{
  @usableFromInline let initial: @MainActor (Key) -> Value

  /// A family whose rows start at `initial(key)`; writes compare with `equality` (held
  /// unretained; `equalityOwner` keeps a custom one alive).
  @inlinable
  package init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    // Lifetime: the registry (shared `==`, for the process) or `equalityOwner` keeps it alive.
    equality: Unmanaged<SourceEquality<Value>>?, equalityOwner: SourceEquality<Value>?,
    initial: @escaping @MainActor (Key) -> Value
  ) {
    self.initial = initial
    super.init(
      id: Registry.makeDescriptorID(), typeIndex: Registry.typeIndex(for: Value.self),
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equality: equality,
      equalityOwner: equalityOwner, cache: DescriptorCache.make(),
      keyPaths: InlineKeyPaths(
        lookup: { box, key, graph in
          key.withKey(as: Key.self) {
            // Safety: this path closure is made in `InlineFamily`'s own init and handed that box.
            unsafeDowncast(box, to: InlineFamily.self).typedLookup($0, in: graph)
          }
        },
        existing: { box, key, graph in
          key.withKey(as: Key.self) {
            // Safety: this path closure is made in `InlineFamily`'s own init and handed that box.
            unsafeDowncast(box, to: InlineFamily.self).typedExisting($0, in: graph)
          }
        },
        anyKey: { key in key.withKey(as: Key.self) { AnyHashable($0) } }))
  }

  @inlinable package override var label: String {
    state.givenLabel.isEmpty
      ? "CogFamily<\(typeName(Key.self)), \(typeName(Value.self))>#\(state.id)"
      : state.givenLabel
  }

  @MainActor @inlinable
  package func typedExisting(_ key: Key, in graph: Graph<Edges>) -> Slot {
    guard let u = state.rowsIfAny(in: graph) else { return .none }
    // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
    return withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: key) }
  }

  /// The row of `key`, made with the key's initial value if it has none.
  @MainActor @inlinable
  package func typedLookup(_ key: Key, in graph: Graph<Edges>) -> Slot {
    let s = typedExisting(key, in: graph)
    return s.isNone ? makeRow(key, in: graph) : s
  }

  /// A key with no row in `graph` yet (cold: once per key while its row lives).
  @MainActor @inlinable @inline(never)
  package func makeRow(_ key: Key, in graph: Graph<Edges>) -> Slot {
    let rows = BoxRows<Key>.rows(of: state, owner: self, in: graph, tags: .entries)
    return rows.makeManualRow(key, initial: initial(key), box: state, in: graph)
  }
}

extension InlineKeyName {
  /// A family's reference (`CogFamily[key]`): `key` has the family's key type, as
  /// `init(box:key:)` requires of a box's.
  @inlinable @inline(__always)
  package init<Key: Hashable>(family: InlineFamily<Key, Value, Edges>, key: Key) {
    self.box = family
    self.key = InlineKey(key)
    holds = { rows, tag, key in
      // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
      key.withKey(as: Key.self) { unsafeDowncast(rows, to: BoxRows<Key>.self).holds($0, tag: tag) }
    }
  }
}
