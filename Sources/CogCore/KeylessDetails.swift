import CCogStack
import Synchronization

/// What only some keyless descriptors have: a label, a lifetime other than `.context`, a
/// cache policy, an equality of their own. Its own object, made only when one is given, so
/// that a plain automatic cog's behavior stays at 64 bytes (swift/0008, "Memory per
/// descriptor").
// Safety: immutable `let`s (the equality owner is a `Sendable` `SourceEquality`).
@usableFromInline
package final class KeylessExtras: @unchecked Sendable {
  /// The label given at declaration; empty for the default one.
  @usableFromInline package let givenLabel: String
  @usableFromInline package let cachePolicy: (limit: Int, retention: Duration)?
  /// A manual state's own equality, which the state calls unretained.
  @usableFromInline package let equalityKeeper: AnyObject?
  @usableFromInline package let lifetime: RowLifetime

  @usableFromInline
  init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?
  ) {
    givenLabel = label
    self.lifetime = lifetime
    self.cachePolicy = cachePolicy
    self.equalityKeeper = equalityKeeper
  }

  /// The extras for these, or nil when every one is the default. Always inlined, so that a
  /// declaration with the defaults tests constants and makes no call.
  @inlinable @inline(__always)
  package static func make(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?
  ) -> KeylessExtras? {
    if label.isEmpty && lifetime == .context && cachePolicy == nil && equalityKeeper == nil {
      return nil
    }
    return makeSlow(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: equalityKeeper)
  }

  @inline(never) @usableFromInline
  static func makeSlow(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?
  ) -> KeylessExtras {
    KeylessExtras(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: equalityKeeper)
  }
}

