extension Graph {
  /// Verifies the structure at the end of a flush: no row is left computing or being
  /// checked, no nested run is left on its stack, the work queues are empty; every live row
  /// has exactly one kind; the free slots are exactly the released rows, each once; released
  /// rows have no edges and no hold, the count of held rows; every `keylessRows` entry names
  /// a live row of its descriptor; a row is `leased` exactly when it has leases, `observed`
  /// exactly when a boundary names it, `cached` exactly when the cache list has it; a clean
  /// computed row read every dependency at the version it still has (`changedAt`); and the
  /// edge store's own structure (each layout checks its own: `EdgeStore.checkInvariants`).
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
    precondition(work.pullStack.count == 0, "\(work.pullStack.count) pull frames left")
    precondition(work.queue.count == 0, "\(work.queue.count) reactions left queued")
    precondition(work.touched.count == 0, "\(work.touched.count) touched sources left")
    precondition(work.orphaned.count == 0, "\(work.orphaned.count) orphaned rows left")
    precondition(
      work.deferredRelease.count == 0, "\(work.deferredRelease.count) deferred releases left")
    var free = Set<Int32>()
    for j in 0..<work.freeSlots.count {
      let s = work.freeSlots[j]
      precondition(free.insert(s.raw).inserted, "free slot s\(s.raw) listed twice")
      precondition(rows.flags[s] == .released, "free slot s\(s.raw) is not a released row")
    }
    var cached = Set<Int32>()
    for j in 0..<work.cacheEntries.count {
      let e = work.cacheEntries[j]
      precondition(
        rows.generation[e.ref.slot] == e.ref.generation
          && rows.flags[e.ref.slot].contains(.cached),
        "the cache list names s\(e.ref.slot.raw), which is not a cached row")
      precondition(cached.insert(e.ref.slot.raw).inserted, "s\(e.ref.slot.raw) cached twice")
    }
    for (b, boundary) in maps.boundaries.enumerated() {
      let s = boundary.row.slot
      precondition(
        rows.flags[s].contains(.observed) && Int(maps.boundaryIndex[Int(s.raw)]) == b,
        "boundary \(b) names s\(s.raw), which is not observed through it")
    }
    var held = 0
    for i in 0..<rows.count {
      let s = Slot(i)
      let f = rows.flags[s]
      precondition(!f.contains(.computing), "row s\(i) left computing")
      precondition(!f.contains(.visiting), "row s\(i) left visiting")
      precondition(
        f.contains(.released) == free.contains(Int32(i)),
        "row s\(i): released \(f.contains(.released)), in the free slots \(free.contains(Int32(i)))"
      )
      if !f.contains(.released) {
        let kinds = f.intersection([.source, .computed, .reaction]).rawValue.nonzeroBitCount
        precondition(kinds == 1, "row s\(i) has \(kinds) kinds (flags \(f.rawValue))")
      }
      precondition(
        f.contains(.cached) == cached.contains(Int32(i)),
        "row s\(i): cached flag \(f.contains(.cached)), in the cache list \(cached.contains(Int32(i)))"
      )
      if f.contains(.computed) && f.isDisjoint(with: .stale) && f.contains(.hasValue) {
        var p = edges.firstDep(of: s)
        while !p.isNone {
          let d = edges.dep(of: s, at: p)
          precondition(
            edges.version(of: s, at: p) == rows.changedAt[d],
            "clean row s\(i) read s\(d.raw) at version \(edges.version(of: s, at: p)); it is at "
              + "\(rows.changedAt[d])")
          p = edges.nextDep(of: s, after: p)
        }
      }
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
      } else if isUnheld(Slot(i)) {
        held += 1  // a plain manual state's row: counted, holding nothing
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
