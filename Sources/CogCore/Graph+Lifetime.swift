extension Graph {
  /// End-of-operation housekeeping: frees rows released while bodies ran, releases
  /// `.whileObserved` rows that lost their last subscriber and lease, and applies cache
  /// policies to rows that just became unobserved. Runs only when the graph is idle; the
  /// common case is two count checks. (Retention time is applied after each turn, by
  /// `expireCache()`, not on every read.)
  @inlinable @inline(__always)
  public func collect() {
    if orphaned.count == 0 && deferredRelease.count == 0 { return }
    if !isIdle { return }
    collectSlow()
  }

  @inline(never) @usableFromInline
  func collectSlow() {
    while deferredRelease.count > 0 {
      let r = deferredRelease.removeLast()
      if generation[r.slot] == r.generation { release(r.slot) }
    }
    var newlyCached = false
    while orphaned.count > 0 {
      let s = orphaned.removeLast()
      let f = flags[s]
      if f.contains(.released) || edges.hasSubscribers(s) || leases[s] > 0 { continue }
      switch lifetime[s] {
      case .whileObserved:
        release(s)
      case .cache:
        cacheRows.append((ref(s), ContinuousClock.now))
        newlyCached = true
      case .context:
        continue
      }
    }
    if newlyCached { trimCache() }
  }

  /// Releases cached rows past their retention time; a no-op without cached rows.
  @inlinable @inline(__always)
  public func expireCache() {
    if !cacheRows.isEmpty && isIdle { trimCache() }
  }

  /// Drops cache entries that were released or regained observers, then releases rows past
  /// their descriptor's limit (oldest first) or older than its retention.
  @usableFromInline
  func trimCache() {
    let now = ContinuousClock.now
    var kept: [(ref: SlotRef, since: ContinuousClock.Instant)] = []
    var perOwner: [Int32: Int] = [:]
    // Newest first, so the limit keeps the most recent rows.
    for entry in cacheRows.reversed() {
      let s = entry.ref.slot
      if generation[s] != entry.ref.generation || flags[s].contains(.released) { continue }
      if edges.hasSubscribers(s) || leases[s] > 0 { continue }
      let id = descriptor[s]
      let policy = owner(of: id)?.cachePolicy ?? (limit: Int.max, retention: .seconds(3600))
      let n = perOwner[id, default: 0]
      if n >= policy.limit || now - entry.since > policy.retention {
        release(s)
        continue
      }
      perOwner[id] = n + 1
      kept.append(entry)
    }
    cacheRows = kept.reversed()
  }

  /// Adds an explicit lease (an observer that is not a graph edge) to row `s`.
  public func addLease(_ s: Slot) { leases[s] += 1 }

  /// Removes a lease; the row may be released when the operation ends.
  public func removeLease(_ s: Slot) {
    leases[s] -= 1
    if leases[s] == 0 { orphaned.append(s) }
  }
}
