/// What a running row (computed or reaction) does: one object per descriptor, shared by every
/// row of that descriptor (a keyed box's rows share one).
///
/// `run` computes the row's new value, stores it if it differs from the old one, and returns
/// whether it changed. It is created inside the descriptor's `@inlinable` initializer, so its
/// body is specialized for the value type in the module that declares the state.
///
/// The graph stores `Unmanaged<RowBehavior>` in a column and calls through
/// `_withUnsafeGuaranteedRef`: loading a closure from storage and calling it otherwise costs a
/// retain and a release of its context per call (../shared/research/floor.md, "Closure
/// context retain per call"). The descriptor's per-context state keeps the object alive.
@MainActor
public final class RowBehavior<Edges: EdgeStore> {
  public let run: @MainActor (Graph<Edges>, Slot) -> Bool
  @inlinable nonisolated public init(run: @escaping @MainActor (Graph<Edges>, Slot) -> Bool) {
    self.run = run
  }
}

/// How long a row lives once nothing observes it.
public enum RowLifetime: UInt8, Sendable {
  /// As long as the context (manual states, and automatic states by default).
  case context = 0
  /// Released when the last subscriber or lease goes.
  case whileObserved = 1
  /// Kept while unobserved, up to a per-descriptor limit and retention time.
  case cache = 2
}

/// A descriptor as the graph sees it: a name for error messages and a cache policy. The
/// graph keeps its owners alive, so rows never outlive the descriptor that runs them.
public protocol RowOwner: AnyObject, Sendable {
  /// The descriptor's label, for error messages and the debug history.
  var label: String { get }
  /// For `.cache` rows: how many unobserved rows to keep, and for how long.
  var cachePolicy: (limit: Int, retention: Duration)? { get }
}

/// The per-context key index of a keyed descriptor, told when one of its rows is released.
@MainActor
public protocol KeyedRowIndex: AnyObject {
  func forget(key: AnyHashable, slot: Slot)
}
