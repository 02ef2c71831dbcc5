import CCogStack

extension Graph {
  /// Notes that source `s` was written in this turn; returns true on its first write.
  @inlinable @inline(__always)
  func touch(_ s: Slot) -> Bool {
    let f = rows.flags[s]
    if f.contains(.touched) { return false }
    rows.flags[s] = f.union(.touched)
    work.touched.append(s)
    return true
  }

  /// Flush steps 1–2: every touched source whose staged value differs from its current one
  /// takes it (flip of the value pair), gets a new `changedAt`, and pushes flags; a watched
  /// source joins the roots (see `settleRoots`). No body runs.
  /// Returns whether any source changed.
  @inlinable @discardableResult
  package func publish() -> Bool {
    var any = false
    var i = 0
    while i < work.touched.count {
      let s = work.touched[i]
      var f = rows.flags[s]
      let changed = f.contains(.staged)
      f.remove([.touched, .staged])
      rows.flags[s] = f
      if changed {
        rows.valueIndex[s] ^= 1
        revision &+= 1
        rows.changedAt[s] = revision
        propagate(from: s)
        if _slowPath(!f.isDisjoint(with: .watched)) { addRoot(s) }
        any = true
      }
      i &+= 1
    }
    work.touched.removeAll()
    return any
  }

  /// Flush step 6, the reactions: sorts the queue into registration order and refreshes each
  /// queued reaction, which runs its body only if a dependency really changed. Cold branches
  /// (computeds no reaction reads) stay flagged until something reads them.
  ///
  /// Each reaction is an operation of its own: a cycle met by one goes to the error handler
  /// and the flush goes on with the next. A reaction whose refresh met a cycle stays stale, and
  /// push stops at stale rows, so it waits in `blocked`; a flush that published a change
  /// (`retryBlocked`) queues the blocked reactions again.
  @inlinable @inline(__always)
  func runQueuedReactions(retryBlocked: Bool) {
    if _slowPath(retryBlocked && work.blocked.count > 0) { requeueBlocked() }
    if work.queue.count > 1 { sortQueue() }
    // Every body this loop runs is an outermost one of this graph: the body graph (`inBody`)
    // is set once around the loop, not per recompute (between bodies only the loop's own code
    // runs; the error handler gets the outer value back).
    let outerGraph = cog_get_body_graph()
    // Lifetime: `self` runs the bodies; the slot is restored after the loop.
    cog_set_body_graph(Unmanaged.passUnretained(self).toOpaque())
    var i = 0
    while i < work.queue.count {
      let r = work.queue[i]
      let f = rows.flags[r]
      if !f.isDisjoint(with: .stale) && !f.contains(.released) {
        // A DIRTY reaction (its input changed: sbench's effects, most of a flush's) runs here;
        // the rest go through `refresh`, which is out of line (a call per reaction).
        if f.contains(.dirty) && !isFailing {
          recompute(r, outermost: true)
        } else {
          refreshOutermost(r)
        }
        if _slowPath(isFailing) { reactionFailed(r, outerGraph: outerGraph) }
      }
      i &+= 1
    }
    cog_set_body_graph(outerGraph)
    work.queue.removeAll()
  }

  /// Moves the live blocked reactions back into the queue.
  @inline(never) @inlinable
  func requeueBlocked() {
    while work.blocked.count > 0 {
      let r = work.blocked.removeLast()
      if rows.generation[r.slot] == r.generation && !rows.flags[r.slot].contains(.released) {
        work.queue.append(r.slot)
      }
    }
  }

  /// A reaction's refresh met a cycle: report it, and keep the reaction for a retry.
  @inline(never) @inlinable
  func reactionFailed(_ r: Slot) {
    reportCycle()
    work.blocked.append(ref(r))
  }

  /// `reactionFailed` inside `runQueuedReactions`' loop: the error handler is not a body, so
  /// it runs with the body graph of the loop's caller, `outerGraph`.
  @inline(never) @inlinable
  func reactionFailed(_ r: Slot, outerGraph: UnsafeMutableRawPointer?) {
    cog_set_body_graph(outerGraph)
    reactionFailed(r)
    // Lifetime: as in `runQueuedReactions`, which restores the slot after its loop.
    cog_set_body_graph(Unmanaged.passUnretained(self).toOpaque())
  }

  /// Puts the queue in registration order. Push visits subscribers in subscription order, so
  /// small or nearly sorted queues are common: those take an insertion sort. A large queue
  /// out of order (thousands of effects reached depth first, as in the CellX lattice) takes a
  /// radix sort on the registration order: linear, where an insertion sort is quadratic and
  /// a heapsort spent most of a large flush in its sift-down.
  @inlinable
  func sortQueue() {
    work.queue.withElements { q in
      // The order column through a copy: a store through a column may alias the hot state,
      // so the optimizer reloaded its base for every element of this test, which runs on
      // every flush's queue (most often already sorted).
      let order = rows.order
      var sorted = true
      for i in 1..<q.count where order[q[i &- 1]] > order[q[i]] {
        sorted = false
        break
      }
      if sorted { return }
      if q.count <= 32 { insertionSort(q) } else { radixSort(q) }
    }
  }

  @inlinable
  func insertionSort(_ q: UnsafeMutableBufferPointer<Slot>) {
    for i in 1..<q.count {
      let x = q[i]
      let key = rows.order[x]
      var j = i - 1
      while j >= 0 && rows.order[q[j]] > key {
        q[j + 1] = q[j]
        j -= 1
      }
      q[j + 1] = x
    }
  }

  /// A stable least-significant-digit radix sort of `q` by `order`, one byte per pass, as many
  /// passes as the span of the queue's orders needs (two for up to 65,536 registrations
  /// between the first and the last queued reaction). The scratch and count columns are
  /// reused, so a steady flush allocates nothing.
  @inlinable
  func radixSort(_ q: UnsafeMutableBufferPointer<Slot>) {
    let n = q.count
    var low = UInt32.max
    var high: UInt32 = 0
    for s in q {
      let o = rows.order[s]
      low = Swift.min(low, o)
      high = Swift.max(high, o)
    }
    let span = high &- low
    work.sortScratch.reserve(n)
    // Safety: both are used as raw capacity, past `count` (0): their elements are trivial,
    // capacity is ≥ n (counts: 256 from init), and every entry is written before it is read.
    let scratch = UnsafeMutableBufferPointer(start: work.sortScratch.base, count: n)
    // Reused counts, not `withUnsafeTemporaryAllocation`: 256 words exceed what it keeps on
    // the stack, and it then allocated on every large flush (seen as 1 allocation per sample
    // in cellx/1000).
    let counts = UnsafeMutableBufferPointer(start: work.sortCounts.base, count: 256)
    var source = q
    var target = scratch
    var shift: UInt32 = 0
    repeat {
      counts.update(repeating: 0)
      for s in source { counts[Int(((rows.order[s] &- low) >> shift) & 0xFF)] &+= 1 }
      var total: Int32 = 0
      for b in 0..<256 {
        let c = counts[b]
        counts[b] = total
        total &+= c
      }
      for s in source {
        let b = Int(((rows.order[s] &- low) >> shift) & 0xFF)
        target[Int(counts[b])] = s
        counts[b] &+= 1
      }
      swap(&source, &target)
      shift &+= 8
    } while shift < 32 && (span >> shift) != 0
    if source.baseAddress != q.baseAddress {
      q.baseAddress!.update(from: source.baseAddress!, count: n)
    }
  }
}
