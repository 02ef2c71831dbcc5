import CogCore
import Synchronization

/// What a lease's handle holds: the one cancellation resource every copy of the handle
/// (`CogLease`) shares (seed 000 §5). Ending it ends the lease exactly once: a second end, an
/// end from another copy, or one after the context is gone does nothing. Dropping the
/// handles does not end the lease. Internal: apps see only the handles. (Exports have their
/// own, `ExportRegistration`, which also holds the subscription and cancels when dropped.
/// Reactions need no object: their handle names the row, see `CogReaction`.)
///
/// Unchecked exclusivity: the mutable fields otherwise went through dynamic exclusivity
/// checks on every handle's cancel.
@MainActor
@usableFromInline
final class CogRegistration {
  // Safety: main-actor confined and never accessed overlapping (see the class comment).
  @usableFromInline @exclusivity(unchecked) weak var cogs: Cogs?
  /// The leased row.
  @usableFromInline let ref: SlotRef
  @usableFromInline @exclusivity(unchecked) var isCancelled = false

  // Inlinable: a call to an opaque initializer takes `cogs` at +1.
  @inlinable init(cogs: Cogs, ref: SlotRef) {
    self.cogs = cogs
    self.ref = ref
    registrationsAlive.add(1, ordering: .relaxed)
  }

  deinit { registrationsAlive.subtract(1, ordering: .relaxed) }

  /// Ended by a copy, or its context is gone (its rows went with it).
  @usableFromInline var isEnded: Bool { isCancelled || cogs == nil }

  /// Ends the lease; safe to call any number of times.
  @usableFromInline func cancel() {
    if isCancelled { return }
    isCancelled = true
    cogs?.graph.endLease(ref)
  }
}

/// An export's registration (see `Cogs.export`): the subscription, shared by every copy of
/// the `CogExport` and its iterators; cancelled once, by `cancel()`, by the consuming task's
/// cancellation, or when the last copy goes (its isolated `deinit` runs on the main actor).
@MainActor
@usableFromInline
final class ExportRegistration {
  // Safety: main-actor confined and never accessed overlapping (see the class comment).
  @usableFromInline @exclusivity(unchecked) weak var cogs: Cogs?
  @usableFromInline let sink: ExportSink
  @usableFromInline @exclusivity(unchecked) var isCancelled = false

  @inlinable init(cogs: Cogs, sink: ExportSink) {
    self.cogs = cogs
    self.sink = sink
    registrationsAlive.add(1, ordering: .relaxed)
  }

  isolated deinit {
    cancel()
    registrationsAlive.subtract(1, ordering: .relaxed)
  }

  /// Cancelled, or its context is gone (which finished the sequence).
  @usableFromInline var isEnded: Bool { isCancelled || cogs == nil }

  /// Ends the subscription (returns its lease, finishes the sequence); safe to repeat.
  @usableFromInline func cancel() {
    if isCancelled { return }
    isCancelled = true
    cogs?.graph.removeExport(sink)
    sink.finish()
  }
}
