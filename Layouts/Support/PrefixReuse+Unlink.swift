import CogCore

extension PrefixReuseEdges {
  /// Drops what the run did not read again and swaps in what it collected. Inline fast path:
  /// a run that confirmed its whole old list leaves nothing to do.
  @inlinable @inline(__always)
  package mutating func endRun(_ run: Run, sub: Slot, orphaned: inout OrphanQueue) {
    if run.collectStart < 0 && run.index == deps.count(of: sub) { return }
    swapTail(run, sub: sub, orphaned: &orphaned)
  }

  @inlinable @inline(never)
  package mutating func swapTail(_ run: Run, sub: Slot, orphaned: inout OrphanQueue) {
    dropTail(of: sub, from: run.index, orphaned: &orphaned)
    if run.collectStart < 0 { return }
    var i = Int(run.collectStart)
    while i < collected.count {
      let (d, v) = collected[i]
      let p = deps.count(of: sub)
      let j = subs.add(sub, depIndex: p, to: d)
      deps.append(DepEntry(dep: d, version: v, subIndex: j), to: sub)
      liveEdgeCount &+= 1
      i += 1
    }
    collected.removeLast(collected.count - Int(run.collectStart))
  }

  /// Unsubscribes `sub` from its dependencies at positions `n...` and truncates its list.
  @inlinable
  package mutating func dropTail(of sub: Slot, from n: Int32, orphaned: inout OrphanQueue) {
    var p = deps.count(of: sub) - 1
    while p >= n {
      let d = deps.dep(of: sub, at: p)
      let j = deps.subIndex(of: sub, at: p)
      if let (moved, to) = subs.remove(at: j, of: d, orphaned: &orphaned) {
        deps.setSubIndex(of: moved.sub, at: moved.depIndex, to)
      }
      liveEdgeCount &-= 1
      p -= 1
    }
    deps.truncate(sub, to: n)
  }

  @inlinable
  package mutating func removeAllDeps(of sub: Slot, orphaned: inout OrphanQueue) {
    if deps.count(of: sub) == 0 { return }
    dropTail(of: sub, from: 0, orphaned: &orphaned)
  }
}
