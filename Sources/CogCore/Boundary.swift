import Observation

/// An Observation boundary (seed 000 §6): what a UI read of one row registers with, made on
/// the row's first UI read and pinned to the context (v1). The row's `boundary` column holds
/// its index in `ContextMaps.boundaries`; `-1` until then, so interior rows never own an
/// `ObservationRegistrar` (a 1,000-row graph with 12 UI-read values owns 12).
///
/// The value lives in the graph, not here: observers register on one fixed phantom key path
/// (`keyPath`), and the flush calls `withMutation` on it only when the row's `changedAt`
/// moved past `notifiedAt` (an equal, backdated result notifies nothing).
///
/// Not main-actor isolated (`Observable` requires nothing, and the registrar is `Sendable`);
/// its mutable fields are touched only by the graph, on the main actor.
// Safety: the registrar is `Sendable`; the other fields are touched only on the main actor.
@usableFromInline
package final class Boundary: Observable, @unchecked Sendable {
  @usableFromInline package let registrar = ObservationRegistrar()
  /// The row it watches (pinned: the row keeps a lease for the boundary).
  @usableFromInline package let row: SlotRef
  /// The row's `changedAt` when observers were last told (or when the boundary was made).
  @usableFromInline package var notifiedAt: UInt32

  @usableFromInline package init(row: SlotRef, notifiedAt: UInt32) {
    self.row = row
    self.notifiedAt = notifiedAt
  }

  /// The phantom property observers register on; it carries no value.
  @usableFromInline package var phantom: Int { 0 }

  /// The one key path of every boundary (made once, not per access).
  @usableFromInline nonisolated(unsafe) package static let keyPath: KeyPath<Boundary, Int> =
    \.phantom

  /// Registers the access with whatever observation tracking is running (SwiftUI's body,
  /// `withObservationTracking`, `Observations`); nothing when none is.
  @inlinable package func access() { registrar.access(self, keyPath: Boundary.keyPath) }

  /// Tells the observers that the value changed (their `onChange` runs now, synchronously).
  @inlinable package func notify() {
    registrar.withMutation(of: self, keyPath: Boundary.keyPath) {}
  }
}

/// One export subscriber (seed 000 §8, flush step 5): the flush offers it the row's value
/// after every turn that changed it. The binding's closures read the typed value and hand it
/// to the subscriber's buffer without waiting (a slow consumer never holds up a turn).
@MainActor
@usableFromInline
package final class ExportSink {
  /// The row it exports (kept alive by the export's lease).
  @usableFromInline package let row: SlotRef
  /// The row's `changedAt` when a value was last offered.
  @usableFromInline package var offeredAt: UInt32 = 0
  /// Hands the row's value to the buffer: entry `index` of the typed column whose storage
  /// starts at `base` (a buffer of `Value?`), numbered `serial`. Returns whether it did.
  @usableFromInline package let offer: @MainActor (UnsafeMutableRawPointer, Int, UInt32) -> Bool
  /// Ends the subscriber's sequence (its export was cancelled, or the context went away).
  @usableFromInline package let finish: @MainActor () -> Void
  /// The serial of the last value handed to the buffer (they count from 1).
  @usableFromInline package var offered: UInt32 = 0
  /// The serial of the last value a consumer on the main actor received.
  @usableFromInline package var received: UInt32 = 0
  /// A consumer on the main actor is in `next()` (the binding's iterator says so). A value it
  /// has not received reaches it through the global executor, after any number of main-actor
  /// yields: `Cogs.settle` waits for it (`isDelivering`).
  @usableFromInline package var consumerWaits = false

  /// Whether a value is on its way to a consumer on the main actor.
  @inlinable package var isDelivering: Bool { consumerWaits && received != offered }

  @usableFromInline package init(
    row: SlotRef, offer: @escaping @MainActor (UnsafeMutableRawPointer, Int, UInt32) -> Bool,
    finish: @escaping @MainActor () -> Void
  ) {
    self.row = row
    self.offer = offer
    self.finish = finish
  }
}
