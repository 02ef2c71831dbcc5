import CogCore

extension SharedEdgePool {
  /// Every dependency edge names its row as `sub` and sits in its dependency's subscriber
  /// list; every subscriber edge names its row as `dep` and sits in its subscriber's
  /// dependency list, with `prevSub` links agreeing; released rows have no edges; the live
  /// count matches the lists. O(rows × edges per row).
  @usableFromInline package func checkInvariants(rowCount: Int, isReleased: (Slot) -> Bool) {
    var depEdges = 0
    var subEdges = 0
    for i in 0..<rowCount {
      let s = Slot(i)
      var e = depsHead[s]
      while !e.isNone {
        precondition(!isReleased(s), "released row \(s) has dependencies")
        let entry = deps[Int(e.raw)]
        let sub = subs[Int(e.raw)].sub
        precondition(sub == s, "edge \(e) in deps of \(s) names sub \(sub)")
        var x = subsHead[entry.dep]
        var found = false
        while !x.isNone && !found {
          found = x == e
          x = subs[Int(x.raw)].nextSub
        }
        precondition(found, "edge \(e) missing from subscribers of \(entry.dep)")
        depEdges += 1
        e = entry.nextDep
      }
      var previous = EdgeID.none
      var x = subsHead[s]
      while !x.isNone {
        precondition(!isReleased(s), "released row \(s) has subscribers")
        let entry = subs[Int(x.raw)]
        let dep = deps[Int(x.raw)].dep
        precondition(dep == s, "edge \(x) in subs of \(s) names dep \(dep)")
        precondition(
          entry.prevSub == previous, "edge \(x): prevSub \(entry.prevSub) != \(previous)")
        subEdges += 1
        previous = x
        x = entry.nextSub
      }
      precondition(subsTail[s] == previous, "subsTail of \(s) is not its last subscriber")
    }
    precondition(depEdges == liveEdgeCount, "edge count \(depEdges) != \(liveEdgeCount)")
    precondition(subEdges == liveEdgeCount, "subscriber count \(subEdges) != \(liveEdgeCount)")
  }
}
