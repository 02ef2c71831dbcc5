import CogCore

extension PrefixReuseEdges {
  /// Every dependency entry's back-index names a subscriber entry that points back at it, and
  /// every subscriber entry's back-index names a dependency entry that points back at it;
  /// released rows have no edges; the live count matches; no run's collection is left over.
  @usableFromInline package func checkInvariants(rowCount: Int, isReleased: (Slot) -> Bool) {
    var depEdges = 0
    var subEdges = 0
    for i in 0..<rowCount {
      let s = Slot(i)
      let n = deps.count(of: s)
      precondition(n == 0 || !isReleased(s), "released row \(s) has dependencies")
      for p in 0..<n {
        let d = deps.dep(of: s, at: p)
        let j = deps.subIndex(of: s, at: p)
        precondition(j >= 0 && j < subs.count(of: d), "\(s) dep \(p): bad subscriber index \(j)")
        let e = subs.entry(of: d, at: j)
        precondition(e.sub == s && e.depIndex == p, "\(s) dep \(p): back-index mismatch")
        depEdges += 1
      }
      let m = subs.count(of: s)
      precondition(m == 0 || !isReleased(s), "released row \(s) has subscribers")
      for j in 0..<m {
        let e = subs.entry(of: s, at: j)
        precondition(
          e.depIndex >= 0 && e.depIndex < deps.count(of: e.sub)
            && deps.dep(of: e.sub, at: e.depIndex) == s
            && deps.subIndex(of: e.sub, at: e.depIndex) == j,
          "\(s) sub \(j): back-index mismatch")
        subEdges += 1
      }
    }
    precondition(depEdges == liveEdgeCount, "edge count \(depEdges) != \(liveEdgeCount)")
    precondition(subEdges == liveEdgeCount, "subscriber count \(subEdges) != \(liveEdgeCount)")
    precondition(collected.count == 0, "\(collected.count) collected reads left after the runs")
  }
}
