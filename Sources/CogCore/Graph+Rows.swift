import CCogStack

extension Graph {
  /// The typed column of `typeIndex`, unretained (`valueColumns`), or `nil` before its first
  /// row.
  @inlinable @inline(__always)
  func columnRef(_ typeIndex: Int32) -> Unmanaged<AnyValueColumn>? {
    let i = Int(typeIndex)
    return i >= 0 && i < valueColumns.count ? valueColumns[i] : nil
  }

  /// Makes the typed column for `Value` in this context (cold: once per value type).
  @inline(never) @inlinable
  func makeColumn<Value>(_ typeIndex: Int32, as: Value.Type) -> Unmanaged<AnyValueColumn> {
    let i = Int(typeIndex)
    while maps.columns.count <= i { maps.columns.append(nil) }
    let c = ValueColumn<Value>()
    maps.columns[i] = c
    valueBase.extend(to: i + 1, with: nil)
    valueBase[i] = c.base
    valueColumns.extend(to: i + 1, with: nil)
    // Lifetime: `maps.columns` (set above) keeps the column for the graph's life.
    let u = Unmanaged.passUnretained(c as AnyValueColumn)
    valueColumns[i] = u
    return u
  }

  /// A value pair for a new row in the typed column of `typeIndex` (cold: once per row).
  @inlinable @inline(__always)
  package func allocateValuePair<Value>(_ typeIndex: Int32, initial: Value?) -> Int32 {
    let u = columnRef(typeIndex) ?? makeColumn(typeIndex, as: Value.self)
    // Safety: `maps.columns` keeps the column (`valueColumns`); `makeColumn` made it a
    // `ValueColumn<Value>`, and a type index names one type.
    let (pair, base) = withGuaranteed(u) {
      let c = unsafeDowncast($0, to: ValueColumn<Value>.self)
      return (c.allocatePair(initial: initial), c.base)
    }
    valueBase[Int(typeIndex)] = base
    return pair
  }

  /// The entries of the typed column `typeIndex` (see `ValueEntry`): two loads, no class
  /// access, no reference counting. The hot path of every read.
  @inlinable @inline(__always)
  func valueEntries(_ typeIndex: Int32) -> UnsafeMutableRawPointer {
    valueBase[Int(typeIndex)].unsafelyUnwrapped
  }

  /// The value entry `index` of the typed column `typeIndex` holds; it must hold one.
  @inlinable @inline(__always)
  package func loadValue<Value>(_ typeIndex: Int32, _ index: Int32, as: Value.Type) -> Value {
    ValueEntry<Value>.load(valueEntries(typeIndex), Int(index))
  }

  /// Stores `value` in entry `index` of the typed column `typeIndex` (holding one or not).
  @inlinable @inline(__always)
  func storeValue<Value>(_ value: Value, _ typeIndex: Int32, _ index: Int32) {
    ValueEntry<Value>.store(value, valueEntries(typeIndex), Int(index))
  }

  /// Sets entry `s` of a column that grows only as far as the last row with an entry
  /// (`ContextMaps.boundaryIndex`, `leases`), filling the rows before it with 0.
  @inlinable static func setSparse(_ column: inout ContiguousArray<Int32>, _ s: Slot, _ v: Int32) {
    let i = Int(s.raw)
    if i >= column.count {
      column.append(contentsOf: repeatElement(0, count: i + 1 - column.count))
    }
    column[i] = v
  }

  /// Row `s`'s hold on its descriptor's details (a keyless row's that has them), or nil.
  @inlinable package func hold(of s: Slot) -> Unmanaged<KeylessDetails>? {
    Int(s.raw) < maps.holds.count ? maps.holds[s] : nil
  }

  /// Sets row `s`'s hold (the column grows to reach it).
  @inlinable @inline(__always) func setHold(_ held: Unmanaged<KeylessDetails>?, of s: Slot) {
    let i = Int(s.raw)
    if i < maps.holds.count {
      maps.holds[s] = held
    } else if let held {
      // Usually a new row at the end: one append.
      if i > maps.holds.count { maps.holds.extend(to: i, with: nil) }
      maps.holds.append(held)
    }
  }

  /// Registers `owner` as the per-context record of descriptor `id` (cold): a keyed box, or
  /// the graph's own record for a status row. Keyless rows hold their descriptor's details
  /// themselves (`makeKeylessRow`).
  @inlinable package func setOwner(_ owner: RowOwner, for id: Int32) {
    let made = OwnerRecord(holding: owner)
    if let old = maps.owners.updateValue(made, forKey: DescriptorKey(id)) {
      old.owner.release()  // a box's again: the new hold replaces it
    } else {
      maps.ownersAddedSinceSweep &+= 1
      maps.holdCount &+= 1
    }
  }

  /// Forgets the per-context record of descriptor `id` (its rows here are gone), releasing
  /// this context's hold on it.
  @inlinable package func removeOwner(of id: Int32) {
    if let record = maps.owners.removeValue(forKey: DescriptorKey(id)) {
      maps.holdCount &-= 1
      record.owner.release()
    }
  }

