extension Graph {
  /// Push: flags every row downstream of the changed `source`. Its direct subscribers become
  /// DIRTY (their input surely changed), the rows below them PENDING (check versions before
  /// trusting). The direct level is walked here and each subtree by `flagPending`, so no
  /// subscriber position is ever asked which dependency it came from (an array layout's
  /// subscriber entries do not know).
  ///
  /// Newly flagged reactions go to the flush queue, newly flagged watched rows (a boundary or
  /// an export) to the roots the flush settles first.
  ///
  /// Push changes only flags, the push stack and the queues, none of which moves the flags
  /// column or the edges, so it reads them through copies taken once here: a store through a
  /// column may alias the hot state, which the optimizer would otherwise reload after every
  /// flag stored.
  @inlinable
  package func propagate(from source: Slot) {
    let flags = rows.flags
    let e = edges
    var p = e.firstSub(of: source)
    while !p.isNone {
      let n = e.sub(of: source, at: p)
      p = e.nextSub(of: source, after: p)
      var f = flags[n]
      if !f.isDisjoint(with: .stale) {
        // Already flagged (its subtree too); a PENDING row becomes DIRTY.
        if !f.contains(.dirty) {
          f.insert(.dirty)
          flags[n] = f
        }
        continue
      }
      f.insert(.dirty)
      flags[n] = f
      if !f.isDisjoint(with: .hotRoot) { enqueueRoot(n, f) }
      if e.hasSubscribers(n) { flagPending(below: n, flags: flags, edges: e) }
    }
  }

  /// Flags the rows below `top` PENDING, depth first, without descending below a row that was
  /// already flagged (its subtree was flagged when it was). Iterative: `pushStack` holds, per
  /// level, the row whose subscribers are being walked and the next position among them;
  /// only levels with a next sibling are pushed.
  /// `flags` and `e`: `propagate`'s copies of the flags column and the edges.
  @inlinable
  func flagPending(below top: Slot, flags: RawColumn<StateFlags>, edges e: Edges) {
    let base = work.pushStack.count
    var d = top
    var p = e.firstSub(of: top)
    while true {
      while !p.isNone {
        let n = e.sub(of: d, at: p)
        let next = e.nextSub(of: d, after: p)
        var f = flags[n]
        if !f.isDisjoint(with: .stale) {
          p = next
          continue
        }
        f.insert(.pending)
        flags[n] = f
        if !f.isDisjoint(with: .hotRoot) { enqueueRoot(n, f) }
        let child = e.firstSub(of: n)
        if !child.isNone {
          if !next.isNone { work.pushStack.append(PushFrame(dep: d, next: next)) }
          d = n
          p = child
        } else {
          p = next
        }
      }
      if work.pushStack.count == base { return }
      let frame = work.pushStack.removeLast()
      d = frame.dep
      p = frame.next
    }
  }
}

extension Graph {
  /// A hot root was just flagged: a reaction joins the reaction queue, a watched row the
  /// roots (see `settleRoots`). Push tests the `hotRoot` mask once per flagged row; this
  /// second test runs only for rows that are roots.
  @inlinable @inline(__always)
  func enqueueRoot(_ n: Slot, _ f: StateFlags) {
    if f.contains(.reaction) { work.queue.append(n) } else { addRoot(n) }
  }

  /// A watched row joins the roots (out of line: push and publish carry only the call).
  @inlinable @inline(never)
  func addRoot(_ n: Slot) { maps.roots.append(n) }
}

/// One level of the push's explicit stack: the row whose subscribers are being walked and the
/// position of the next one.
@frozen @usableFromInline
struct PushFrame<Position: EdgePosition> {
  @usableFromInline package var dep: Slot
  @usableFromInline package var next: Position
  @inlinable @inline(__always) package init(dep: Slot, next: Position) {
    self.dep = dep
    self.next = next
  }
}
