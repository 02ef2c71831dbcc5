import CCogStack

/// Dropped descriptors (seed 000 §7: "ARC owns descriptors. The app context arena owns state
/// rows."). A keyless row does not hold its descriptor: it holds its details (what it runs
/// and names: `KeylessDetails`), or nothing (a plain manual state's), so the descriptor goes
/// with the app's last reference. Its `deinit`, on whatever thread, marks its id (one that
/// made rows: `KeylessCache.descriptorDeinit`) and hands its details to the rows; a sweep
/// finds the rows by that mark (`keylessIsDropped`), never touching the freed object. A
/// keyed box's rows are held through its record (`ContextMaps.owners`): a box whose only
/// strong references are the contexts' records has been dropped (`OwnerRecord.isDropped`).
/// A sweep releases the unobserved rows of dropped descriptors; the last row's release gives
/// the details back, and the body goes.
///
/// Sweeps run only when the graph is idle: after a flush once enough owners were registered
/// since the last sweep (`sweepIfDue`), and when the app asks (`sweepDropped`). A sweep walks
/// every row (a plain manual row counts as a hold), so "enough" is a quarter of the holds:
/// sweeping then costs O(1) per hold taken, amortized, and a flush that registered none pays
/// one comparison. A context can turn the automatic sweep off (`ContextMaps.sweepsAfterFlush`;
/// the benchmark adapters do, and sweep untimed: swift/0008-descriptor-lifetime.md).
///
/// Releasing a row unlinks its dependencies; those whose descriptors were held only by the
/// released descriptor's body are dropped in turn (their `deinit` runs inside the release),
/// and the collector releases them in the same loop (`collectSlow`, while the queue's
/// `sweeping` is set: it keeps every row then). A chain of a million automatic cogs
/// therefore goes row by row, iteratively.
extension Graph {
  /// After a flush: sweeps when the holds taken since the last sweep reach a quarter of all
  /// holds.
  @inlinable @inline(__always)
  func sweepIfDue() {
    let added = maps.ownersAddedSinceSweep
    if _fastPath(added == 0) { return }
    if !maps.sweepsAfterFlush || Int(added) &* 4 < maps.holdCount { return }
    sweepDropped()
  }

  /// Releases the unobserved rows of every dropped descriptor, and of those it held in turn.
  /// Runs when the graph is idle and outside turns (a call from a body or a turn does
  /// nothing: the next due flush sweeps).
  @inline(never) @inlinable
  package func sweepDropped() {
    if !isIdle || turns.activeTurn != 0 || turns.isFlushing { return }
    maps.ownersAddedSinceSweep = 0
    // Details parked by descriptors that went while rows held them (`descriptorWent`).
    KeylessDetails.releaseParked()
    var droppedRows: [Slot] = []
    for raw in 0..<rows.count where keylessIsDropped(Slot(Int32(raw))) {
      droppedRows.append(Slot(Int32(raw)))
    }
    var droppedRecords: [Int32] = []
    for (key, record) in maps.owners where record.isDropped { droppedRecords.append(key.id) }
    if droppedRows.isEmpty && droppedRecords.isEmpty { return }
    work.orphaned.sweeping = true
    for s in droppedRows where isUnobserved(s) { release(s) }
    for id in droppedRecords { releaseDropped(id) }
    collectSlow()
    work.orphaned.sweeping = false
  }

  /// Whether the row of a dropped descriptor may go: no subscriber (a body that read it
  /// without keeping its descriptor keeps it until that body reruns) and no lease (an export
  /// or a `CogLease` the app still holds).
  @inlinable
  func isUnobserved(_ s: Slot) -> Bool {
    !edges.hasSubscribers(s) && !rows.flags[s].contains(.leased)
  }

  /// Releases the unobserved rows of the dropped keyed box `id`; once it has none left here,
  /// forgets it (its key storage too) and gives the hold back. (A record the graph made
  /// itself is never dropped; its row goes with its async row.)
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
    }
    removeOwner(of: id)
  }

  /// Whether row `s`'s descriptor has been dropped by the app (its hold, or its record's).
  @inlinable
  func isDropped(_ s: Slot) -> Bool {
    if keylessIsDropped(s) { return true }
    return maps.owners[DescriptorKey(rows.descriptor[s])]?.isDropped ?? false
  }

  /// Part of `collectSlow` while sweeping: an orphaned row, of any lifetime, goes if its
  /// descriptor is dropped now (the row that read it was just released).
  @inlinable
  func releaseIfDropped(_ s: Slot) {
    if keylessIsDropped(s) {
      if isUnobserved(s) { release(s) }
      return
    }
    let id = rows.descriptor[s]
    guard let record = maps.owners[DescriptorKey(id)], record.isDropped else { return }
    releaseDropped(id)
  }

  /// The context's holds go (its deinit): every keyless row's and every record's.
  @inlinable
  func releaseHolds() {
    for raw in 0..<maps.holds.count {
      let s = Slot(Int32(raw))
      if let held = maps.holds[s] {
        maps.holds[s] = nil
        KeylessDetails.releaseRow(held)
      }
    }
    for record in maps.owners.values { record.owner.release() }
    maps.owners.removeAll()
    maps.holdCount = 0
  }
}
