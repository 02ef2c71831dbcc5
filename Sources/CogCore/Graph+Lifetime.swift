/// One `.cache` row kept while unobserved: which row, its descriptor (the limit is per
/// descriptor), and when its retention ends on the context's clock.
@frozen
@usableFromInline package struct CacheEntry {
  @usableFromInline package var ref: SlotRef
  @usableFromInline package var descriptor: Int32
  @usableFromInline package var deadline: ContextTime
  @inlinable package init(ref: SlotRef, descriptor: Int32, deadline: ContextTime) {
    self.ref = ref
    self.descriptor = descriptor
    self.deadline = deadline
  }
}

extension Graph {
  /// End-of-operation housekeeping: frees rows released while bodies ran, releases
  /// `.whileObserved` rows that lost their last subscriber and lease, and caches `.cache`
  /// rows that just became unobserved (releasing the oldest past their descriptor's limit).
  /// Releasing a row can orphan its dependencies in turn; this runs until nothing is left.
  /// Runs only when the graph is idle; the common case is two count checks. (Retention time
  /// is applied after each turn, by `expireCache()`, not on every read.)
  @inlinable @inline(__always)
  package func collect() {
    if work.orphaned.count == 0 && work.deferredRelease.count == 0 { return }
    if !isIdle { return }
    collectSlow()
  }

  @inline(never) @inlinable
  func collectSlow() {
    while work.orphaned.count > 0 || work.deferredRelease.count > 0 {
      while work.deferredRelease.count > 0 {
        let r = work.deferredRelease.removeLast()
        if rows.generation[r.slot] == r.generation { release(r.slot) }
      }
      // Oldest first, so that a `.cache` limit keeps the rows that went unobserved last.
      var i = 0
      while i < work.orphaned.count {
        let s = work.orphaned[i]
        i += 1
        let f = rows.flags[s]
        if !f.isDisjoint(with: [.released, .cached, .leased]) || edges.hasSubscribers(s) {
          continue
        }
        // While sweeping, a dropped descriptor's row goes whatever its lifetime (a `.cache`
        // row is not cached), and the descriptor's hold with its last row.
        if work.orphaned.sweeping {
          releaseIfDropped(s)
          if rows.flags[s].contains(.released) { continue }
        }
        switch rows.lifetime[s] {
        case .whileObserved: release(s)
        case .cache: cacheRow(s)
        case .context: break
        }
      }
      // Releases above appended the rows they orphaned after index i; drop what was handled.
      work.orphaned.removeFirst(i)
    }
  }

  /// Keeps the unobserved `.cache` row `s`: appends it to the cache list and, past its
  /// descriptor's limit, releases that descriptor's oldest cached row.
  @inlinable
  func cacheRow(_ s: Slot) {
    let id = rows.descriptor[s]
    let policy = cachePolicy(ofRow: s) ?? (limit: Int.max, retention: .seconds(3600))
    if policy.limit <= 0 {
      release(s)
      return
    }
    let deadline = now().adding(ContextTime(policy.retention))
    rows.flags[s].insert(.cached)
    work.cacheEntries.append(CacheEntry(ref: ref(s), descriptor: id, deadline: deadline))
    if work.cacheEntries.count == 1 || deadline < maps.nextCacheDeadline {
      maps.nextCacheDeadline = deadline
    }
    let count = maps.cacheCounts[id, default: 0] + 1
    maps.cacheCounts[id] = count
    if Int(count) > policy.limit {
      for j in 0..<work.cacheEntries.count where work.cacheEntries[j].descriptor == id {
        release(work.cacheEntries[j].ref.slot)  // removes entry j
        break
      }
    }
  }

  /// Takes row `s` out of the cache list: it regained an observer or is being released.
  @inline(never) @inlinable
  func uncache(_ s: Slot) {
    rows.flags[s].remove(.cached)
    let id = rows.descriptor[s]
    work.cacheEntries.withElements { entries in
      guard let j = entries.firstIndex(where: { $0.ref.slot == s }) else { return }
      for k in j..<(entries.count - 1) { entries[k] = entries[k + 1] }
    }
    _ = work.cacheEntries.removeLast()
    maps.cacheCounts[id, default: 1] -= 1
  }

  /// Releases cached rows past their retention deadline; after each turn. Without cached
  /// rows, or before the earliest deadline, it reads nothing but a count (and the clock).
  @inlinable @inline(__always)
  func expireCache() {
    if work.cacheEntries.count == 0 || !isIdle { return }
    let t = now()
    if t < maps.nextCacheDeadline { return }
    expireCache(at: t)
  }

  @inline(never) @inlinable
  func expireCache(at t: ContextTime) {
    var j = 0
    while j < work.cacheEntries.count {
      if work.cacheEntries[j].deadline <= t {
        release(work.cacheEntries[j].ref.slot)  // removes entry j
      } else {
        j += 1
      }
    }
    var earliest = ContextTime.zero
    for k in 0..<work.cacheEntries.count where k == 0 || work.cacheEntries[k].deadline < earliest {
      earliest = work.cacheEntries[k].deadline
    }
    maps.nextCacheDeadline = earliest
    collect()
  }

  /// Adds an explicit lease (an observer that is not a graph edge) to row `s`.
  @inlinable package func addLease(_ s: Slot) {
    Graph.setSparse(&maps.leases, s, leaseCount(of: s) + 1)
    rows.flags[s].insert(.leased)
    if rows.flags[s].contains(.cached) { uncache(s) }
  }

  /// Ends the explicit lease `r` (a `CogLease`): the row may go now.
  @inlinable package func endLease(_ r: SlotRef) {
    checkLive(r)
    removeLease(r.slot)
    collect()
  }

  /// Row `s`'s explicit leases.
  @inlinable package func leaseCount(of s: Slot) -> Int32 {
    rows.flags[s].contains(.leased) ? maps.leases[Int(s.raw)] : 0
  }

  /// Removes a lease; the row may be released when the operation ends.
  @inlinable package func removeLease(_ s: Slot) {
    let left = leaseCount(of: s) - 1
    maps.leases[Int(s.raw)] = left
    if left == 0 {
      rows.flags[s].remove(.leased)
      work.orphaned.append(s)
    }
  }

  /// After a read that left row `s` without an observer (a read outside any body, or a
  /// `peek`): a row with a lifetime goes to the collector, which releases or caches it when
  /// the operation ends.
  @inlinable @inline(__always)
  package func noteUnobservedRead(_ s: Slot) {
    if rows.lifetime[s] != .context && !edges.hasSubscribers(s)
      && !rows.flags[s].contains(.leased)
    {
      // A row with a lifetime: the queue's own test (`OrphanQueue.keeps`) would pass.
      work.orphaned.rows.append(s)
    }
  }
}

extension Graph {
  /// Releases row `s` now if nothing observes it (no subscriber, no lease), whatever its
  /// lifetime; returns whether it did. Runs outside turns and bodies only.
  @inlinable package func evict(_ s: Slot) -> Bool {
    if _slowPath(!canStartOperation) { misplaced("evict was called") }
    defer { collect() }
    if s.isNone || edges.hasSubscribers(s) || rows.flags[s].contains(.leased) { return false }
    #if !COG_NO_DIAGNOSTICS
      if _slowPath(maps.hasDiagnostics) { noteEvicting(true) }
    #endif
    release(s)
    #if !COG_NO_DIAGNOSTICS
      if _slowPath(maps.hasDiagnostics) { noteEvicting(false) }
    #endif
    return true
  }
}
