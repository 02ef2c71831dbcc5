/// The row side of descriptors: how a keyless descriptor finds (or makes) its one row in a
/// context. Bindings (the public `Cog`, the workbench's systems) hold the descriptor's fields
/// and call these, so that every binding resolves rows the same way.
extension Graph {
  /// The row of keyless descriptor `id` in this context through the descriptor's one-entry
  /// cache (context identity and slot), which holds while the slot still names `id`; `.none`
  /// on a miss (then `keylessSlotSlow`).
  @inlinable @inline(__always)
  func cachedKeylessSlot(id: Int32, cache: borrowing KeylessCache) -> Slot {
    if cache.contextSerial == keylessIdentity {
      let s = Slot(cache.slotRaw)
      if rows.descriptor[s] == id { return s }
    }
    return .none
  }

  /// A cache miss: the row from the context's map, or `.none` when the descriptor has none
  /// here yet; the cache remembers a row found.
  @inlinable
  func keylessSlotSlow(id: Int32, cache: borrowing KeylessCache) -> Slot {
    let s = slot(ofDescriptor: id)
    if !s.isNone { remember(s, cache: cache) }
    return s
  }

  /// Records `s` as the descriptor's row in its cache (the context's map has it already:
  /// `keylessSlotSlow` found it there, `makeKeylessRow` put it there).
  @inlinable
  func remember(_ s: Slot, cache: borrowing KeylessCache) {
    cache.set(context: keylessIdentity, slot: s.raw)
  }

  /// Makes the row of a keyless descriptor: its value pair, the row (a source without
  /// `behavior`, a computed with one), and its entry in the context's map: the owner record
  /// and the row. Cold: once per descriptor per context.
  @inlinable package func makeKeylessRow<V>(
    id: Int32, typeIndex: Int32, initial: V?, owner: RowOwner, behavior: RowBehavior?,
    lifetime: RowLifetime
  ) -> Slot {
    let pair = allocateValuePair(typeIndex, initial: initial)
    let s = allocateRow(
      kind: behavior == nil ? .source : .computed, descriptor: id, typeIndex: typeIndex,
      valueIndex: pair, behavior: behavior, lifetime: lifetime)
    setOwner(owner, for: id, slot: s)
    return s
  }

  /// Stores a computed row's new value unless `same(old, new)`; returns whether it changed.
  /// While the operation is failing (a cycle), keeps the last good value. The one place a
  /// behavior's result reaches the value column.
  @inlinable @inline(__always)
  package func store<V>(_ new: V, at slot: Slot, typeIndex: Int32, same: (V, V) -> Bool) -> Bool {
    if _slowPath(isFailing) { return false }
    // The column may have grown while the body ran: locate the entry now.
    let entry = valuePointer(typeIndex, rows.valueIndex[slot], as: V.self)
    if let old = entry.pointee {
      if same(old, new) { return false }
      entry.pointee! = new  // in place: the entry holds a value, so its tag stays as it is
      return true
    }
    entry.pointee = new
    return true
  }

  /// `store`, with the type index read from the row's column: a behavior that calls it needs
  /// nothing of its own after its body returns (one saved register fewer around the body's
  /// call than keeping the behavior object for its field: measured on kairo/deep).
  @inlinable @inline(__always)
  package func store<V>(_ new: V, at slot: Slot, same: (V, V) -> Bool) -> Bool {
    store(new, at: slot, typeIndex: Int32(truncatingIfNeeded: rows.typeIndex[slot]), same: same)
  }
}
