extension Graph {
  /// Pull: brings the stale running row `root` up to date, recomputing only what changed.
  ///
  /// A PENDING row scans its dependencies in read order. A stale dependency is refreshed
  /// first (pushed on the explicit stack, the scan resumes at the same edge afterwards); a
  /// dependency whose `changedAt` differs from the version the edge saw makes the row DIRTY
  /// and ends the scan. A DIRTY row recomputes; a row whose scan finds nothing becomes CLEAN
  /// without running. No recursion here: a 100,000-deep chain of stale rows is walked
  /// iteratively. (A body's own reads may nest a refresh; that nesting is bounded by how
  /// many rows a single run newly reads.)
  ///
  /// Re-entrant: a recompute may run user code that refreshes other rows; each call only pops
  /// the entries it pushed.
  ///
  /// Once a cycle has been met in the current operation, every refresh gives up: it leaves
  /// its rows stale (to be recomputed by a later read) instead of walking the cycle again.
  @inlinable
  public func refresh(_ root: Slot) {
    let base = pullStack.count
    flags[root].insert(.visiting)
    pullStack.append(PullFrame(node: root, cursor: edges.firstDep(of: root)))
    while pullStack.count > base {
      if _slowPath(cycle != nil) {
        abandonRefresh(downTo: base)
        return
      }
      let top = pullStack.count &- 1
      let n = pullStack[top].node
      if !flags[n].contains(.dirty) {
        var e = pullStack[top].cursor
        var descended = false
        while !e.isNone {
          let d = edges.dep(e)
          let fd = flags[d]
          if !fd.isDisjoint(with: .stale) {
            if !fd.isDisjoint(with: .inProgress) {
              noteCycle(closingAt: d, reader: n)
              break
            }
            pullStack[top].cursor = e
            flags[d].insert(.visiting)
            pullStack.append(PullFrame(node: d, cursor: edges.firstDep(of: d)))
            descended = true
            break
          }
          if changedAt[d] != edges.version(e) {
            flags[n].insert(.dirty)
            break
          }
          e = edges.nextDep(e)
        }
        if descended { continue }
      }
      if _slowPath(cycle != nil) { continue }
      _ = pullStack.removeLast()
      flags[n].remove(.visiting)
      if flags[n].contains(.dirty) {
        if recompute(n) && pullStack.count > base {
          // The frame below descended into n from its scan, so it reads n, whose value just
          // changed: it is dirty, no need to compare the edge's version when it resumes.
          flags[pullStack[pullStack.count &- 1].node].insert(.dirty)
        }
      } else {
        flags[n].remove(.pending)
      }
    }
  }

  /// Pops this refresh's frames after a cycle, leaving the rows stale.
  @inline(never) @usableFromInline
  func abandonRefresh(downTo base: Int) {
    while pullStack.count > base {
      let n = pullStack.removeLast().node
      flags[n].remove(.visiting)
      if !flags[n].contains(.dirty) { flags[n].insert(.pending) }
    }
  }

  /// Runs the body of `n` with tracking, drops the dependencies it no longer read, and
  /// backdates: an equal result (`run` returns false) keeps the old `changedAt`, so readers'
  /// edge versions still match and they stay clean. Returns whether the value changed.
  @inlinable @discardableResult
  public func recompute(_ n: Slot) -> Bool {
    let savedSub = activeSub
    let savedCursor = cursor
    activeSub = n
    cursor = .none
    flags[n].insert(.computing)
    runParent[n] = savedSub
    runFrame[n] = Int32(truncatingIfNeeded: pullStack.count)
    let changed = withGuaranteed(behavior[n].object.unsafelyUnwrapped) { $0.run(self, n) }
    #if DEBUG
      runCount &+= 1
    #endif
    edges.endTracking(sub: n, cursor: cursor, orphaned: &orphaned)
    activeSub = savedSub
    cursor = savedCursor
    var f = flags[n]
    f.remove([.computing, .dirty, .pending])
    f.insert(.hasValue)
    if cycle != nil { f.insert(.dirty) }  // computed from a cycle's stale value: redo next time
    flags[n] = f
    if changed {
      revision &+= 1
      changedAt[n] = revision
    }
    return changed
  }
}

/// One entry of the pull's explicit stack: a row being checked and the dependency edge its
/// scan resumes at. One stack of pairs rather than two parallel stacks: a push or pop is one
/// capacity check and one count update.
@frozen
public struct PullFrame {
  public var node: Slot
  public var cursor: EdgeID
  @inlinable @inline(__always) public init(node: Slot, cursor: EdgeID) {
    self.node = node
    self.cursor = cursor
  }
}
