extension Graph {
  /// Notes that source `s` was written in this turn; returns true on its first write.
  @inlinable @inline(__always)
  public func touch(_ s: Slot) -> Bool {
    let f = flags[s]
    if f.contains(.touched) { return false }
    flags[s] = f.union(.touched)
    touched.append(s)
    return true
  }

  /// Flush steps 1–2: every touched source whose staged value differs from its current one
  /// takes it (flip of the value pair), gets a new `changedAt`, and pushes flags. No body runs.
  @inlinable
  public func publish() {
    var i = 0
    while i < touched.count {
      let s = touched[i]
      var f = flags[s]
      let changed = f.contains(.staged)
      f.remove([.touched, .staged])
      flags[s] = f
      if changed {
        valueIndex[s] ^= 1
        revision &+= 1
        changedAt[s] = revision
        propagate(from: s)
      }
      i &+= 1
    }
    touched.removeAll()
  }

  /// Flush steps 3–6 for reactions: sorts the queue into registration order and refreshes each
  /// queued reaction, which runs its body only if a dependency really changed. Cold branches
  /// (computeds no reaction reads) stay flagged until something reads them.
  @inlinable
  public func runQueuedReactions() {
    if queue.count > 1 { sortQueue() }
    var i = 0
    while i < queue.count {
      let r = queue[i]
      if !flags[r].isDisjoint(with: .stale) && !flags[r].contains(.released) { refresh(r) }
      i &+= 1
    }
    queue.removeAll()
  }

  /// Insertion sort by registration order: the queue is short and usually nearly sorted
  /// (subscriber lists keep subscription order), and this allocates nothing.
  @usableFromInline
  func sortQueue() {
    queue.withElements { q in
      for i in 1..<q.count {
        let x = q[i]
        let key = order[x]
        var j = i - 1
        while j >= 0 && order[q[j]] > key {
          q[j + 1] = q[j]
          j -= 1
        }
        q[j + 1] = x
      }
    }
  }
}