  /// The record of row `s`'s descriptor in `owners` (a keyed box's, an async status row's),
  /// or nil (a keyless row's descriptor has none: `cachePolicy(ofRow:)`, `label(ofRow:)`).
  @inlinable package func owner(ofRow s: Slot) -> RowOwner? {
    maps.owners[DescriptorKey(rows.descriptor[s])]?.owner.object
  }

  /// The cache policy of row `s`'s descriptor: its details' (a keyless row), or its record's.
  @inlinable package func cachePolicy(ofRow s: Slot) -> (limit: Int, retention: Duration)? {
    // Lifetime: the row's hold keeps its details.
    if let held = hold(of: s) { return withGuaranteed(held) { $0.cachePolicy } }
    return owner(ofRow: s)?.cachePolicy
  }

  /// The label of row `s`'s descriptor (cold: errors, names in the turn history): a keyless
  /// row's from its details or, by default, `Cog<Value>#id` made from the row (the
  /// descriptor may be gone), a keyed or status row's from its record; nil for a reaction.
  @inline(never) @inlinable package func label(ofRow s: Slot) -> String? {
    if let held = hold(of: s) {
      // Lifetime: the row's hold keeps its details.
      let given = withGuaranteed(held) { $0.givenLabel }
      if !given.isEmpty { return given }
      return defaultLabel(s)
    }
    if let owner = owner(ofRow: s) { return owner.label }
    return isUnheld(s) ? defaultLabel(s) : nil
  }

  /// The label of descriptor `id` (cold: names in the turn history), or nil when this
  /// context has no row of it. A keyless descriptor's is found through its row, by a walk of
  /// the descriptor column.
  @inline(never) @inlinable package func label(ofDescriptor id: Int32) -> String? {
    if let record = maps.owners[DescriptorKey(id)] { return record.owner.object.label }
    for raw in 0..<rows.count where rows.descriptor[Slot(Int32(raw))] == id {
      return label(ofRow: Slot(Int32(raw)))
    }
    return nil
  }

  /// Whether row `s` is a plain manual state's, which holds nothing (`makeKeylessRow`): a
  /// row with no hold and no key index that `isPlainSource` names.
  @inlinable func isUnheld(_ s: Slot) -> Bool {
    let id = rows.descriptor[s]
    return hold(of: s) == nil && maps.keyIndexes[DescriptorKey(id)] == nil
      && isPlainSource(rows.flags[s], id: id)
  }

  /// The rest of `isUnheld` once a row is known to have no hold and no key index (`release`
  /// has tested both on its way): a manual row of a descriptor with no record.
  @inlinable func isPlainSource(_ f: StateFlags, id: Int32) -> Bool {
    f.contains(.source) && maps.owners[DescriptorKey(id)] == nil
  }

  /// Whether keyless row `s`'s descriptor is gone: its `deinit` marked its id
  /// (`KeylessCache.descriptorDeinit`). Only keyless descriptors that made rows mark ids, so
  /// the mark names them; the freed object is never touched. A status row shares its async
  /// descriptor's id but is not keyless (its record says when it goes).
  @inlinable func keylessIsDropped(_ s: Slot) -> Bool {
    if cog_descriptor_is_dropped(rows.descriptor[s]) == 0 { return false }
    return hold(of: s) != nil || isUnheld(s)
  }

  /// `Cog<Value>#id` for keyless row `s`, from its value column's type and its descriptor id
  /// (cold).
  @inline(never) @inlinable func defaultLabel(_ s: Slot) -> String? {
    guard let u = columnRef(Int32(rows.typeIndex[s])) else { return nil }
    // Lifetime: `maps.columns` keeps the column (`valueColumns`).
    let name = withGuaranteed(u) { $0.valueTypeName }
    return unlabeledCogLabel(typeName: name, id: rows.descriptor[s])
  }

  /// Registers the per-context key index of keyed descriptor `id` (cold).
  @inlinable package func setKeyIndex(_ index: KeyedRowIndex, for id: Int32) {
    maps.keyIndexes[DescriptorKey(id)] = index
  }

  @inlinable package func keyIndex(of id: Int32) -> KeyedRowIndex? {
    maps.keyIndexes[DescriptorKey(id)]
  }

  /// Adds a row. Running rows (`.computed`, `.reaction`) start dirty so their first read runs
  /// them. Reuses a released slot (its generation was bumped on release).
  @inlinable package func allocateRow(
    kind: StateFlags, descriptor id: Int32, typeIndex ti: Int32, valueIndex vi: Int32,
    behavior b: BehaviorRef, lifetime l: RowLifetime, tag: UInt32 = 0
  ) -> Slot {
    var f = kind
    if !kind.isDisjoint(with: .runs) {
      f.insert(.dirty)
    } else {
      f.insert(.hasValue)
    }
    let s: Slot
    if work.freeSlots.count > 0 {
      s = work.freeSlots.removeLast()
    } else {
      s = Slot(rows.count)
      rows.appendRow()
      edges.ensureRows(rows.count)
    }
    rows.flags[s] = f
    rows.changedAt[s] = revision
    rows.valueIndex[s] = vi
    if _slowPath(ti > Graph.maxValueTypes) { tooManyValueTypes(ti) }
    rows.typeIndex[s] = Int16(truncatingIfNeeded: ti)
    rows.descriptor[s] = id
    rows.behavior[s] = b
    rows.lifetime[s] = l
    rows.tag[s] = tag
    if kind.contains(.reaction) {
      rows.order[s] = track.nextOrder
      track.nextOrder &+= 1
    }
    maps.liveRows += 1
    return s
  }

