extension Graph {
  /// The typed column for `Value` in this context, created on first use (cold).
  @inlinable @inline(__always)
  public func column<Value>(_ typeIndex: Int32, as: Value.Type) -> ValueColumn<Value> {
    let i = Int(typeIndex)
    if i < columns.count, let c = columns[i] {
      return unsafeDowncast(c, to: ValueColumn<Value>.self)
    }
    return makeColumn(typeIndex, as: Value.self)
  }

  @inline(never) @usableFromInline
  func makeColumn<Value>(_ typeIndex: Int32, as: Value.Type) -> ValueColumn<Value> {
    let i = Int(typeIndex)
    while columns.count <= i { columns.append(nil) }
    let c = ValueColumn<Value>()
    columns[i] = c
    valueBase.extend(to: i + 1, with: nil)
    valueBase[i] = UnsafeMutableRawPointer(c.values.base)
    return c
  }

  /// A value pair for a new row in the typed column of `typeIndex` (cold: once per row).
  public func allocateValuePair<Value>(_ typeIndex: Int32, initial: Value?) -> Int32 {
    let c = column(typeIndex, as: Value.self)
    let pair = c.allocatePair(initial: initial)
    valueBase[Int(typeIndex)] = UnsafeMutableRawPointer(c.values.base)
    return pair
  }

  /// The value entry `index` of the typed column `typeIndex`, read and written in place. The
  /// hot path of every read: two loads, no class access, no reference counting.
  @inlinable @inline(__always)
  public func valuePointer<Value>(_ typeIndex: Int32, _ index: Int32, as: Value.Type)
    -> UnsafeMutablePointer<Value?>
  {
    valueBase[Int(typeIndex)].unsafelyUnwrapped.assumingMemoryBound(to: Value?.self)
      + Int(index)
  }

  /// Registers `owner` as the per-context record of descriptor `id` (cold).
  public func setOwner(_ owner: RowOwner, for id: Int32) { owners[id] = owner }

  public func owner(of id: Int32) -> RowOwner? { owners[id] }

  /// Registers the per-context key index of keyed descriptor `id` (cold).
  public func setKeyIndex(_ index: KeyedRowIndex, for id: Int32) { keyIndexes[id] = index }

  public func keyIndex(of id: Int32) -> KeyedRowIndex? { keyIndexes[id] }

  /// The row of keyless descriptor `id`, or `.none` (cold: descriptors cache it).
  public func slot(ofDescriptor id: Int32) -> Slot {
    if let raw = keylessSlots[id] { return Slot(raw) }
    return .none
  }

  public func setSlot(_ s: Slot, ofDescriptor id: Int32) { keylessSlots[id] = s.raw }

  /// Identifies this context in descriptor caches (a serial, never reused).
  @inlinable public var identity: Int { serial }

  /// Adds a row. Running rows (`.computed`, `.reaction`) start dirty so their first read runs
  /// them. Reuses a released slot (its generation was bumped on release).
  public func allocateRow(
    kind: StateFlags, descriptor id: Int32, typeIndex ti: Int32, valueIndex vi: Int32,
    behavior b: RowBehavior<Edges>?, lifetime l: RowLifetime, key: AnyHashable?
  ) -> Slot {
    var f = kind
    if !kind.isDisjoint(with: .runs) { f.insert(.dirty) } else { f.insert(.hasValue) }
    let unmanaged = BehaviorRef(b)
    let s: Slot
    if freeSlots.count > 0 {
      s = freeSlots.removeLast()
      flags[s] = f
      changedAt[s] = revision
      boundary[s] = -1
      valueIndex[s] = vi
      typeIndex[s] = ti
      descriptor[s] = id
      behavior[s] = unmanaged
      lifetime[s] = l
      leases[s] = 0
      order[s] = 0
      keyOf[s] = key
    } else {
      s = Slot(flags.count)
      flags.append(f)
      changedAt.append(revision)
      runParent.append(.none)
      runFrame.append(0)
      generation.append(0)
      boundary.append(-1)
      valueIndex.append(vi)
      typeIndex.append(ti)
      descriptor.append(id)
      behavior.append(unmanaged)
      lifetime.append(l)
      leases.append(0)
      order.append(0)
      keyOf.append(key)
      edges.ensureSlots(flags.count)
    }
    if kind.contains(.reaction) {
      order[s] = nextOrder
      nextOrder &+= 1
    }
    liveRows += 1
    return s
  }

  /// The row's current reference (slot and generation).
  @inlinable public func ref(_ s: Slot) -> SlotRef { SlotRef(slot: s, generation: generation[s]) }

  /// Traps when `r` names a row that has since been released (and maybe reused). Compiled in
  /// debug builds and under `COG_INTERNAL_CHECKS`; free otherwise.
  @inlinable @inline(__always) public func checkLive(_ r: SlotRef) {
    #if DEBUG || COG_INTERNAL_CHECKS
      if generation[r.slot] != r.generation || flags[r.slot].contains(.released) {
        staleSlot(r)
      }
    #endif
  }

  @inline(never) @usableFromInline func staleSlot(_ r: SlotRef) -> Never {
    preconditionFailure(
      "Cog: stale internal slot \(r): row \(r.slot) is now at generation \(generation[r.slot])")
  }

  /// Releases a row: drops its value and edges, tells its owner, bumps its generation and
  /// frees the slot. A row whose body is running is released when the operation ends. A
  /// reaction's owner (which holds its body) goes with it.
  public func release(_ s: Slot) {
    let f = flags[s]
    if f.contains(.released) { return }
    if f.contains(.computing) || !isIdle {
      deferredRelease.append(ref(s))
      return
    }
    if f.contains(.cached) { uncache(s) }
    edges.removeAllDeps(of: s, orphaned: &orphaned)
    let ti = typeIndex[s]
    if ti >= 0, Int(ti) < columns.count, let c = columns[Int(ti)] {
      c.drop(pair: valueIndex[s] & ~1)
    }
    let key = keyOf[s]
    keyOf[s] = nil
    behavior[s] = BehaviorRef(nil)
    flags[s] = .released
    generation[s] &+= 1
    freeSlots.append(s)
    liveRows -= 1
    let id = descriptor[s]
    // A cached slot is trusted only while `descriptor[slot]` still names its descriptor.
    descriptor[s] = -1
    if f.contains(.reaction) {
      owners[id] = nil
    } else if let key {
      keyIndexes[id]?.forget(key: key, slot: s)
    } else if keylessSlots[id] == s.raw {
      keylessSlots[id] = nil
    }
  }
}