/// What only some keyless descriptors need, kept out of the descriptor object so that a plain
/// manual one stays at 64 bytes (`KeylessState`): its extras (`KeylessExtras`) and, for an
/// automatic one, the behavior its rows run (this object is that behavior:
/// `KeylessBehavior`). A manual one with a label or an equality of its own gets a plain
/// `KeylessDetails`, whose `run` is never called (its rows are sources).
///
/// Rows hold this object, not their descriptor (swift/0008, "Rows hold the details"): the
/// descriptor goes with the app's last reference, and its rows keep what they run. The rows'
/// holds are counted in `rowHolds` by main-actor graph code alone, with plain loads and
/// stores: a locked increment per first read (a retain) waited for the new row's column
/// stores (impl/perf-notes.md, "Stop 46"). The descriptor's own reference keeps the object
/// while it lives; if rows hold it when the descriptor goes, its `deinit` parks a copy of
/// that reference (`descriptorWent`), main-actor graph code hands it to the rows (`orphan`),
/// and the last row's release gives it back. Only main-actor graph code changes `rowHolds`
/// (a `deinit` reads it); the reference count itself is only ever changed atomically.
// Safety: immutable `let`s, and `rowHolds`, which only main-actor graph code changes (see
// above); `run` see base.
@usableFromInline
package class KeylessDetails: RowBehavior, @unchecked Sendable {
  /// The label, lifetime, cache policy and own equality, when any is not the default.
  @usableFromInline package let extras: KeylessExtras?
  /// The rows holding this object, in every context (main-actor graph code only: relaxed
  /// loads and stores, plain moves), with `orphanedBit` set once the descriptor is gone and
  /// its reference is the rows' to give back. An atomic only so that a `let` may change.
  @usableFromInline package let rowHolds = Atomic<Int32>(0)
  @inlinable package static var orphanedBit: Int32 { .min }

  @inlinable
  package init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?, run: @escaping RowRun
  ) {
    extras = KeylessExtras.make(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: equalityKeeper)
    super.init(run: run)
  }

  // `final`, the three: a row's making reads `lifetime`, and a property of this non-final
  // class was otherwise called through its vtable, not inlined (impl/perf-notes.md, "Stop 50").
  /// The label given at declaration; empty for the default one.
  @inlinable package final var givenLabel: String { extras?.givenLabel ?? "" }
  @inlinable package final var cachePolicy: (limit: Int, retention: Duration)? {
    extras?.cachePolicy
  }
  @inlinable package final var lifetime: RowLifetime { extras?.lifetime ?? .context }

  /// A new row holds `details` (main-actor graph code: `Graph.makeKeylessRow`). Static, on
  /// an unretained reference: a method of this non-final class was called through its vtable
  /// with its object retained around the call.
  // Lifetime: the caller's descriptor keeps `details` alive.
  @inlinable @inline(__always) package static func holdRow(_ details: Unmanaged<KeylessDetails>) {
    withGuaranteed(details) { d in
      d.rowHolds.store(d.rowHolds.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }
  }

  /// A row's hold goes (main-actor graph code); the last one of an orphaned object gives the
  /// descriptor's reference back, which may free it. Returns the rows left, or -1 when the
  /// reference was given back.
  // Lifetime: `held` is alive (the rows' count is above zero); it may be freed on return.
  @inlinable @discardableResult
  package static func releaseRow(_ held: Unmanaged<KeylessDetails>) -> Int32 {
    let count = withGuaranteed(held) { d in
      let c = d.rowHolds.load(ordering: .relaxed) &- 1
      d.rowHolds.store(c, ordering: .relaxed)
      return c
    }
    if count == orphanedBit {
      held.release()
      return -1
    }
    return count
  }

  /// Takes the reference of a descriptor that went (`retained`, +1), in main-actor graph
  /// code: the rows' to give back with the last one's release, or given back now if none
  /// holds it.
  // Lifetime: `retained` is a +1 this call consumes.
  @inlinable package static func orphan(_ retained: Unmanaged<KeylessDetails>) {
    let count = withGuaranteed(retained) { $0.rowHolds.load(ordering: .relaxed) }
    if count == 0 {
      retained.release()
    } else {
      withGuaranteed(retained) { $0.rowHolds.store(count | orphanedBit, ordering: .relaxed) }
    }
  }

  /// The descriptor's `deinit` (any thread), when a row of it was ever made. No row holds
  /// this object any more: nothing to do (the `deinit` gives its reference back). Otherwise a
  /// copy of that reference is parked for main-actor graph code to hand to the rows
  /// (`releaseParked`: a sweep, a dropped descriptor's last row's release, a graph's
  /// deinit), or given back here if no graph is alive (then no row is). `rowHolds` is only
  /// read here: no row can be made of a descriptor that is going, so a count read as zero
  /// stays zero, and one read above zero (a row's release racing this) parks, which is safe.
  /// (The main actor's thread cannot be told from here: under `swift test` it is not the
  /// process's main thread.)
  @inlinable package func descriptorWent() {
    if rowHolds.load(ordering: .relaxed) == 0 { return }
    // Lifetime: the descriptor's reference, which its `deinit` is about to give back, is
    // copied here (+1) for the rows: an atomic retain. Every count operation on this object is
    // atomic (the rows count in `rowHolds`), so any thread may make it.
    let retained = Unmanaged.passRetained(self)
    if cog_park_details(retained.toOpaque()) != 0 { Self.takeBackParked(retained) }
  }

  /// `descriptorWent` parked `retained` and then saw no graph alive, so no row holds it: it
  /// takes that one entry back and gives it back, unless graph code took it already. Only its
  /// own: another thread may have parked details for rows of a graph made since the check.
  // Lifetime: `retained` is the +1 `descriptorWent` parked; released once, by whoever took it.
  @usableFromInline @inline(never)
  package static func takeBackParked(_ retained: Unmanaged<KeylessDetails>) {
    if cog_unpark_details(retained.toOpaque()) != 0 { retained.release() }
  }

  /// Hands the parked references (`cog_park_details`) to their rows (`orphan`), in main-actor
  /// graph code. With none parked (the usual case: the release of every dropped descriptor's
  /// last row calls this), one load and no lock.
  @usableFromInline @inline(never)
  package static func releaseParked() {
    if cog_parked_details_pending() == 0 { return }
    withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: 64) { batch in
      while true {
        let n = cog_take_parked_details(batch.baseAddress, batch.count)
        if n == 0 { return }
        for i in 0..<n {
          // Lifetime: each entry is a +1 `descriptorWent` parked.
          let parked = Unmanaged<KeylessDetails>.fromOpaque(batch[i].unsafelyUnwrapped)
          orphan(parked)
        }
      }
    }
  }

  /// A manual state's details (cold: only labeled states and ones with their own equality
  /// have them).
  @inline(never) @usableFromInline
  package static func manual(label: String, equalityKeeper: AnyObject?) -> KeylessDetails {
    KeylessDetails(
      label: label, lifetime: .context, cachePolicy: nil, equalityKeeper: equalityKeeper,
      run: { _, _, _ in false })
  }
}

/// An automatic keyless state's details and rows' behavior, with its body as a `Body` held
/// here rather than captured by `run`: `run` captures nothing, so the graph's call reaches it
/// directly (a capturing closure is entered through a partial-apply forwarder that unpacks
/// its context), and the behavior is one allocation instead of two. `run` is handed this
/// object and reaches `body` with an unchecked downcast.
// Safety: `body` is a `let` of a `Sendable` type; the rest as `KeylessDetails`.
@usableFromInline
package final class KeylessBehavior<Body: Sendable>: KeylessDetails, @unchecked Sendable {
  @usableFromInline package let body: Body
  /// Last: its `deinit` ends the teardown after `body` is released (`Teardown`).
  @usableFromInline let teardown = TeardownHook()

  /// `run` must capture nothing (see above). It finds the row's value column by the row's
  /// `typeIndex` (`Graph.store(_:at:same:)`).
  @inlinable
  package init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    body: Body, run: @escaping RowRun
  ) {
    self.body = body
    super.init(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: nil, run: run)
  }

  // A body may hold other descriptors: their teardown is iterative (`Teardown`).
  deinit { if Teardown.begin() { Teardown.keep(body) } }
}
