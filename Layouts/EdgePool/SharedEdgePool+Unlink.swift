import CogCore

extension SharedEdgePool {
  /// Inline fast path: a run that read its old dependencies again leaves nothing to drop.
  @inlinable @inline(__always)
  package mutating func endRun(_ run: Run, sub: Slot, orphaned: inout OrphanQueue) {
    if run.next.isNone { return }
    dropTail(sub: sub, cursor: run.cursor, orphaned: &orphaned)
  }

  @inline(never) @usableFromInline
  mutating func dropTail(sub: Slot, cursor: EdgeID, orphaned: inout OrphanQueue) {
    var stale: EdgeID
    if cursor.isNone {
      stale = depsHead[sub]
      depsHead[sub] = .none
    } else {
      stale = deps[Int(cursor.raw)].nextDep
      deps[Int(cursor.raw)].nextDep = .none
    }
    while !stale.isNone {
      let next = deps[Int(stale.raw)].nextDep
      unlinkFromSubscribers(stale, orphaned: &orphaned)
      stale = next
    }
  }

  @inlinable
  package mutating func removeAllDeps(of sub: Slot, orphaned: inout OrphanQueue) {
    if depsHead[sub].isNone { return }
    dropTail(sub: sub, cursor: .none, orphaned: &orphaned)
  }

  /// Takes `e` out of its dependency's subscriber list and puts it on the free list. Inlined
  /// into `dropTail`, its one caller (the orphan queue's test made the optimizer call it).
  @usableFromInline @inline(__always)
  mutating func unlinkFromSubscribers(_ e: EdgeID, orphaned: inout OrphanQueue) {
    let dep = deps[Int(e.raw)].dep
    let link = subs[Int(e.raw)]
    if link.prevSub.isNone {
      subsHead[dep] = link.nextSub
    } else {
      subs[Int(link.prevSub.raw)].nextSub = link.nextSub
    }
    if link.nextSub.isNone {
      subsTail[dep] = link.prevSub
    } else {
      subs[Int(link.nextSub.raw)].prevSub = link.prevSub
    }
    if subsHead[dep].isNone { orphaned.append(dep) }
    deps[Int(e.raw)].nextDep = freeHead
    deps[Int(e.raw)].dep = .none
    subs[Int(e.raw)].sub = .none
    freeHead = e
    liveEdgeCount &-= 1
  }
}
