import CogCore

/// The shared linked edge pool: alien-signals' link as a 24-byte indexed entry that sits in both
/// the producer's subscriber list (doubly linked) and the consumer's dependency list (singly
/// linked), with a free list. Indices instead of object references keep ARC and weak loads out
/// of propagation; cursor reuse (`track`) makes a steady run allocate and hash nothing.
@frozen
public struct SharedEdgePool: EdgeStore {
  /// One pool entry. Its size is part of the design (24 bytes, checked in the tests).
  @frozen
  public struct Edge {
    public var dep: Slot
    public var sub: Slot
    public var prevSub: EdgeID
    public var nextSub: EdgeID
    /// Next dependency of `sub`; for a free entry, the next free entry.
    public var nextDep: EdgeID
    public var version: UInt32

    @inlinable init(
      dep: Slot, sub: Slot, prevSub: EdgeID, nextSub: EdgeID, nextDep: EdgeID, version: UInt32
    ) {
      self.dep = dep
      self.sub = sub
      self.prevSub = prevSub
      self.nextSub = nextSub
      self.nextDep = nextDep
      self.version = version
    }
  }

  @usableFromInline var edges: RawColumn<Edge>
  @usableFromInline var depsHead: RawColumn<EdgeID>
  @usableFromInline var subsHead: RawColumn<EdgeID>
  @usableFromInline var subsTail: RawColumn<EdgeID>
  @usableFromInline var freeHead: EdgeID
  public var liveEdgeCount: Int

  @inlinable public init() {
    edges = RawColumn(capacity: 64)
    depsHead = RawColumn(capacity: 64)
    subsHead = RawColumn(capacity: 64)
    subsTail = RawColumn(capacity: 64)
    freeHead = .none
    liveEdgeCount = 0
  }

  public func free() {
    edges.free()
    depsHead.free()
    subsHead.free()
    subsTail.free()
  }

  @inlinable public mutating func ensureSlots(_ count: Int) {
    guard count > depsHead.count else { return }
    depsHead.extend(to: count, with: .none)
    subsHead.extend(to: count, with: .none)
    subsTail.extend(to: count, with: .none)
  }

  @inlinable @inline(__always) public func firstDep(of sub: Slot) -> EdgeID { depsHead[sub] }
  @inlinable @inline(__always) public func nextDep(_ e: EdgeID) -> EdgeID {
    edges[Int(e.raw)].nextDep
  }
  @inlinable @inline(__always) public func dep(_ e: EdgeID) -> Slot { edges[Int(e.raw)].dep }
  @inlinable @inline(__always) public func version(_ e: EdgeID) -> UInt32 {
    edges[Int(e.raw)].version
  }
  @inlinable @inline(__always) public func firstSub(of dep: Slot) -> EdgeID { subsHead[dep] }
  @inlinable @inline(__always) public func nextSub(_ e: EdgeID) -> EdgeID {
    edges[Int(e.raw)].nextSub
  }
  @inlinable @inline(__always) public func sub(_ e: EdgeID) -> Slot { edges[Int(e.raw)].sub }
  @inlinable @inline(__always) public func hasSubscribers(_ dep: Slot) -> Bool {
    !subsHead[dep].isNone
  }

  @inlinable @inline(__always)
  public func nextCandidate(of sub: Slot, after cursor: EdgeID) -> EdgeID {
    cursor.isNone ? depsHead[sub] : edges[Int(cursor.raw)].nextDep
  }

  @inlinable @inline(__always)
  public mutating func confirm(_ e: EdgeID, version: UInt32) {
    edges[Int(e.raw)].version = version
  }
}
