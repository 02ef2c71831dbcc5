/// One `.cache` row kept while unobserved: which row, its descriptor (the limit is per
/// descriptor), and when its retention ends on the context's clock.
@frozen
public struct CacheEntry {
  public var ref: SlotRef
  public var descriptor: Int32
  public var deadline: Duration
  @inlinable public init(ref: SlotRef, descriptor: Int32, deadline: Duration) {
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
  public func collect() {
    if orphaned.count == 0 && deferredRelease.count == 0 { return }
    if !isIdle { return }
    collectSlow()
  }

  @inline(never) @usableFromInline
  func collectSlow() {
    while orphaned.count > 0 || deferredRelease.count > 0 {
      while deferredRelease.count > 0 {
        let r = deferredRelease.removeLast()
        if generation[r.slot] == r.generation { release(r.slot) }
      }
      // Oldest first, so that a `.cache` limit keeps the rows that went unobserved last.
      var i = 0
      while i < orphaned.count {
        let s = orphaned[i]
        i += 1
        let f = flags[s]
        if f.contains(.released) || f.contains(.cached) || edges.hasSubscribers(s)
          || leases[s] > 0
        {
          continue
        }
        switch lifetime[s] {
        case .whileObserved: release(s)
        case .cache: cacheRow(s)
        case .context: continue
        }
      }
      // Releases above appended the rows they orphaned after index i; drop what was handled.
      orphaned.removeFirst(i)
    }
  }

  /// Keeps the unobserved `.cache` row `s`: appends it to the cache list and, past its
  /// descriptor's limit, releases that descriptor's oldest cached row.
  @usableFromInline
  func cacheRow(_ s: Slot) {
    let id = descriptor[s]
    let policy = owner(of: id)?.cachePolicy ?? (limit: Int.max, retention: .seconds(3600))
    if policy.limit <= 0 {
      release(s)
      return
    }
    let deadline = now() + policy.retention
    flags[s].insert(.cached)
    cacheEntries.append(CacheEntry(ref: ref(s), descriptor: id, deadline: deadline))
    if cacheEntries.count == 1 || deadline < nextCacheDeadline { nextCacheDeadline = deadline }
    let count = cacheCounts[id, default: 0] + 1
    cacheCounts[id] = count
    if Int(count) > policy.limit {
      for j in 0..<cacheEntries.count where cacheEntries[j].descriptor == id {
        release(cacheEntries[j].ref.slot)  // removes entry j
        break
      }
    }
  }

  /// Takes row `s` out of the cache list: it regained an observer or is being released.
  @inline(never) @usableFromInline
  func uncache(_ s: Slot) {
    flags[s].remove(.cached)
    let id = descriptor[s]
    cacheEntries.withElements { entries in
      guard let j = entries.firstIndex(where: { $0.ref.slot == s }) else { return }
      for k in j..<(entries.count - 1) { entries[k] = entries[k + 1] }
    }
    _ = cacheEntries.removeLast()
    cacheCounts[id, default: 1] -= 1
  }

  /// Releases cached rows past their retention deadline; after each turn. Without cached
  /// rows, or before the earliest deadline, it reads nothing but a count (and the clock).
  @inlinable @inline(__always)
  public func expireCache() {
    if cacheEntries.count == 0 || !isIdle { return }
    let t = now()
    if t < nextCacheDeadline { return }
    expireCache(at: t)
  }

  @inline(never) @usableFromInline
  func expireCache(at t: Duration) {
    var j = 0
    while j < cacheEntries.count {
      if cacheEntries[j].deadline <= t {
        release(cacheEntries[j].ref.slot)  // removes entry j
      } else {
        j += 1
      }
    }
    var earliest = Duration.zero
    for k in 0..<cacheEntries.count where k == 0 || cacheEntries[k].deadline < earliest {
      earliest = cacheEntries[k].deadline
    }
    nextCacheDeadline = earliest
    collect()
  }

  /// Adds an explicit lease (an observer that is not a graph edge) to row `s`.
  public func addLease(_ s: Slot) {
    leases[s] += 1
    if flags[s].contains(.cached) { uncache(s) }
  }

  /// Removes a lease; the row may be released when the operation ends.
  public func removeLease(_ s: Slot) {
    leases[s] -= 1
    if leases[s] == 0 { orphaned.append(s) }
  }

  /// After a read that left row `s` without an observer (a read outside any body, or a
  /// `peek`): a row with a lifetime goes to the collector, which releases or caches it when
  /// the operation ends.
  @inlinable @inline(__always)
  public func noteUnobservedRead(_ s: Slot) {
    if lifetime[s] != .context && !edges.hasSubscribers(s) && leases[s] == 0 {
      orphaned.append(s)
    }
  }
}
