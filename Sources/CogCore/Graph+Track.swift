extension Graph {
  /// A read of row `d`: refreshes it if stale, then records it as a dependency of the running
  /// row (if any). Returns false when the read closed a cycle (`d` is running or being
  /// checked further down the pull), or could not bring `d` up to date because of one; the
  /// caller then serves `d`'s previous value, or stops if it has none.
  @inlinable @inline(__always)
  public func readTracked(_ d: Slot) -> Bool {
    let f = flags[d]
    if !f.isDisjoint(with: .attention) {
      if !f.isDisjoint(with: .inProgress) {
        noteCycle(closingAt: d, reader: activeSub)
        return false
      }
      refresh(d)
      if _slowPath(cycle != nil) && !flags[d].isDisjoint(with: .stale) { return false }
    }
    if !activeSub.isNone {
      edges.track(dep: d, sub: activeSub, version: changedAt[d], cursor: &cursor)
      // A cached row read by a body is observed again: out of the cache list.
      if _slowPath(f.contains(.cached)) { uncache(d) }
    }
    return true
  }

  /// A read that creates no dependency (`c.peek`). A row with a lifetime that nothing
  /// observes goes to the collector when the operation ends (a peek may have created it).
  @inlinable @inline(__always)
  public func readUntracked(_ d: Slot) -> Bool {
    let f = flags[d]
    noteUnobservedRead(d)
    if !f.isDisjoint(with: .attention) {
      if !f.isDisjoint(with: .inProgress) {
        noteCycle(closingAt: d, reader: activeSub)
        return false
      }
      refresh(d)
      if _slowPath(cycle != nil) && !flags[d].isDisjoint(with: .stale) { return false }
    }
    return true
  }

  /// A tracked read's fast path for a keyless descriptor (one row per context): when the
  /// running body's next dependency in last run's order is a row of descriptor `id`, that
  /// is the row (refreshed first if stale), and confirming the edge is one store.
  /// Returns the row, or `.none` when the general path must run (no running body, a
  /// different or new dependency, a cycle). Skips the descriptor cache and the search that
  /// `track` would repeat.
  @inlinable @inline(__always)
  public func readByCursor(descriptor id: Int32) -> Slot {
    let sub = activeSub
    if sub.isNone { return .none }
    let e = edges.nextCandidate(of: sub, after: cursor)
    if e.isNone { return .none }
    let d = edges.dep(e)
    if descriptor[d] != id { return .none }
    if !flags[d].isDisjoint(with: .attention) && !refreshForCursorRead(d) { return .none }
    edges.confirm(e, version: changedAt[d])
    cursor = e
    return d
  }

  /// `readByCursor`'s stale case, out of line so that the confirmed path makes no call:
  /// refreshes `d` and says whether the fast path may go on (false on a cycle, which the
  /// general path then notes and serves).
  @inlinable @inline(never)
  public func refreshForCursorRead(_ d: Slot) -> Bool {
    if !flags[d].isDisjoint(with: .inProgress) { return false }
    refresh(d)
    return cycle == nil
  }

  /// The row the running body would confirm next, if the previous run read one there: the
  /// tracking cursor's fast path compares its descriptor and key without hashing.
  @inlinable @inline(__always)
  public func nextCandidateDependency() -> Slot {
    if activeSub.isNone { return .none }
    let e = edges.nextCandidate(of: activeSub, after: cursor)
    return e.isNone ? .none : edges.dep(e)
  }
}
