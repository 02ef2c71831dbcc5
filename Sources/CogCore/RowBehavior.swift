/// What a running row (computed or reaction) does: one object per descriptor, shared by every
/// row of that descriptor (a keyed box's rows share one).
///
/// `run` computes the row's new value, stores it if it differs from the old one, and returns
/// whether it changed. It is created inside the descriptor's `@inlinable` initializer, so its
/// body is specialized for the value type in the module that declares the state.
///
/// The graph stores `Unmanaged<RowBehavior>` in a column and calls through
/// `_withUnsafeGuaranteedRef`: loading a closure from storage and calling it otherwise costs a
/// retain and a release of its context per call. Lifetime: the row's hold on its descriptor
/// (`ContextMaps.holds`; a keyed row's, its box's record) keeps the descriptor, and so its
/// behavior, alive while the row exists.
///
/// Not generic over the edge store: `run` gets the graph as `AnyObject` and downcasts it
/// unchecked (`Graph.unchecked(_:)`; the behavior is made for the one edge store its
/// descriptor binds), so that one class serves every layout.
///
/// Subclasses: `KeylessDetails` and `KeylessBehavior` (an automatic keyless descriptor's
/// behavior), `ReactionRow` (a reaction's one object), and the plain object of the keyed and
/// async descriptors. `run` is `final`, so calling it is a field load.
// Safety: `run` is a `let` `@MainActor` closure; subclasses argue their own fields.
@usableFromInline
package class RowBehavior: @unchecked Sendable {
  /// Called with this object (borrowed), so that a behavior that keeps its data in a
  /// subclass (`KeylessBehavior`, `ReactionRow`) reaches it with no lookup and no closure of
  /// its own around the call.
  @usableFromInline package final let run: RowRun
  @inlinable package init(run: @escaping RowRun) {
    self.run = run
  }
}

/// A row's `run`: the behavior object itself, the graph (a `Graph<Edges>` of the edge store
/// the behavior was made for: `Graph.unchecked(_:)`) and the row.
@usableFromInline
package typealias RowRun = @MainActor (RowBehavior, AnyObject, Slot) -> Bool

/// An unretained reference to a row's behavior, as stored in the behavior column. Calling
/// through it with `withGuaranteed` costs no reference counting.
@frozen @usableFromInline
package struct BehaviorRef {
  // Lifetime: the graph retains the row's descriptor (which owns it) or its `ReactionRow`.
  @usableFromInline package var object: Unmanaged<RowBehavior>?
  @inlinable package init(_ object: RowBehavior?) {
    self.object = object.map { Unmanaged.passUnretained($0) }
  }
  /// The behavior `object` refers to, with no reference counting at all.
  // Lifetime: as the caller's `object`: a subclass reference is the same address.
  @inlinable package init<B: RowBehavior>(unretained object: Unmanaged<B>?) {
    self.object = object.map { Unmanaged<RowBehavior>.fromOpaque($0.toOpaque()) }
  }
}

/// How long a row lives once nothing observes it.
@usableFromInline
package enum RowLifetime: UInt8, Sendable {
  /// As long as the context (manual states, and automatic states by default).
  case context = 0
  /// Released when the last subscriber or lease goes.
  case whileObserved = 1
  /// Kept while unobserved, up to a per-descriptor limit and retention time.
  case cache = 2
}

/// Calls `body` with the object `u` refers to, without retaining it: the caller guarantees the
/// object outlives the call. A plain function here (rather than a closure literal handed to
/// `Unmanaged._withUnsafeGuaranteedRef` at each call site) so that main-actor code calling it
/// does not hand an isolated closure to a module compiled without strict concurrency, which
/// would cost a dynamic executor check per call.
// Safety: the caller guarantees `u`'s object outlives `body` (each call site says who keeps it).
@inlinable @inline(__always)
package nonisolated func withGuaranteed<T: AnyObject, R>(_ u: Unmanaged<T>, _ body: (T) -> R) -> R {
  u._withUnsafeGuaranteedRef(body)
}
