extension Graph {
  /// Push: flags every row downstream of the changed `source`. Direct subscribers become
  /// DIRTY (their input surely changed), the rest PENDING (check versions before trusting).
  ///
  /// The walk does not descend below a row that was already flagged: its subtree was flagged
  /// when it was. Newly flagged reactions go to the flush queue. Iterative: `pushStack` holds
  /// the next sibling edge of each level, and only non-`.none` siblings are pushed.
  @inlinable
  public func propagate(from source: Slot) {
    let base = pushStack.count
    var e = edges.firstSub(of: source)
    while true {
      while !e.isNone {
        let n = edges.sub(e)
        let next = edges.nextSub(e)
        var f = flags[n]
        if !f.isDisjoint(with: .stale) {
          // Already flagged; a direct subscriber that was only PENDING becomes DIRTY, and
          // its subtree is flagged already.
          if !f.contains(.dirty) && edges.dep(e) == source {
            f.insert(.dirty)
            flags[n] = f
          }
          e = next
          continue
        }
        f.insert(edges.dep(e) == source ? .dirty : .pending)
        flags[n] = f
        if f.contains(.reaction) { queue.append(n) }
        let child = edges.firstSub(of: n)
        if !child.isNone {
          if !next.isNone { pushStack.append(next) }
          e = child
        } else {
          e = next
        }
      }
      if pushStack.count == base { return }
      e = pushStack.removeLast()
    }
  }
}
