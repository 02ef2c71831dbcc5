/// Dropped descriptors (seed 000 §7: "ARC owns descriptors. The app context arena owns state
/// rows."): a context holds the owner of each of its rows (`OwnerRef`), so a row never
/// outlives the descriptor that runs it; a descriptor whose only strong references are the
/// contexts' holds has been dropped by the app, and nothing can name its rows again. A sweep
/// finds such descriptors and releases their unobserved rows, then gives the holds back, and
/// the descriptor goes.
///
/// Sweeps run only when the graph is idle: after a flush once enough owners were registered
/// since the last sweep (`sweepIfDue`), and when the app asks (`sweepDropped`). A sweep walks
/// every owner, so "enough" is a quarter of them: sweeping then costs O(1) per registered
/// owner, amortized, and a flush that registered none pays one comparison. A context can turn
/// the automatic sweep off (`ContextMaps.sweepsAfterFlush`; the benchmark adapters do, and
/// sweep untimed: swift/0008-descriptor-lifetime.md).
///
/// Releasing a row unlinks its dependencies; those whose descriptors were held only by the
/// released descriptor's body are dropped in turn, and the collector releases them in the same
/// loop (`collectSlow`, while `sweeping`). A chain of a million automatic cogs therefore goes
/// row by row, iteratively: the graph gives each descriptor its last release itself.
extension Graph {
  /// After a flush: sweeps when the owners registered since the last sweep reach a quarter
  /// of all owners.
  @inlinable @inline(__always)
  func sweepIfDue() {
    let added = maps.ownersAddedSinceSweep
    if _fastPath(added == 0) { return }
    if Int(added) &* 4 < maps.descriptors.count || !maps.sweepsAfterFlush { return }
    sweepDropped()
  }

  /// Releases the unobserved rows of every dropped descriptor, and of those it held in turn.
  /// Runs when the graph is idle and outside turns (a call from a body or a turn does
  /// nothing: the next due flush sweeps).
  @inline(never) @inlinable
  package func sweepDropped() {
    if !isIdle || turns.activeTurn != 0 || turns.isFlushing { return }
    maps.ownersAddedSinceSweep = 0
    var dropped: [Int32] = []
    for (key, entry) in maps.descriptors where ownerIsDropped(entry.owner) {
      dropped.append(key.id)
    }
    if dropped.isEmpty { return }
    maps.sweeping = true
    for id in dropped { releaseDropped(id) }
    collectSlow()
    maps.sweeping = false
  }

  /// Whether the row of a dropped descriptor may go: no subscriber (a body that read it
  /// without keeping its descriptor keeps it until that body reruns) and no lease (an export
  /// or a `CogLease` the app still holds).
  @inlinable
  func isUnobserved(_ s: Slot) -> Bool {
    !edges.hasSubscribers(s) && rows.leases[s] == 0
  }

  /// Releases the unobserved rows of dropped descriptor `id`; once it has none left here,
  /// forgets it (its key storage too, for a keyed box) and gives the hold back.
  @inline(never) @inlinable
  package func releaseDropped(_ id: Int32) {
    let key = DescriptorKey(id)
    if maps.keyIndexes[key] != nil {
      // A dropped box: its rows, found in the columns (cold: once per dropped box).
      var left = 0
      for raw in 0..<rows.count {
        let s = Slot(Int32(raw))
        if rows.descriptor[s] != id || rows.flags[s].contains(.released) { continue }
        if isUnobserved(s) { release(s) } else { left += 1 }
      }
      if left > 0 { return }
      maps.keyIndexes[key] = nil
    } else {
      let s = slot(ofDescriptor: id)
      if !s.isNone {
        if !isUnobserved(s) { return }
        release(s)
      }
    }
    removeOwner(of: id)
  }

  /// Part of `collectSlow` while sweeping: an orphaned row, of any lifetime, goes if its
  /// descriptor is dropped now (the row that read it was just released), and the hold with
  /// the descriptor's last row.
  @inlinable
  func releaseIfDropped(_ s: Slot) {
    let id = rows.descriptor[s]
    guard let entry = maps.descriptors[DescriptorKey(id)], ownerIsDropped(entry.owner) else {
      return
    }
    releaseDropped(id)
  }
}
