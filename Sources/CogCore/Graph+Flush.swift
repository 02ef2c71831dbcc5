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

  /// Puts the queue in registration order without allocating. Push visits subscribers in
  /// subscription order, so small or nearly sorted queues are common: those take an insertion
  /// sort. A large queue out of order (thousands of effects reached depth first, as in the
  /// CellX lattice) takes a heapsort: an insertion sort there is quadratic.
  @usableFromInline
  func sortQueue() {
    queue.withElements { q in
      var sorted = true
      for i in 1..<q.count where order[q[i - 1]] > order[q[i]] {
        sorted = false
        break
      }
      if sorted { return }
      if q.count <= 32 { insertionSort(q) } else { heapSort(q) }
    }
  }

  @usableFromInline
  func insertionSort(_ q: UnsafeMutableBufferPointer<Slot>) {
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

  @usableFromInline
  func heapSort(_ q: UnsafeMutableBufferPointer<Slot>) {
    func siftDown(_ start: Int, _ end: Int) {
      var root = start
      while 2 * root + 1 < end {
        var child = 2 * root + 1
        if child + 1 < end && order[q[child]] < order[q[child + 1]] { child += 1 }
        if order[q[root]] >= order[q[child]] { return }
        q.swapAt(root, child)
        root = child
      }
    }
    var start = q.count / 2 - 1
    while start >= 0 {
      siftDown(start, q.count)
      start -= 1
    }
    var end = q.count - 1
    while end > 0 {
      q.swapAt(0, end)
      siftDown(0, end)
      end -= 1
    }
  }
}
