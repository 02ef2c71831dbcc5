import CogCore

/// The shared linked edge pool: alien-signals' link as an indexed entry that sits in both
/// the producer's subscriber list (doubly linked) and the consumer's dependency list (singly
/// linked), with a free list; each entry is two 12-byte halves in two columns, one per list.
/// Indices instead of object references keep ARC and weak loads out of propagation; a run's
/// cursor reuses the edges of the previous run in order, so a steady run allocates and hashes
/// nothing.
///
/// Positions are entry indices (`EdgeID`) in both lists; a run holds the last edge it confirmed
/// and the next candidate (see `SharedEdgePool+Track.swift`).
@frozen @usableFromInline
package struct SharedEdgePool: EdgeStore {
  /// An entry's pull half: what a pull, a scan and a run's tracking read (the consumer's
  /// dependency list). Entry `e` of the pool is `deps[e]` and `subs[e]`: a turn's push reads
  /// only the push halves and its pull only these, so each streams 12 bytes an edge instead
  /// of 24 (CellX at 5,000 layers: the pull's stream evicted the edges the push had loaded).
  @frozen @usableFromInline
  package struct DepLink {
    @usableFromInline package var dep: Slot
    /// Next dependency of the entry's row; for a free entry, the next free entry.
    @usableFromInline package var nextDep: EdgeID
    @usableFromInline package var version: UInt32

    @inlinable init(dep: Slot, nextDep: EdgeID, version: UInt32) {
      self.dep = dep
      self.nextDep = nextDep
      self.version = version
    }
  }

  /// An entry's push half: the producer's subscriber list (doubly linked).
  @frozen @usableFromInline
  package struct SubLink {
    @usableFromInline package var sub: Slot
    @usableFromInline package var prevSub: EdgeID
    @usableFromInline package var nextSub: EdgeID

    @inlinable init(sub: Slot, prevSub: EdgeID, nextSub: EdgeID) {
      self.sub = sub
      self.prevSub = prevSub
      self.nextSub = nextSub
    }
  }

  /// A run's place in its row's dependency list: the edge it confirmed or inserted last
  /// (`.none` before its first read) and the next edge of the previous run (the candidate).
  @frozen @usableFromInline
  package struct Run {
    @usableFromInline package var cursor: EdgeID
    @usableFromInline package var next: EdgeID
    @inlinable init(cursor: EdgeID, next: EdgeID) {
      self.cursor = cursor
      self.next = next
    }
  }

  /// The pull halves of the entries (see `DepLink`); `subs` has the same count.
  @usableFromInline var deps: RawColumn<DepLink>
  @usableFromInline var subs: RawColumn<SubLink>
  @usableFromInline var depsHead: RawColumn<EdgeID>
  @usableFromInline var subsHead: RawColumn<EdgeID>
  @usableFromInline var subsTail: RawColumn<EdgeID>
  @usableFromInline var freeHead: EdgeID
  @usableFromInline package var liveEdgeCount: Int

  @inlinable package init(reservingRows rows: Int) {
    deps = RawColumn(capacity: initialEdgeCapacity)
    subs = RawColumn(capacity: initialEdgeCapacity)
    depsHead = RawColumn(capacity: rows)
    subsHead = RawColumn(capacity: rows)
    subsTail = RawColumn(capacity: rows)
    freeHead = .none
    liveEdgeCount = 0
  }

  @usableFromInline package func free() {
    deps.free()
    subs.free()
    depsHead.free()
    subsHead.free()
    subsTail.free()
  }

  /// The three heads are made with one capacity and extended only here, together, so their
  /// counts and capacities are equal (`reservedBytes` counts on it too): a new row is one
  /// test and three stores (extended one column at a time, with a call of `memset` each, a
  /// fresh state's first read in a new context cost 80 instructions more: impl/perf-notes.md,
  /// "Stop 51"). Always inlined into that read, as `RowColumns.appendRow` (its call was 21
  /// instructions a fresh read: "Stop 52").
  @inlinable @inline(__always) package mutating func ensureRows(_ count: Int) {
    let n = depsHead.count
    guard count > n else { return }
    #if DEBUG || COG_INTERNAL_CHECKS
      checkHeadsInStep()
    #endif
    if _fastPath(count == n &+ 1 && n < depsHead.capacity) {
      (depsHead.base + n).initialize(to: .none)
      (subsHead.base + n).initialize(to: .none)
      (subsTail.base + n).initialize(to: .none)
      depsHead.count = count
      subsHead.count = count
      subsTail.count = count
    } else {
      extendHeads(to: count)
    }
  }

  @inline(never) @usableFromInline
  mutating func extendHeads(to count: Int) {
    depsHead.extend(to: count, with: .none)
    subsHead.extend(to: count, with: .none)
    subsTail.extend(to: count, with: .none)
  }

  /// Stops the program if the three heads' counts or capacities differ (internal checks).
  @inline(never) @usableFromInline
  func checkHeadsInStep() {
    if subsHead.count != depsHead.count || subsTail.count != depsHead.count
      || subsHead.capacity != depsHead.capacity || subsTail.capacity != depsHead.capacity
    {
      fatalError(
        "Cog internal check: the edge pool's row heads are out of step: "
          + "\([depsHead.count, subsHead.count, subsTail.count]), "
          + "\([depsHead.capacity, subsHead.capacity, subsTail.capacity])")
    }
  }

  @usableFromInline package var reservedBytes: Int {
    deps.capacity * MemoryLayout<DepLink>.stride + subs.capacity * MemoryLayout<SubLink>.stride
      + depsHead.capacity * MemoryLayout<EdgeID>.stride * 3
  }

  // MARK: Pull

  @inlinable @inline(__always) package func firstDep(of sub: Slot) -> EdgeID { depsHead[sub] }
  @inlinable @inline(__always) package func nextDep(of sub: Slot, after p: EdgeID) -> EdgeID {
    deps[Int(p.raw)].nextDep
  }
  @inlinable @inline(__always) package func dep(of sub: Slot, at p: EdgeID) -> Slot {
    deps[Int(p.raw)].dep
  }
  @inlinable @inline(__always) package func version(of sub: Slot, at p: EdgeID) -> UInt32 {
    deps[Int(p.raw)].version
  }

  // MARK: Push

  @inlinable @inline(__always) package func firstSub(of dep: Slot) -> EdgeID { subsHead[dep] }
  @inlinable @inline(__always) package func nextSub(of dep: Slot, after p: EdgeID) -> EdgeID {
    subs[Int(p.raw)].nextSub
  }
  @inlinable @inline(__always) package func sub(of dep: Slot, at p: EdgeID) -> Slot {
    subs[Int(p.raw)].sub
  }
  @inlinable @inline(__always) package func hasSubscribers(_ dep: Slot) -> Bool {
    !subsHead[dep].isNone
  }
}
