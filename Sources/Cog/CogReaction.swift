import CogCore
import CogEdgePool
import CogTypedKey

/// What a reaction's body sees: tracked reads, untracked reads, and `turn` to schedule writes
/// (they run as later turns, first in first out, after the current flush).
@MainActor @frozen
public struct CogReactionContext {
  // Lifetime: unretained; its `Cogs` owns the graph; `inBody` checks it first (escapedContext).
  @usableFromInline let graph: Unmanaged<CogGraph>
  @usableFromInline let slot: Slot

  @inlinable init(graph: CogGraph, slot: Slot) {
    // Lifetime: see `graph`: checked by `inBody` before each use.
    self.graph = Unmanaged.passUnretained(graph)
    self.slot = slot
  }

  /// Reads `cog` and depends on it: the reaction runs again after a turn that changes it.
  @inlinable @inline(__always) public subscript<T>(cog: Cog<T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(cog, .tracked) }
  }

  /// Reads the keyed state `ref` and depends on it.
  @inlinable @inline(__always) public subscript<K, T>(ref: CogRef<K, T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(ref.name, .tracked) }
  }

  /// Reads `cog` without depending on it: its changes alone do not run the reaction again.
  @inlinable public func peek<T>(_ cog: Cog<T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(cog, .peek) }
  }

  /// Reads the keyed state `ref` without depending on it.
  @inlinable public func peek<K, T>(_ ref: CogRef<K, T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(ref.name, .peek) }
  }

  /// Whether the async cog `cog` has work in flight, and its last failure (`.idle` for a cog
  /// that is not async); depends on `cog` and on its status.
  @inlinable public func status<T>(of cog: Cog<T>) -> CogAsyncStatus {
    withGuaranteed(CogGraph.inBody(graph)) { $0.readAsyncStatus(cog, .tracked) }
  }

  /// Schedules a turn that runs after the current flush (FIFO with other scheduled turns).
  @inlinable public func turn(_ name: StaticString, _ body: @escaping (CogWriter) -> Void) {
    let g = CogGraph.inBody(graph).takeUnretainedValue()
    g.schedule(name, by: g.ref(slot)) { g, id in body(CogWriter(graph: g, turn: id)) }
  }
}

/// A registered reaction. Cancelling releases its row, its edges and its body; cancelling
/// twice, from any copy, or after the context is gone, is harmless. Dropping the handle does
/// not cancel: the reaction lives until `cancel()` or the end of its context.
///
/// The handle is a value that names the reaction's row (slot, generation and the
/// registration's own descriptor id, never reused) and its context's `GraphHandle` (one per
/// context), with no object of its own: every copy
/// sees the one row, so a cancel from any copy is seen by all. Registering a reaction
/// allocates its body's closure context and one object the context keeps (`ReactionRow`).
@MainActor
public struct CogReaction {
  // Lifetime: `GraphHandle`s are pooled, never freed; `isLiveReaction` checks `id` before use.
  @usableFromInline let graph: Unmanaged<GraphHandle<SharedEdgePool>>
  @usableFromInline let ref: SlotRef
  @usableFromInline let id: Int32

  @inlinable init(graph: CogGraph, ref: SlotRef, id: Int32) {
    // Lifetime: handles are never freed (see `graph`).
    self.graph = Unmanaged.passUnretained(graph.handle)
    self.ref = ref
    self.id = id
  }

  /// Whether the reaction no longer runs: it was cancelled (from any copy), or its context
  /// is gone.
  public var isCancelled: Bool {
    guard let g = withGuaranteed(graph, { $0.graph }) else { return true }
    return !withGuaranteed(g) { $0.isLiveReaction(ref, id: id) }
  }

  /// Stops the reaction: its row, its edges and its body are released now. Harmless when it
  /// was already cancelled or its context is gone.
  public func cancel() {
    if let g = withGuaranteed(graph, { $0.graph }) {
      withGuaranteed(g) { $0.cancelReaction(ref, id: id) }
    }
  }
}

/// A reaction's body as the app gave it (a struct: see `TypedReactionRow`).
@usableFromInline
struct ReactionBody {
  @usableFromInline let run: @MainActor (CogReactionContext) -> Void
  @inlinable init(_ run: @escaping @MainActor (CogReactionContext) -> Void) { self.run = run }
}

/// Keeps a state's row alive until `end()` (any copy; ending twice is harmless).
@MainActor
public struct CogLease {
  @usableFromInline let registration: CogRegistration

  @inlinable init(cogs: Cogs, ref: SlotRef) {
    registration = CogRegistration(cogs: cogs, ref: ref)
  }

  /// Whether the lease no longer holds the row: ended (from any copy), or its context is
  /// gone.
  public var isEnded: Bool { registration.isEnded }

  /// Returns the lease: a `.whileObserved` or `.cache` state that nothing else observes is
  /// then released (or cached) as its lifetime says. Harmless when already ended.
  public func end() { registration.cancel() }
}
