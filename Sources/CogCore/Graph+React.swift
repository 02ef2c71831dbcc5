import CCogStack
import Synchronization

extension Graph {
  /// Registers the reaction `row` (its `run` calls the body and returns `false`: a reaction
  /// has no value). The body runs now, then once after every turn in which a state it read
  /// changed, in registration order.
  ///
  /// `row` comes retained, and that reference becomes the graph's: it keeps the object until
  /// the row is released (`cancelReaction`) or the graph goes, which frees the body. Callers
  /// make it with `passRetained(consume object)` right after constructing the object, where
  /// the retain and the construction's release fold away (a retain taken here cost a retain
  /// and a release per reaction).
  ///
  /// Returns the row and its id (unique to this registration, so that a handle kept after its
  /// row was released and the slot reused names nothing: see `Reactions`).
  ///
  /// A registration run that meets a cycle has the cycle reported; the reaction is run again
  /// after every later turn that changes something, until it runs without one.
  // Lifetime: `row` comes retained (+1); the graph owns that reference until `endReaction`.
  @inlinable package func react(_ row: Unmanaged<ReactionRow>) -> (
    ref: SlotRef, id: Int32
  ) {
    if _slowPath(!canStartOperation) {
      misplaced("reaction '\(withGuaranteed(row) { $0.name })' was registered")
    }
    let id = Reactions.register()
    // Stored unretained from `row` itself: no strong local (that cost a retain and a release),
    // and no closure around `allocateRow` (`withGuaranteed`'s, which kept it out of line).
    let s = allocateRow(
      kind: .reaction, descriptor: id, typeIndex: -1, valueIndex: -1,
      behavior: BehaviorRef(unretained: row), lifetime: .context)
    let r = ref(s)
    // The new row is dirty and has no dependencies: it runs now, as `refresh` would run it,
    // in this frame rather than `refresh`'s (impl/perf-notes.md, "Stop 58").
    if isFailing { leaveStale(s) } else { recompute(s) }
    if isFailing { reactionFailed(s) }
    collect()
    drainScheduled()
    return (r, id)
  }

  /// Whether the reaction registered as `r` with id `id` (`Reactions`) still has its row.
  @inlinable package func isLiveReaction(_ r: SlotRef, id: Int32) -> Bool {
    Int(r.slot.raw) < rows.count && rows.generation[r.slot] == r.generation
      && rows.descriptor[r.slot] == id && !rows.flags[r.slot].contains(.released)
  }

  /// Cancels the reaction registered as `r` with id `id` (`Reactions`); harmless if it is gone.
  @inlinable package func cancelReaction(_ r: SlotRef, id: Int32) {
    if !isLiveReaction(r, id: id) { return }
    release(r.slot)
    collect()
  }

  /// Part of `release` (and of the graph's `deinit`): gives back the graph's reference to the
  /// reaction object of a released row, which frees its body.
  @inlinable @inline(never) package func endReaction(_ b: BehaviorRef) {
    Reactions.alive &-= 1
    // Released without a locked operation (`cog_nonatomic_release`, the runtime's
    // `swift_nonatomic_release`): a reaction object is `@MainActor` and held by its graph
    // alone, so its count is only ever touched on one thread. The last decrement's locked
    // compare-and-swap waited for the release's column stores (48 instructions a cancel, and
    // 0.92–1.03× `sbench` `create*`'s wall time: impl/perf-notes.md, "Stop 45").
    if let object = b.object { cog_nonatomic_release(object.toOpaque()) }
  }

  /// The name of reaction row `s` (error and debug paths).
  @inlinable package func reactionName(_ s: Slot) -> String? {
    guard let b = rows.behavior[s].object else { return nil }
    // Safety: `describe` calls it for `.reaction` rows only, whose behavior `react` stored.
    return withGuaranteed(b) { "\(unsafeDowncast($0, to: ReactionRow.self).name)" }
  }

  /// Gives back every live reaction object (the graph's `deinit`).
  @usableFromInline func endAllReactions() {
    for i in 0..<rows.count {
      let s = Slot(i)
      let f = rows.flags[s]
      if f.contains(.reaction) && !f.contains(.released) {
        let b = rows.behavior[s]
        rows.behavior[s] = BehaviorRef(nil)
        endReaction(b)
      }
    }
  }
}
