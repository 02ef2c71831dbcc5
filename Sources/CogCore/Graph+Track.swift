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
    }
    return true
  }

  /// A read that creates no dependency (`c.peek`).
  @inlinable @inline(__always)
  public func readUntracked(_ d: Slot) -> Bool {
    let f = flags[d]
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

  /// The row the running body would confirm next, if the previous run read one there: the
  /// tracking cursor's fast path compares its descriptor and key without hashing.
  @inlinable @inline(__always)
  public func nextCandidateDependency() -> Slot {
    if activeSub.isNone { return .none }
    let e = edges.nextCandidate(of: activeSub, after: cursor)
    return e.isNone ? .none : edges.dep(e)
  }
}
