import CogCore

/// Each row's subscribers as an array in a `BlockPool`, with back-indices both ways (see
/// `DepEntry.subIndex`, `SubEntry.depIndex`): adding is an append, removing a swap with the
/// last entry plus one back-index fix, never a scan (a scan would be quadratic on CellX and
/// on sbench's 1 → 1000 fan-outs). Swap-removal changes subscriber order, so push visits
/// subscribers in no fixed order; the flush sorts its reaction queue by registration anyway.
@frozen @usableFromInline
package struct SubscriberArrays {
  @usableFromInline var heads: RawColumn<ArrayHead>
  @usableFromInline var pool: BlockPool<SubEntry>

  @inlinable package init(reservingRows rows: Int) {
    heads = RawColumn(capacity: rows)
    pool = BlockPool(capacity: initialEdgeCapacity)
  }

  @usableFromInline package func free() {
    heads.free()
    pool.release()
  }

  @inlinable @inline(__always) package mutating func ensureRows(_ count: Int) {
    heads.extendRows(to: count, with: ArrayHead())
  }

  @inlinable @inline(__always) package func count(of dep: Slot) -> Int32 { heads[dep].count }

  @inlinable @inline(__always) package func entry(of dep: Slot, at j: Int32) -> SubEntry {
    pool[heads[dep].start + j]
  }

  /// Adds `sub` (whose dependency entry sits at `depIndex`) to `dep`'s subscribers; returns
  /// its position there.
  @inlinable
  package mutating func add(_ sub: Slot, depIndex: Int32, to dep: Slot) -> Int32 {
    var head = heads[dep]
    pool.reserveOne(&head, filler: .empty)
    let j = head.count
    pool[head.start + j] = SubEntry(sub: sub, depIndex: depIndex)
    head.count += 1
    heads[dep] = head
    return j
  }

  /// Removes the entry at `j` of `dep`'s subscribers by moving the last one there; returns the
  /// moved entry (for its owner's back-index fix) if one moved. Appends `dep` to `orphaned`
  /// when it loses its last subscriber.
  @inlinable
  package mutating func remove(at j: Int32, of dep: Slot, orphaned: inout OrphanQueue)
    -> (moved: SubEntry, to: Int32)?
  {
    var head = heads[dep]
    let last = head.count - 1
    var moved: (SubEntry, Int32)? = nil
    if j != last {
      let e = pool[head.start + last]
      pool[head.start + j] = e
      moved = (e, j)
    }
    head.count = last
    // The block is kept: a row that loses and regains subscribers (a flipping dependency)
    // reuses it.
    if last == 0 { orphaned.appendOutOfLine(dep) }
    heads[dep] = head
    return moved
  }

  @usableFromInline package var reservedBytes: Int {
    heads.capacity * MemoryLayout<ArrayHead>.stride + pool.reservedBytes
  }
}
