extension Graph {
  /// Verifies the structure: no row is left computing or being checked, released rows have
  /// no edges, and the edge store's own structure (each layout checks its own:
  /// `EdgeStore.checkInvariants`).
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
    for i in 0..<rows.count {
      let f = rows.flags[Slot(i)]
      precondition(!f.contains(.computing), "row s\(i) left computing")
      precondition(!f.contains(.visiting), "row s\(i) left visiting")
    }
    edges.checkInvariants(rowCount: rows.count) { rows.flags[$0].contains(.released) }
  }
}
