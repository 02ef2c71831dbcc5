import CogCore
import CogLayoutSupport

/// Per-row dependency arrays with prefix reuse (Reactively): each row's dependencies are one
/// array in a shared block pool (see `BlockPool`), compared in order with each run's reads.
/// Tracking, subscribers and unlinking are the shared prefix-reuse engine's
/// (`PrefixReuseEdges`); this layout is its dependency storage.
@usableFromInline package typealias PrefixArrays = PrefixReuseEdges<ArrayDeps>

/// Dependency lists as block-pool arrays: a row's entries are contiguous, reached through one
/// head (start, count, size class).
@frozen @usableFromInline
package struct ArrayDeps: DependencyLists {
  @usableFromInline var heads: RawColumn<ArrayHead>
  @usableFromInline var pool: BlockPool<DepEntry>

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

  @inlinable @inline(__always) package func count(of sub: Slot) -> Int32 { heads[sub].count }
  @inlinable @inline(__always) package func dep(of sub: Slot, at p: Int32) -> Slot {
    pool[heads[sub].start + p].dep
  }
  @inlinable @inline(__always) package func version(of sub: Slot, at p: Int32) -> UInt32 {
    pool[heads[sub].start + p].version
  }
  @inlinable @inline(__always) package func subIndex(of sub: Slot, at p: Int32) -> Int32 {
    pool[heads[sub].start + p].subIndex
  }
  @inlinable @inline(__always)
  package mutating func setVersion(of sub: Slot, at p: Int32, _ v: UInt32) {
    pool[heads[sub].start + p].version = v
  }
  @inlinable @inline(__always)
  package mutating func setSubIndex(of sub: Slot, at p: Int32, _ j: Int32) {
    pool[heads[sub].start + p].subIndex = j
  }
  @inlinable
  package mutating func append(_ e: DepEntry, to sub: Slot) {
    var head = heads[sub]
    pool.reserveOne(&head, filler: .empty)
    pool[head.start + head.count] = e
    head.count += 1
    heads[sub] = head
  }
  @inlinable
  package mutating func truncate(_ sub: Slot, to n: Int32) { heads[sub].count = n }

  @usableFromInline package var reservedBytes: Int {
    heads.capacity * MemoryLayout<ArrayHead>.stride + pool.reservedBytes
  }
}
