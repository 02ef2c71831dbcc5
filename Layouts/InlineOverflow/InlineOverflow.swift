import CogCore
import CogLayoutSupport

/// Inline first dependencies plus overflow (Jane Street Incremental's common-case layout):
/// each row's first `N` dependencies sit in a fixed-size record of its own, the rest in an
/// array in a side pool. Tracking, subscribers and unlinking are the shared prefix-reuse
/// engine's (`PrefixReuseEdges`); this layout is its dependency storage. The workbench measures
/// `N = 2`, the cheapest of 2, 3 and 4 (swift/0003-edge-layouts.md).
@usableFromInline package typealias InlineOverflow<let N: Int> = PrefixReuseEdges<InlineDeps<N>>

/// A row's record: its first `N` dependencies, its dependency count, and where the rest live.
/// `inline` is the first field, at offset 0 (checked in `init(reservingRows:)`), so that entry
/// `p` of a record is at `record + p` entries.
@frozen @usableFromInline
package struct InlineRecord<let N: Int> {
  @usableFromInline package var inline: InlineArray<N, DepEntry>
  @usableFromInline package var count: Int32
  @usableFromInline package var overflow: ArrayHead
  @inlinable package init() {
    inline = InlineArray(repeating: .empty)
    count = 0
    overflow = ArrayHead()
  }
}

/// Dependency lists stored as `InlineRecord`s: position `p < N` is inline, `p ≥ N` is entry
/// `p - N` of the overflow array.
@frozen @usableFromInline
package struct InlineDeps<let N: Int>: DependencyLists {
  @usableFromInline var records: RawColumn<InlineRecord<N>>
  @usableFromInline var pool: BlockPool<DepEntry>

  @inlinable package init(reservingRows rows: Int) {
    records = RawColumn(capacity: rows)
    pool = BlockPool(capacity: 16)
    assert(MemoryLayout<InlineRecord<N>>.offset(of: \InlineRecord<N>.inline) == 0)
  }

  @usableFromInline package func free() {
    records.free()
    pool.release()
  }

  // Not forced inline, unlike the other layouts' `ensureRows`: a record is large, and forced,
  // it cost every first read that reuses a slot 8 instructions (impl/perf-notes.md, "Stop 52").
  @inlinable package mutating func ensureRows(_ count: Int) {
    records.extendRows(to: count, with: InlineRecord())
  }

  @inlinable @inline(__always) package func count(of sub: Slot) -> Int32 { records[sub].count }

  @inlinable @inline(__always)
  func entry(of sub: Slot, at p: Int32) -> UnsafeMutablePointer<DepEntry> {
    if p < N {
      // Safety: `inline` is at offset 0 and an `InlineArray` is contiguous, so entry `p < N` is
      // at `record + p`; the record's memory, bound to `InlineRecord`, holds `DepEntry`s there.
      return UnsafeMutableRawPointer(records.base + sub.index).assumingMemoryBound(
        to: DepEntry.self) + Int(p)
    }
    return pool.storage.base + Int(records[sub].overflow.start + p - Int32(N))
  }

  @inlinable @inline(__always) package func dep(of sub: Slot, at p: Int32) -> Slot {
    entry(of: sub, at: p).pointee.dep
  }
  @inlinable @inline(__always) package func version(of sub: Slot, at p: Int32) -> UInt32 {
    entry(of: sub, at: p).pointee.version
  }
  @inlinable @inline(__always) package func subIndex(of sub: Slot, at p: Int32) -> Int32 {
    entry(of: sub, at: p).pointee.subIndex
  }
  @inlinable @inline(__always)
  package mutating func setVersion(of sub: Slot, at p: Int32, _ v: UInt32) {
    entry(of: sub, at: p).pointee.version = v
  }
  @inlinable @inline(__always)
  package mutating func setSubIndex(of sub: Slot, at p: Int32, _ j: Int32) {
    entry(of: sub, at: p).pointee.subIndex = j
  }
  @inlinable
  package mutating func append(_ e: DepEntry, to sub: Slot) {
    let p = records[sub].count
    if p >= N {
      var head = records[sub].overflow
      pool.reserveOne(&head, filler: .empty)
      head.count += 1
      records[sub].overflow = head
    }
    records[sub].count = p + 1
    entry(of: sub, at: p).pointee = e
  }
  @inlinable
  package mutating func truncate(_ sub: Slot, to n: Int32) {
    records[sub].count = n
    records[sub].overflow.count = Swift.max(0, n - Int32(N))
  }

  @usableFromInline package var reservedBytes: Int {
    records.capacity * MemoryLayout<InlineRecord<N>>.stride + pool.reservedBytes
  }
}
