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

  /// A cache miss. The descriptor's row here is in its cache (`cachedKeylessSlot`, which
  /// missed) while the cache names this context, or in the context's `keylessRows` while
  /// the cache names another live context; `.none` when it has none here yet. A row found in
  /// `keylessRows` takes the cache over from a context that is gone.
  @inlinable
  func keylessSlotSlow(id: Int32, cache: borrowing KeylessCache) -> Slot {
    let holder = cache.contextSerial
    if holder == keylessIdentity || maps.keylessRows.isEmpty { return .none }
    guard let raw = maps.keylessRows[DescriptorKey(id)] else { return .none }
    if cacheIsFree(holder) {
      maps.keylessRows[DescriptorKey(id)] = nil
      cache.set(context: keylessIdentity, slot: raw)
    }
    return Slot(raw)
  }

  /// Records `s`, a new row of the descriptor, in its cache when the cache is free (it names
  /// no context, this one, or one that is gone), else in the context's `keylessRows`.
  @inlinable @inline(__always)
  func remember(_ s: Slot, id: Int32, cache: borrowing KeylessCache) {
    if cacheIsFree(cache.contextSerial) {
      cache.set(context: keylessIdentity, slot: s.raw)
    } else {
      rememberElsewhere(s, id: id)
    }
  }

  /// Whether a keyless descriptor's cache that names the context `holder` may be taken: it
  /// names no context, this one, or one that is gone (never another live one, whose row may
  /// be cached there).
  @inlinable @inline(__always)
  func cacheIsFree(_ holder: Int32) -> Bool {
    holder == 0 || holder == keylessIdentity || !LiveContexts.contains(holder)
  }

  /// `remember` while another live context holds the cache (cold).
  @inline(never) @inlinable
  func rememberElsewhere(_ s: Slot, id: Int32) {
    maps.keylessRows[DescriptorKey(id)] = s.raw
  }

  /// The row of a keyless descriptor here, or `.none`; neither makes one nor moves the cache.
  @inlinable package func existingKeylessSlot(id: Int32, cache: borrowing KeylessCache) -> Slot {
    let s = cachedKeylessSlot(id: id, cache: cache)
    if !s.isNone { return s }
    if let raw = maps.keylessRows[DescriptorKey(id)] { return Slot(raw) }
    return .none
  }

  /// Makes the row of a keyless descriptor: its value pair, the row (a source without
  /// `behavior`, a computed with one) holding `details` if the descriptor has any (a plain
  /// manual state's row holds nothing), and the cache entry (`remember`). The descriptor
  /// notes that it made a row, so that its `deinit` marks it dropped
  /// (`KeylessCache.descriptorDeinit`). Cold: once per descriptor per context.
  /// `runs`: an automatic state, whose rows run `details` (its behavior).
  /// `details` unretained: a strong one was retained around the hold column's growth.
  // Lifetime: the caller's descriptor keeps `details`; from here the row's count in `rowHolds`
  // does too, until `releaseHold` gives it back.
  // Always inlined: its one caller is `KeylessState.resolveSlow` (itself out of line), and
  // with a new row's column appends inlined the compiler kept it out of line on some layouts.
  @inlinable @inline(__always) package func makeKeylessRow<V>(
    id: Int32, typeIndex: Int32, initial: V?, details: Unmanaged<KeylessDetails>?, runs: Bool,
    lifetime: RowLifetime, cache: borrowing KeylessCache
  ) -> Slot {
    let pair = allocateValuePair(typeIndex, initial: initial)
    let s = allocateRow(
      kind: runs ? .computed : .source, descriptor: id, typeIndex: typeIndex,
      valueIndex: pair, behavior: BehaviorRef(unretained: runs ? details : nil),
      lifetime: lifetime)
    if let details {
      KeylessDetails.holdRow(details)
      setHold(details, of: s)
    }
    cache.markRowMade()
    maps.holdCount &+= 1
    maps.ownersAddedSinceSweep &+= 1
    remember(s, id: id, cache: cache)
    return s
  }

  /// Stores a computed row's new value unless `same(old, new)`; returns whether it changed.
  /// While the operation is failing (a cycle), keeps the last good value. The one place a
  /// behavior's result reaches the value column.
  @inlinable @inline(__always)
  package func store<V>(_ new: V, at slot: Slot, typeIndex: Int32, same: (V, V) -> Bool) -> Bool {
    if _slowPath(isFailing) { return false }
    // The column may have grown while the body ran: locate the entry now.
    return ValueEntry.update(
      new, valueEntries(typeIndex), Int(rows.valueIndex[slot]),
      holds: rows.flags[slot].contains(.hasValue), same: same)
  }

  /// `store`, with the type index read from the row's column: a behavior that calls it needs
  /// nothing of its own after its body returns (one saved register fewer around the body's
  /// call than keeping the behavior object for its field).
  @inlinable @inline(__always)
  package func store<V>(_ new: V, at slot: Slot, same: (V, V) -> Bool) -> Bool {
    store(new, at: slot, typeIndex: Int32(truncatingIfNeeded: rows.typeIndex[slot]), same: same)
  }
}