  /// The row's current reference (slot and generation).
  @inlinable package func ref(_ s: Slot) -> SlotRef {
    SlotRef(slot: s, generation: rows.generation[s])
  }

  /// Traps when `r` names a row that has since been released (and maybe reused). Compiled in
  /// debug builds and under `COG_INTERNAL_CHECKS`; free otherwise.
  @inlinable @inline(__always) package func checkLive(_ r: SlotRef) {
    #if DEBUG || COG_INTERNAL_CHECKS
      if rows.generation[r.slot] != r.generation || rows.flags[r.slot].contains(.released) {
        staleSlot(r)
      }
    #endif
  }

  /// How many value types may have rows in a process: the row's `typeIndex` column holds two
  /// bytes.
  @inlinable package static var maxValueTypes: Int32 { Int32(Int16.max) }

  /// A row of the value type numbered `ti` would not fit the two-byte column. `fatalError`, so
  /// that release builds print it too.
  @inlinable @inline(never) package func tooManyValueTypes(_ ti: Int32) -> Never {
    fatalError(
      "Cog: a row of a value type numbered \(ti) was made; a process supports at most "
        + "\(Graph.maxValueTypes + 1) distinct value types with rows (the row's type column "
        + "holds two bytes)")
  }

  @inlinable @inline(never) package func staleSlot(_ r: SlotRef) -> Never {
    preconditionFailure(
      "Cog: stale internal slot \(r): row \(r.slot) is now at generation \(rows.generation[r.slot])"
    )
  }

  /// Releases a row: drops its value and edges, tells its owner, bumps its generation and
  /// frees the slot. A row whose body is running is released when the operation ends. A
  /// reaction's object (which holds its body) goes with it.
  @inlinable package func release(_ s: Slot) {
    let f = rows.flags[s]
    if f.contains(.released) { return }
    if f.contains(.computing) || !isIdle {
      work.deferredRelease.append(ref(s))
      return
    }
    // A context with diagnostics may explain its turns (one test of a switch `maps` holds).
    #if !COG_NO_DIAGNOSTICS
      if _slowPath(maps.hasDiagnostics) { explainRelease(s, f) }
    #endif
    if f.contains(.cached) { uncache(s) }
    if _slowPath(f.contains(.async)) { releaseAsync(s) }
    edges.removeAllDeps(of: s, orphaned: &work.orphaned)
    let ti = Int32(rows.typeIndex[s])
    if let u = columnRef(ti) {
      // Lifetime: `maps.columns` keeps the column (`valueColumns`).
      let pair = rows.valueIndex[s] & ~1
      withGuaranteed(u) { $0.dropPair($0, pair) }
    }
    // A slot's leases do not pass to the row that reuses it (its boundary index means
    // nothing without the `observed` flag).
    if _slowPath(f.contains(.leased)) { maps.leases[Int(s.raw)] = 0 }
    let behavior = rows.behavior[s]
    rows.behavior[s] = BehaviorRef(nil)
    rows.flags[s] = .released
    rows.generation[s] &+= 1
    work.freeSlots.append(s)
    maps.liveRows -= 1
    let id = rows.descriptor[s]
    // A cached slot is trusted only while `descriptor[slot]` still names its descriptor.
    rows.descriptor[s] = -1
    if f.contains(.reaction) {
      endReaction(behavior)
    } else if let held = hold(of: s) {
      releaseHold(held, of: s, id: id)
    } else if let index = maps.keyIndexes[DescriptorKey(id)] {
      index.forget(slot: s, tag: rows.tag[s])
    } else if isPlainSource(f, id: id) {
      releaseHold(nil, of: s, id: id)  // a plain manual state's row (`isUnheld`): it holds nothing
    }
  }

  /// The end of a keyless row's release: its entry in `keylessRows`, if any, goes, and then
  /// its hold on the descriptor's details (none: a plain manual state's), which may go now if
  /// the descriptor went (their teardown does not reach this graph).
  @inline(never) @usableFromInline
  func releaseHold(_ held: Unmanaged<KeylessDetails>?, of s: Slot, id: Int32) {
    setHold(nil, of: s)
    maps.holdCount &-= 1
    if !maps.keylessRows.isEmpty, let i = maps.keylessRows.index(forKey: DescriptorKey(id)),
      maps.keylessRows.values[i] == s.raw
    {
      maps.keylessRows.remove(at: i)
    }
    // The last row of a dropped descriptor: its details may be parked (`descriptorWent`), to
    // be given back now rather than at the next sweep (a chain's sweep frees link by link).
    if let held, KeylessDetails.releaseRow(held) == 0, cog_descriptor_is_dropped(id) != 0 {
      KeylessDetails.releaseParked()
    }
  }
}
