/// What reads the graph from outside (seed 000 §6, §8): Observation boundaries made by UI
/// reads, and export subscribers. Both make their row a *watched* hot root: push (or publish,
/// for a source) adds it to `maps.roots`, and the flush settles the roots (step 3), tells the
/// boundaries whose value changed (step 4) and offers the exports their values (step 5)
/// before any reaction runs (step 6). A context that watches nothing pays one count check per
/// turn (`settleRootsIfWatched`).
extension Graph {
  // MARK: UI reads

  /// A UI read: the current value of `n`, with access registered on its row's boundary (made
  /// on the row's first UI read). Inside a body it is also a tracked read.
  @inlinable
  package func uiRead<N: StateName>(_ n: N) -> N.Value where N.Edges == Edges {
    let s = n.resolve(in: self)
    if _slowPath(!rows.flags[s].contains(.observed)) { return firstUIRead(n, s) }
    let b = boundary(of: s)
    let v = read(n, .tracked)
    b.access()
    return v
  }

  /// The first UI read of row `s`: pins the row (a lease that is never returned: v1 keeps
  /// boundaries for the context's life, since SwiftUI does not report when a view stops
  /// observing), reads it, and makes its boundary at the value this first reader sees.
  @inline(never) @inlinable
  func firstUIRead<N: StateName>(_ n: N, _ s: Slot) -> N.Value where N.Edges == Edges {
    addLease(s)
    let v = read(n, .tracked)
    let b = Boundary(row: ref(s), notifiedAt: rows.changedAt[s])
    Graph.setSparse(&maps.boundaryIndex, s, Int32(truncatingIfNeeded: maps.boundaries.count))
    maps.boundaries.append(b)
    rows.flags[s].insert(.observed)
    maps.watchers += 1
    b.access()
    return v
  }

  /// The boundary of row `s`, or nil (creates nothing).
  @inlinable package func existingBoundary(of s: Slot) -> Boundary? {
    if s.isNone || !rows.flags[s].contains(.observed) { return nil }
    return boundary(of: s)
  }

  /// The boundary of the observed row `s`.
  @inlinable func boundary(of s: Slot) -> Boundary {
    maps.boundaries[Int(maps.boundaryIndex[Int(s.raw)])]
  }

  /// How many boundaries (and so `ObservationRegistrar`s) this context owns.
  @inlinable package var boundaryCount: Int { maps.boundaries.count }

  // MARK: Exports

  /// Subscribes `sink` to its row: a lease keeps the row (a `.whileObserved` row lives while
  /// exported), and the flush offers it every changed value. The caller offers the first one.
  @inlinable package func addExport(_ sink: ExportSink) {
    let s = sink.row.slot
    addLease(s)
    rows.flags[s].insert(.exported)
    maps.exports[s.raw, default: []].append(sink)
    maps.watchers += 1
  }

  /// Ends `sink`'s subscription and returns its lease (the row may go when the operation
  /// ends); harmless if it already ended.
  @inlinable package func removeExport(_ sink: ExportSink) {
    let s = sink.row.slot
    guard rows.generation[s] == sink.row.generation, var list = maps.exports[s.raw],
      let j = list.firstIndex(where: { $0 === sink })
    else { return }
    list.remove(at: j)
    if list.isEmpty {
      maps.exports[s.raw] = nil
      rows.flags[s].remove(.exported)
    } else {
      maps.exports[s.raw] = list
    }
    maps.watchers -= 1
    removeLease(s)
    collect()
  }

  /// Offers row `s`'s current value to `sink` if it has not had it.
  @inlinable package func offer(_ s: Slot, to sink: ExportSink) {
    let at = rows.changedAt[s]
    if sink.offeredAt == at { return }
    sink.offeredAt = at
    guard rows.flags[s].contains(.hasValue), let base = valueBase[Int(rows.typeIndex[s])] else {
      return
    }
    let serial = sink.offered &+ 1
    if sink.offer(base, Int(rows.valueIndex[s]), serial) { sink.offered = serial }
  }

  /// Whether a value is on its way to an export's consumer on the main actor.
  @inlinable package var isDeliveringExports: Bool {
    maps.exports.values.contains { $0.contains { $0.isDelivering } }
  }

  // MARK: The flush's steps 3–5

  /// Flush steps 3–5, when anything is watched (one count check otherwise).
  @inlinable @inline(__always)
  func settleRootsIfWatched(changed: Bool) {
    if _slowPath(maps.watchers > 0) { settleRoots(changed: changed) }
  }

  /// Step 3: brings every watched root push or publish reached up to date (cold branches,
  /// which no root reads, stay flagged). Step 4: tells each boundary whose row's value
  /// changed (`changedAt` moved), once. Step 5: offers each export subscriber the new value.
  /// Reactions (step 6) run after, so an observer told here and a reaction see one state.
  ///
  /// A root whose settle meets a cycle has the cycle reported and waits in `blockedRoots`
  /// (push stops at stale rows, as for reactions); a flush that changed something retries it.
  @inline(never) @inlinable
  func settleRoots(changed: Bool) {
    if changed && !maps.blockedRoots.isEmpty {
      for r in maps.blockedRoots where rows.generation[r.slot] == r.generation {
        maps.roots.append(r.slot)
      }
      maps.blockedRoots.removeAll()
    }
    if maps.roots.isEmpty { return }
    var i = 0
    while i < maps.roots.count {
      let s = maps.roots[i]
      let f = rows.flags[s]
      if !f.isDisjoint(with: .stale) && !f.contains(.released) {
        refresh(s)
        if _slowPath(isFailing) {
          reportCycle()
          maps.blockedRoots.append(ref(s))
        }
      }
      i &+= 1
    }
    // Observers' `onChange` runs inside `notify`: user code, which may make new boundaries
    // (a UI read), so the lists are read by index, afresh each time.
    i = 0
    while i < maps.roots.count {
      let s = maps.roots[i]
      if rows.flags[s].contains(.observed) {
        let b = boundary(of: s)
        let at = rows.changedAt[s]
        if b.notifiedAt != at {
          b.notifiedAt = at
          b.notify()
        }
      }
      i &+= 1
    }
    i = 0
    while i < maps.roots.count {
      let s = maps.roots[i]
      if rows.flags[s].contains(.exported), let sinks = maps.exports[s.raw] {
        for sink in sinks { offer(s, to: sink) }
      }
      i &+= 1
    }
    maps.roots.removeAll(keepingCapacity: true)
  }

  /// The context is going away: every export's sequence ends.
  @inlinable package func endExports() {
    for (_, sinks) in maps.exports { for sink in sinks { sink.finish() } }
  }
}
