import CogCore
import Synchronization

/// What a reaction's or a lease's handle holds: the one cancellation resource every copy of
/// the handle (`CogReaction`, `CogLease`) shares (seed 000 §5). Cancelling it frees what it
/// held (the reaction's row, edges and body; the lease) exactly once: a second cancel, a
/// cancel from another copy, or one after the context is gone does nothing. Dropping the
/// handles does not cancel: reactions and leases live until cancelled. Internal: apps see
/// only the handles. (Exports have their own, `ExportRegistration`, which also holds the
/// subscription and cancels when dropped.)
///
/// Plain fields, not an enum of what is held, and unchecked exclusivity: copying and
/// destroying a multi-payload enum went through outlined value witnesses, and the mutable
/// fields through dynamic exclusivity checks (about 250 instructions per registration and
/// cancel, measured on sbench/createComputations). The object is 32 bytes (header 16,
/// cogs 8, ref 6, the flags 2), the size of the reaction class it replaced.
@MainActor
@usableFromInline
final class CogRegistration {
  @usableFromInline enum Kind: UInt8 {
    case reaction
    case lease
  }

  @usableFromInline @exclusivity(unchecked) weak var cogs: Cogs?
  /// The reaction's or the leased row.
  @usableFromInline let ref: SlotRef
  @usableFromInline let kind: Kind
  @usableFromInline @exclusivity(unchecked) var isCancelled = false

  // Inlinable: a call to an opaque initializer takes `cogs` at +1.
  @inlinable init(cogs: Cogs, kind: Kind, ref: SlotRef) {
    self.cogs = cogs
    self.kind = kind
    self.ref = ref
    registrationsAlive.add(1, ordering: .relaxed)
  }

  deinit { registrationsAlive.subtract(1, ordering: .relaxed) }

  /// Frees what the registration held; safe to call any number of times. The graph is
  /// reached through one optional chain: holding it in a local costs a retain and a release
  /// per cancel (measured on sbench/createComputations, whose region cancels 1,000 reactions).
  @usableFromInline func cancel() {
    if isCancelled { return }
    isCancelled = true
    switch kind {
    case .reaction: cogs?.graph.cancelReaction(ref)
    case .lease: cogs?.graph.endLease(ref)
    }
  }
}

/// An export's registration (see `Cogs.export`): the subscription, shared by every copy of
/// the `CogExport` and its iterators; cancelled once, by `cancel()`, by the consuming task's
/// cancellation, or when the last copy goes (its isolated `deinit` runs on the main actor).
@MainActor
@usableFromInline
final class ExportRegistration {
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

  /// Ends the subscription (returns its lease, finishes the sequence); safe to repeat.
  @usableFromInline func cancel() {
    if isCancelled { return }
    isCancelled = true
    cogs?.graph.removeExport(sink)
    sink.finish()
  }
}

/// Registrations (reactions, leases, exports) alive in the process: tests count them after
/// register/cancel churn.
@usableFromInline let registrationsAlive = Atomic<Int>(0)
