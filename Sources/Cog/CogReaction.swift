import CogCore
import CogEdgePool
import CogInlineKey

/// What a reaction's body sees: tracked reads, untracked reads, and `turn` to schedule writes
/// (they run as later turns, first in first out, after the current flush).
@MainActor @frozen
public struct CogReactionContext {
  @usableFromInline let graph: Unmanaged<CogGraph>
  @usableFromInline let slot: Slot

  @inlinable init(graph: CogGraph, slot: Slot) {
    self.graph = Unmanaged.passUnretained(graph)
    self.slot = slot
  }

  @inlinable @inline(__always) public subscript<T>(cog: Cog<T>) -> T {
    withGuaranteed(graph) { $0.read(cog, .tracked) }
  }
  @inlinable public subscript<T>(ref: CogRef<T>) -> T {
    withGuaranteed(graph) { $0.read(ref.name, .tracked) }
  }
  @inlinable public func peek<T>(_ cog: Cog<T>) -> T {
    withGuaranteed(graph) { $0.read(cog, .peek) }
  }
  @inlinable public func peek<T>(_ ref: CogRef<T>) -> T {
    withGuaranteed(graph) { $0.read(ref.name, .peek) }
  }

  /// Whether the async cog `cog` has work in flight, and its last failure (`.idle` for a cog
  /// that is not async); depends on `cog` and on its status.
  @inlinable public func status<T>(of cog: Cog<T>) -> CogAsyncStatus {
    withGuaranteed(graph) { $0.readAsyncStatus(cog, .tracked) }
  }

  /// Schedules a turn that runs after the current flush (FIFO with other scheduled turns).
  @inlinable public func turn(_ name: StaticString, _ body: @escaping (CogWriter) -> Void) {
    let g = graph.takeUnretainedValue()
    g.schedule(name, by: g.ref(slot)) { g, id in body(CogWriter(graph: g, turn: id)) }
  }
}

/// A registered reaction. Cancelling releases its row, its edges and its body; cancelling
/// twice, from any copy, or after the context is gone, is harmless. Dropping the handle does
/// not cancel: the reaction lives until `cancel()` or the end of its context.
@MainActor
public struct CogReaction {
  @usableFromInline let registration: CogRegistration

  @inlinable init(cogs: Cogs, ref: SlotRef) {
    registration = CogRegistration(cogs: cogs, kind: .reaction, ref: ref)
  }

  public var isCancelled: Bool { registration.isCancelled }

  public func cancel() { registration.cancel() }
}

/// Keeps a state's row alive until `end()` (any copy; ending twice is harmless).
@MainActor
public struct CogLease {
  @usableFromInline let registration: CogRegistration

  @inlinable init(cogs: Cogs, ref: SlotRef) {
    registration = CogRegistration(cogs: cogs, kind: .lease, ref: ref)
  }

  public var isEnded: Bool { registration.isCancelled }

  public func end() { registration.cancel() }
}
