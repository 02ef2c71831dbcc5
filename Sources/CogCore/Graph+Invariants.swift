extension Graph {
  /// Verifies the structure: no row is left computing or being checked, no nested run is
  /// left on its stack, released rows have no edges and no hold, the count of held rows,
  /// every `keylessRows` entry names a live row of its descriptor, a row is `leased` exactly
  /// when it has leases and `observed` exactly when it has a boundary, and the edge store's
  /// own structure (each layout checks its own: `EdgeStore.checkInvariants`).
  ///
  /// Compiled only with `COG_INTERNAL_CHECKS`; otherwise an empty inlined function.
  @inlinable @inline(__always)
  package func checkInvariants() {
    #if COG_INTERNAL_CHECKS
      _checkInvariants()
    #endif
  }

  @inline(never) @usableFromInline
  func _checkInvariants() {
    precondition(work.nestedRuns.count == 0, "\(work.nestedRuns.count) nested runs left")
    var held = 0
    for i in 0..<rows.count {
      let f = rows.flags[Slot(i)]
      precondition(!f.contains(.computing), "row s\(i) left computing")
      precondition(!f.contains(.visiting), "row s\(i) left visiting")
      let leases = i < maps.leases.count ? maps.leases[i] : 0
      precondition(
        f.contains(.leased) == (leases > 0) && leases >= 0,
        "row s\(i): leased flag \(f.contains(.leased)), \(leases) leases")
      if f.contains(.observed) {
        precondition(
          i < maps.boundaryIndex.count
            && maps.boundaries[Int(maps.boundaryIndex[i])].row.slot == Slot(i),
          "row s\(i) is observed, but its boundary index names another row's boundary")
      }
      if hold(of: Slot(i)) != nil {
        precondition(!f.contains(.released), "released row s\(i) still holds its descriptor")
        held += 1
      }
    }
    precondition(
      held + maps.owners.count == maps.holdCount,
      "\(maps.holdCount) holds counted, \(held) rows' and \(maps.owners.count) records' found")
    for (key, raw) in maps.keylessRows {
      let s = Slot(raw)
      precondition(
        !rows.flags[s].contains(.released) && rows.descriptor[s] == key.id,
        "keylessRows names s\(raw) for descriptor \(key.id), which is not its row")
    }
    edges.checkInvariants(rowCount: rows.count) { rows.flags[$0].contains(.released) }
  }
}
