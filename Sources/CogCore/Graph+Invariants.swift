extension Graph {
  /// Verifies the structure: every dependency edge sits in its dependency's subscriber list,
  /// released rows have no edges, no row is left computing, and the store's live edge count
  /// matches the lists. O(rows × subscribers).
  ///
  /// Compiled only with `COG_INTERNAL_CHECKS`; otherwise an empty inlined function.
  @inlinable @inline(__always)
  public func checkInvariants() {
    #if COG_INTERNAL_CHECKS
      _checkInvariants()
    #endif
  }

  @inline(never)
  public func _checkInvariants() {
    var depEdges = 0
    for i in 0..<flags.count {
      let s = Slot(i)
      let f = flags[s]
      precondition(!f.contains(.computing), "row \(s) left computing")
      var e = edges.firstDep(of: s)
      while !e.isNone {
        precondition(!f.contains(.released), "released row \(s) has dependencies")
        precondition(edges.sub(e) == s, "edge \(e) in deps of \(s) names sub \(edges.sub(e))")
        let d = edges.dep(e)
        var found = false
        var x = edges.firstSub(of: d)
        while !x.isNone {
          if x == e { found = true }
          x = edges.nextSub(x)
        }
        precondition(found, "edge \(e) missing from subscribers of \(d)")
        depEdges += 1
        e = edges.nextDep(e)
      }
      if f.contains(.released) {
        precondition(!edges.hasSubscribers(s), "released row \(s) has subscribers")
      }
    }
    precondition(
      depEdges == edges.liveEdgeCount, "edge count \(depEdges) != \(edges.liveEdgeCount)")
  }
}
