import CogCore
import CogKeySupport

/// A writable keyed family in the inline reference layout (`CogFamily`): an inline box whose
/// rows are manual states, made with the family's initial value for their key. References
/// are the box's (`InlineKeyName`), so reads go through the same paths as a box's rows.
@usableFromInline
package class InlineFamilyBase<Value, Edges: EdgeStore>: InlineBoxBase<Value, Edges>,
  @unchecked Sendable
{
  /// The rows' equality for writes (`nil`: every write changes).
  @usableFromInline package let equality: Unmanaged<SourceEquality<Value>>?
  /// Keeps a custom equality alive (the shared one is the registry's).
  @usableFromInline let ownedEquality: SourceEquality<Value>?

  @inlinable
  package init(
    id: Int32, typeIndex: Int32, label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?, equality: SourceEquality<Value>?,
    shared: Unmanaged<SourceEquality<Value>>?, cache: DescriptorCacheRef,
    lookup: @escaping InlineLookup<Value, Edges>, existing: @escaping InlineLookup<Value, Edges>
  ) {
    ownedEquality = equality
    self.equality = shared ?? equality.map { Unmanaged.passUnretained($0) }
    // Manual rows never run: the behavior is there because every keyed state has one.
    let never = RowBehavior(run: { _, _, _ -> Bool in
      fatalError("Cog: a family's row is manual and has no body to run")
    })
    super.init(
      id: id, typeIndex: typeIndex, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: never, cache: cache, lookup: lookup, existing: existing)
  }
}

/// A writable family over keys of type `Key`.
@usableFromInline
package final class InlineFamily<Key: Hashable, Value, Edges: EdgeStore>:
  InlineFamilyBase<Value, Edges>, @unchecked Sendable
{
  @usableFromInline let initial: (Key) -> Value

  @inlinable
  package init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equality: SourceEquality<Value>?, shared: Unmanaged<SourceEquality<Value>>?,
    initial: @escaping (Key) -> Value
  ) {
    self.initial = initial
    super.init(
      id: Registry.makeDescriptorID(), typeIndex: Registry.typeIndex(for: Value.self),
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equality: equality,
      shared: shared, cache: DescriptorCache.make(),
      lookup: { box, key, graph in
        unsafeDowncast(box, to: InlineFamily.self).typedLookup(key, in: graph)
      },
      existing: { box, key, graph in
        unsafeDowncast(box, to: InlineFamily.self).typedExisting(key, in: graph)
      })
  }

  @inlinable package override var label: String {
    state.givenLabel.isEmpty
      ? "CogFamily<\(Key.self), \(Value.self)>#\(state.id)" : state.givenLabel
  }

  @MainActor @inlinable
  package func typedExisting(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    guard let u = state.rowsIfAny(in: graph), let k = key.base as? Key else { return .none }
    return withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: k) }
  }

  /// The row of `key`, made with the key's initial value if it has none.
  @MainActor @inlinable
  package func typedLookup(_ key: AnyHashable, in graph: Graph<Edges>) -> Slot {
    guard let k = key.base as? Key else {
      fatalError("Cog: family \(label) has keys of type \(Key.self), not \(type(of: key.base))")
    }
    if let u = state.rowsIfAny(in: graph) {
      let s = withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self).slot(of: k) }
      if !s.isNone { return s }
    }
    let rows = BoxRows<Key>.rows(
      of: state, owner: self, in: graph, tags: .entries, storesAnyKeys: true)
    return rows.makeManualRow(k, initial: initial(k), anyKey: key, box: state, in: graph)
  }
}
