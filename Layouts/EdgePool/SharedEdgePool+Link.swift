import CogCore

extension SharedEdgePool {
  /// Confirms or inserts the dependency `dep` of the running `sub` after `cursor`.
  ///
  /// Two O(1) checks before inserting, as alien-signals' `link` does: the same dependency read
  /// twice in a row (the cursor edge), and the next edge of the previous run (cursor reuse).
  @inlinable @inline(__always)
  public mutating func track(dep: Slot, sub: Slot, version: UInt32, cursor: inout EdgeID) {
    if !cursor.isNone {
      let c = Int(cursor.raw)
      if edges[c].dep == dep {
        edges[c].version = version
        return
      }
    }
    let next = nextCandidate(of: sub, after: cursor)
    if !next.isNone && edges[Int(next.raw)].dep == dep {
      edges[Int(next.raw)].version = version
      cursor = next
      return
    }
    cursor = insert(dep: dep, sub: sub, version: version, after: cursor, before: next)
  }

  /// Links a new entry into `sub`'s dependency list between `after` and `before`, and at the
  /// tail of `dep`'s subscriber list (so push visits subscribers in the order they subscribed).
  /// Out of line: a steady run confirms its dependencies by cursor and never gets here, and
  /// inlined into every read this cold path cost the hot one spills and a larger frame.
  @inline(never) @usableFromInline
  mutating func insert(dep: Slot, sub: Slot, version: UInt32, after: EdgeID, before: EdgeID)
    -> EdgeID
  {
    let tail = subsTail[dep]
    let entry = Edge(
      dep: dep, sub: sub, prevSub: tail, nextSub: .none, nextDep: before, version: version)
    let e: EdgeID
    if freeHead.isNone {
      e = EdgeID(Int32(truncatingIfNeeded: edges.count))
      edges.append(entry)
    } else {
      e = freeHead
      freeHead = edges[Int(e.raw)].nextDep
      edges[Int(e.raw)] = entry
    }
    if after.isNone { depsHead[sub] = e } else { edges[Int(after.raw)].nextDep = e }
    if tail.isNone { subsHead[dep] = e } else { edges[Int(tail.raw)].nextSub = e }
    subsTail[dep] = e
    liveEdgeCount &+= 1
    return e
  }
}
