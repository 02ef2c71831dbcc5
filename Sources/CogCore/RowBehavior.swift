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
///
/// Not final: a reaction's row is a `ReactionRow`, a subclass that also holds the body, the
/// name and the registration (one object per reaction). `run` stays `final`, so calling it is
/// a field load, as in a final class.
@MainActor
@usableFromInline
package class RowBehavior<Edges: EdgeStore> {
  /// Called with this object (borrowed), so that a behavior that keeps its data in a
  /// subclass (`TypedRowBehavior`, `TypedReactionRow`) reaches it with no lookup and no
  /// closure of its own around the call.
  @usableFromInline package final let run: RowRun<Edges>
  @inlinable nonisolated package init(run: @escaping RowRun<Edges>) {
    self.run = run
  }
}

/// An automatic row's behavior whose body is a `Body` held here rather than captured by `run`: `run` captures nothing, so the graph's call reaches
/// it directly, where a capturing closure is entered through a partial-apply forwarder that
/// unpacks its context (7 instructions per recompute, plus a 4-instruction merged thunk, on
/// kairo/deep; impl/perf-notes.md). It also makes the row's behavior one allocation instead
/// of two (the object and the closure's context).
@MainActor
@usableFromInline
package final class TypedRowBehavior<Edges: EdgeStore, Body: Sendable>: RowBehavior<Edges> {
  @usableFromInline package nonisolated let body: Body

  /// `run` must capture nothing; it is handed this object (see `RowBehavior.run`). It finds
  /// the row's value column by the row's `typeIndex` (`Graph.store(_:at:same:)`).
  @inlinable nonisolated package init(body: Body, run: @escaping RowRun<Edges>) {
    self.body = body
    super.init(run: run)
  }
}

/// A row's `run`: the behavior object itself, the graph and the row.
@usableFromInline
package typealias RowRun<Edges: EdgeStore> =
  @MainActor (RowBehavior<Edges>, Graph<Edges>, Slot) -> Bool

/// An unretained reference to a row's behavior, as stored in the behavior column. Calling
/// through it with `withGuaranteed` costs no reference counting.
@frozen @usableFromInline
package struct BehaviorRef<Edges: EdgeStore> {
  @usableFromInline package var object: Unmanaged<RowBehavior<Edges>>?
  @inlinable package init(_ object: RowBehavior<Edges>?) {
    self.object = object.map { Unmanaged.passUnretained($0) }
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

/// A descriptor as the graph sees it: a name for error messages and a cache policy. The
/// graph keeps its owners alive, so rows never outlive the descriptor that runs them.
@usableFromInline
package protocol RowOwner: AnyObject, Sendable {
  /// The descriptor's label, for error messages and the debug history.
  var label: String { get }
  /// For `.cache` rows: how many unobserved rows to keep, and for how long.
  var cachePolicy: (limit: Int, retention: Duration)? { get }
}

/// The per-context key storage of a keyed descriptor (a reference layout's; the core keeps no
/// keys): told when one of its rows is released, and asked for a row's key to name it in an
/// error. `tag` is the word the layout gave the row (`RowColumns.tag`).
@MainActor
@usableFromInline
package protocol KeyedRowIndex: AnyObject {
  func forget(slot: Slot, tag: UInt32)
  func keyDescription(slot: Slot, tag: UInt32) -> String
}

/// Calls `body` with the object `u` refers to, without retaining it: the caller guarantees the
/// object outlives the call. A plain function here (rather than a closure literal handed to
/// `Unmanaged._withUnsafeGuaranteedRef` at each call site) so that main-actor code calling it
/// does not hand an isolated closure to a module compiled without strict concurrency, which
/// would cost a dynamic executor check per call.
@inlinable @inline(__always)
package nonisolated func withGuaranteed<T: AnyObject, R>(_ u: Unmanaged<T>, _ body: (T) -> R) -> R {
  u._withUnsafeGuaranteedRef(body)
}

/// A descriptor's memory of its row in the context it was last used in: the context's
/// identity and the slot (or, for a keyed box, its key index). Descriptors are shared by every
/// context, so this is a one-entry cache; a miss falls back to the context's dictionaries.
/// Kept behind a pointer the descriptor owns (an entry of `DescriptorCachePool`), so reading it
/// costs no exclusivity check.
@frozen @usableFromInline
package struct DescriptorCache {
  /// The serial of the context the entry belongs to; 0: none.
  @usableFromInline package var context: Int
  @usableFromInline package var slot: Int32
  @usableFromInline package var index: Unmanaged<AnyObject>?
  @inlinable package init() {
    context = 0
    slot = -1
    index = nil
  }

  /// A cache from the process-wide pool (`DescriptorCachePool`).
  @inlinable package static func make() -> DescriptorCacheRef {
    DescriptorCacheRef(pointer: DescriptorCachePool.take())
  }
}

/// The pointer to a descriptor's cache. Descriptors are shared across threads as values but
/// their caches are only read and written by main-actor graph code, hence `@unchecked`.
@frozen @usableFromInline
package struct DescriptorCacheRef: @unchecked Sendable {
  @usableFromInline package let pointer: UnsafeMutablePointer<DescriptorCache>
  @inlinable package init(pointer: UnsafeMutablePointer<DescriptorCache>) { self.pointer = pointer }

  @inlinable package var pointee: DescriptorCache {
    @inline(__always) unsafeAddress { UnsafePointer(pointer) }
    @inline(__always) nonmutating unsafeMutableAddress { pointer }
  }

  /// Gives the cache back to the pool; its descriptor's `deinit` calls it once.
  @usableFromInline package func free() { DescriptorCachePool.give(pointer) }
}
