extension Graph {
  /// A read of row `d` on the general path: refreshes it if stale, then records it as a
  /// dependency of the running row (if any). Returns false when the read closed a cycle (`d`
  /// is running or being checked further down the pull), or could not bring `d` up to date
  /// because of one; the caller then serves `d`'s last value.
  @inlinable @inline(__always)
  package func readTracked(_ d: Slot) -> Bool {
    let f = rows.flags[d]
    if !f.isDisjoint(with: .attention) {
      if !f.isDisjoint(with: .inProgress) {
        noteCycle(closingAt: d, reader: activeSub)
        return false
      }
      refresh(d)
      if _slowPath(isFailing) && !rows.flags[d].isDisjoint(with: .stale) { return false }
    }
    let sub = activeSub
    if !sub.isNone {
      edges.track(d, version: rows.changedAt[d], sub: sub, &run)
      // A cached row read by a body is observed again: out of the cache list.
      if _slowPath(f.contains(.cached)) { uncache(d) }
    }
    return true
  }

  /// A read that creates no dependency (`c.peek`). A row with a lifetime that nothing
  /// observes goes to the collector when the operation ends (a peek may have created it).
  @inlinable @inline(__always)
  func readUntracked(_ d: Slot) -> Bool {
    let f = rows.flags[d]
    noteUnobservedRead(d)
    if !f.isDisjoint(with: .attention) {
      if !f.isDisjoint(with: .inProgress) {
        noteCycle(closingAt: d, reader: activeSub)
        return false
      }
      refresh(d)
      if _slowPath(isFailing) && !rows.flags[d].isDisjoint(with: .stale) { return false }
    }
    return true
  }

  /// `read`'s stale candidate (see `readStaleCandidate`): refreshes `d` and says whether the
  /// fast path may go on (false on a cycle, which the general path then notes and serves).
  /// Inlined into `readStaleCandidate`, so that a DIRTY row read by a body runs one frame
  /// below the read; a PENDING one calls `refresh` (that copy stays out of each value type's
  /// read).
  @inlinable @inline(__always)
  func refreshForCandidate(_ d: Slot) -> Bool {
    let f = rows.flags[d]
    if !f.isDisjoint(with: .inProgress) { return false }
    // A DIRTY candidate (a body reading a row that push made DIRTY, as kairo/diamond's sum
    // reads its four other inputs) recomputes here, with no call into `refresh` or
    // `runNested`: the read's frame is the only one between the body and the row's behavior.
    if f.contains(.dirty) && !isFailing {
      // A candidate exists only while a body runs (`run` is idle outside bodies).
      #if DEBUG || COG_INTERNAL_CHECKS
        precondition(!activeSub.isNone, "a stale candidate read outside a body")
      #endif
      _ = recomputeNested(d, in: activeSub)
    } else {
      refreshOutOfLine(d)
    }
    return !isFailing
  }

  /// `refresh`, out of line: the pending and failing cases of `refreshForCandidate`.
  @inlinable @inline(never)
  func refreshOutOfLine(_ d: Slot) { refresh(d) }
}
