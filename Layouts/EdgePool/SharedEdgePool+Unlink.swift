import CogCore

extension SharedEdgePool {
  /// Inline fast path: a run that read its old dependencies again leaves nothing to drop.
  @inlinable @inline(__always)
  package mutating func endRun(_ run: Run, sub: Slot, orphaned: inout RawColumn<Slot>) {
    if run.next.isNone { return }
    dropTail(sub: sub, cursor: run.cursor, orphaned: &orphaned)
  }

  @inline(never) @usableFromInline
  mutating func dropTail(sub: Slot, cursor: EdgeID, orphaned: inout RawColumn<Slot>) {
    var stale: EdgeID
    if cursor.isNone {
      stale = depsHead[sub]
      depsHead[sub] = .none
    } else {
      stale = edges[Int(cursor.raw)].nextDep
      edges[Int(cursor.raw)].nextDep = .none
    }
    while !stale.isNone {
      let next = edges[Int(stale.raw)].nextDep
      unlinkFromSubscribers(stale, orphaned: &orphaned)
      stale = next
    }
  }

  @inlinable
  package mutating func removeAllDeps(of sub: Slot, orphaned: inout RawColumn<Slot>) {
    if depsHead[sub].isNone { return }
    dropTail(sub: sub, cursor: .none, orphaned: &orphaned)
  }

  /// Takes `e` out of its dependency's subscriber list and puts it on the free list.
  @usableFromInline
  mutating func unlinkFromSubscribers(_ e: EdgeID, orphaned: inout RawColumn<Slot>) {
    let entry = edges[Int(e.raw)]
    if entry.prevSub.isNone {
      subsHead[entry.dep] = entry.nextSub
    } else {
      edges[Int(entry.prevSub.raw)].nextSub = entry.nextSub
    }
    if entry.nextSub.isNone {
      subsTail[entry.dep] = entry.prevSub
    } else {
      edges[Int(entry.nextSub.raw)].prevSub = entry.prevSub
    }
    if subsHead[entry.dep].isNone { orphaned.append(entry.dep) }
    edges[Int(e.raw)].nextDep = freeHead
    edges[Int(e.raw)].dep = .none
    edges[Int(e.raw)].sub = .none
    freeHead = e
    liveEdgeCount &-= 1
  }
}
