import CogCore

/// Variable-length per-row arrays carved out of one buffer in power-of-two blocks, with a free
/// list per block size: a row's array grows by moving to the next size (copying its entries),
/// and a freed block is reused by the next array of that size. No allocation per row; a steady
/// run, which neither grows nor shrinks arrays, touches no free list.
@frozen @usableFromInline
package struct BlockPool<Entry> {
  @usableFromInline package var storage: RawColumn<Entry>
  /// Free block starts, by size class (`1 << class` entries).
  @usableFromInline package var free: RawColumn<RawColumn<Int32>>

  @inlinable package init(capacity: Int) {
    storage = RawColumn(capacity: Swift.max(capacity, 16))
    free = RawColumn(capacity: BlockPool.classes)
    for _ in 0..<BlockPool.classes { free.append(RawColumn(capacity: 4)) }
  }

  /// Size classes: blocks of 1, 2, 4, … 2^31 entries.
  @inlinable static var classes: Int { 32 }

  @usableFromInline package func release() {
    storage.free()
    for i in 0..<free.count { free[i].free() }
    free.free()
  }

  // Safety: unchecked, in debug too: callers pass `head.start + p` with `p < head.capacity`
  // (`reserveOne`), and every block (`allocate`d, or reused from `free`) is within `storage.count`.
  @inlinable package subscript(i: Int32) -> Entry {
    @inline(__always) unsafeAddress { UnsafePointer(storage.base + Int(i)) }
    @inline(__always) nonmutating unsafeMutableAddress { storage.base + Int(i) }
  }

  /// A block of `1 << k` entries (filled with `filler` when new); returns its start.
  @inlinable @inline(never)
  package mutating func allocate(sizeClass k: Int32, filler: Entry) -> Int32 {
    if free[Int(k)].count > 0 { return free[Int(k)].removeLast() }
    let start = Int32(truncatingIfNeeded: storage.count)
    storage.extend(to: storage.count + (1 << Int(k)), with: filler)
    return start
  }

  @inlinable
  package mutating func free(start: Int32, sizeClass k: Int32) {
    free[Int(k)].append(start)
  }

  /// Bytes reserved (entries and free lists), for memory reports.
  @usableFromInline package var reservedBytes: Int {
    var n = storage.capacity * MemoryLayout<Entry>.stride
    for i in 0..<free.count { n += free[i].capacity * MemoryLayout<Int32>.stride }
    return n
  }
}

/// Where a row's array lives in a `BlockPool`: its first entry, its length, and its block's
/// size class (`-1`: no block yet).
@frozen @usableFromInline
package struct ArrayHead {
  @usableFromInline package var start: Int32
  @usableFromInline package var count: Int32
  @usableFromInline package var sizeClass: Int32
  @inlinable package init() {
    start = 0
    count = 0
    sizeClass = -1
  }
  @inlinable package var capacity: Int32 { sizeClass < 0 ? 0 : 1 << sizeClass }
}

extension BlockPool {
  /// Makes room in `head`'s array for one more entry, moving it to a larger block if full.
  @inlinable @inline(__always)
  package mutating func reserveOne(_ head: inout ArrayHead, filler: Entry) {
    if head.count < head.capacity { return }
    grow(&head, filler: filler)
  }

  @inlinable @inline(never)
  package mutating func grow(_ head: inout ArrayHead, filler: Entry) {
    let k = head.sizeClass + 1
    let start = allocate(sizeClass: k, filler: filler)
    if head.count > 0 {
      (storage.base + Int(start)).update(
        from: storage.base + Int(head.start), count: Int(head.count))
    }
    if head.sizeClass >= 0 { free(start: head.start, sizeClass: head.sizeClass) }
    head.start = start
    head.sizeClass = k
  }

  /// Gives `head`'s block back (the array becomes empty, with no block).
  @inlinable
  package mutating func clear(_ head: inout ArrayHead) {
    if head.sizeClass >= 0 { free(start: head.start, sizeClass: head.sizeClass) }
    head = ArrayHead()
  }
}
