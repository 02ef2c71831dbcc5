import CogCore
import Synchronization

/// What a registration holds in its context: the one cancellation resource every copy of a
/// handle (`CogReaction`, `CogLease`, `CogExport`) shares (seed 000 §5). Cancelling it frees
/// what it held (the reaction's row, edges and body; the lease; the export's subscription
/// and lease) exactly once: a second cancel, a cancel from another copy, or one after the
/// context is gone does nothing. Internal: apps see only the handles.
@MainActor
@usableFromInline
final class CogRegistration {
  @usableFromInline enum Held {
    case reaction(SlotRef)
    case lease(SlotRef)
    case export(ExportSink)
  }

  @usableFromInline weak var cogs: Cogs?
  /// What is still held; nil once cancelled.
  @usableFromInline var held: Held?
  /// Whether dropping the last handle cancels it (exports: dropping the sequence ends the
  /// subscription). Reactions and leases live until cancelled, as documented.
  @usableFromInline let cancelsWhenDropped: Bool

  // Inlinable: a call to an opaque initializer takes `cogs` at +1 (a retain and a release
  // per registration, measured on sbench/createComputations).
  @inlinable init(cogs: Cogs, holding held: Held, cancelsWhenDropped: Bool = false) {
    self.cogs = cogs
    self.held = held
    self.cancelsWhenDropped = cancelsWhenDropped
    CogRegistration.live.add(1, ordering: .relaxed)
  }

  isolated deinit {
    if cancelsWhenDropped { cancel() }
    CogRegistration.live.subtract(1, ordering: .relaxed)
  }

  @usableFromInline var isCancelled: Bool { held == nil }

  /// Frees what the registration held; safe to call any number of times. Each case reaches
  /// the graph through one optional chain: holding the graph in a local costs a retain and a
  /// release per cancel (measured on sbench/createComputations, whose region cancels 1,000
  /// reactions).
  @usableFromInline func cancel() {
    guard let h = held else { return }
    held = nil
    switch h {
    case .reaction(let r): cogs?.graph.cancelReaction(r)
    case .lease(let r): cogs?.graph.endLease(r)
    case .export(let sink):
      cogs?.graph.removeExport(sink)
      sink.finish()
    }
  }

  /// Registrations alive in the process (tests count them after register/cancel churn).
  @usableFromInline nonisolated static let live = Atomic<Int>(0)
}
