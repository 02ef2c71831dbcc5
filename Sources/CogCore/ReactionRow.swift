import Synchronization

/// A reaction's one object: its behavior (the row's `run`), its name and its body.
/// Registering a reaction allocates this and the body's closure context, nothing else: no
/// owner record, no dictionary insert, no closure adapting the body (`run` captures nothing;
/// it finds the body through the row's behavior column), no handle object (the apps' handles
/// are values naming the row).
///
/// The graph holds the only strong reference, taken at registration and given back when the
/// row is released (cancel) or the graph goes: that frees the body and what it captured.
/// Nothing else may keep it, which is why the body can be a `let`: a `var` (to drop it
/// earlier) made every run load it with a retain and a release.
///
/// Not final: the body's type is the binding's (`TypedReactionRow`); the graph sees this class.
// Safety: `@MainActor`; `name` is a `let`, `run` see `RowBehavior`.
@MainActor
@usableFromInline
package class ReactionRow: RowBehavior, @unchecked Sendable {
  /// The name given at registration, for errors and the debug history.
  @usableFromInline package final let name: StaticString

  @inlinable package init(
    name: StaticString, run: @escaping RowRun
  ) {
    self.name = name
    super.init(run: run)
  }

  /// The object of a reaction whose body takes no context (the workbench's effects, which find
  /// the running reaction with `runningReaction`), retained for `Graph.react(_:)`: the closure
  /// is stored as given, with no closure adapting it. Made apart from the graph, taking
  /// `body` as it is, so that the adapter makes it before the closure that reaches the
  /// system, where the body would be copied (both bindings' `react(prepared:)`).
  // Lifetime: returned retained (+1); `Graph.react(_:)` takes that reference.
  @inlinable package static func plain(
    _ name: StaticString, _ body: consuming @escaping () -> Void
  ) -> Unmanaged<ReactionRow> {
    typealias Row = TypedReactionRow<PlainReactionBody>
    let row = Row(name: name, body: PlainReactionBody(body)) { behavior, _, _ in
      Row.withBody(of: behavior) { $0.run() }
      return false
    }
    return .passRetained(consume row)
  }

  // Counted alive by `Graph.react` and `Graph.endReaction` (`Reactions.alive`), not here:
  // counting here cost a retain and a release of the new object around the count.
}

/// A reaction whose body is a `Body` (the binding's wrapper of the app's closure: a struct,
/// so that the closure is stored at its natural abstraction and called without a thunk).
@MainActor
@usableFromInline
// Safety: `@MainActor`; `body` is a `let` only its `run` calls, on the main actor.
package final class TypedReactionRow<Body>: ReactionRow,
  @unchecked Sendable
{
  @usableFromInline package let body: Body

  /// `run` must capture nothing (a capture is a closure context: one more allocation); it
  /// reaches the body with `withBody(of:_:)`.
  @inlinable package init(
    name: StaticString, body: Body, run: @escaping RowRun
  ) {
    self.body = body
    super.init(name: name, run: run)
  }

  /// Calls `call` with the body of the reaction whose behavior `run` was handed, borrowed:
  /// no reference counting. (Through the handed object, not the row's behavior column: that
  /// reloaded the column and the object, three loads per run.)
  @inlinable @inline(__always)
  package static func withBody(of behavior: RowBehavior, _ call: (Body) -> Void) {
    // Safety: `run` is handed its own object, a `TypedReactionRow<Body>` of this `run`.
    call(unsafeDowncast(behavior, to: TypedReactionRow.self).body)
  }
}

/// How a reaction's handle reaches its graph: one per live graph, cleared by the graph's
/// `deinit`, so that a handle used after its context is gone does nothing. A weak reference
/// to the context costs side-table work to form, copy, load and destroy with every handle,
/// and a strong reference to this object a retain and a release per handle.
///
/// So handles hold it unretained, and it is never freed: a graph's `deinit` gives it back to
/// a process-wide pool (`take`/`give`), and a later graph reuses it. A handle that outlived
/// its graph may then reach the later graph, where it names nothing: it also holds its
/// registration's descriptor id, which no other row of any graph ever has
/// (`Graph.isLiveReaction`). The pool holds as many as there were graphs alive at once.
@MainActor
@usableFromInline
package final class GraphHandle<Edges: EdgeStore> {
  /// The graph while it lives; `nil` once its `deinit` ran (until a later graph takes it).
  /// Read through a pointer: a class `var` read inlined into another module (a handle's
  /// `cancel`, in `Cog`) costs a dynamic exclusivity check even marked
  /// `@exclusivity(unchecked)`.
  // Lifetime: the graph sets it in init and clears it in deinit (`give`): non-nil is a live graph.
  @inlinable package var graph: Unmanaged<Graph<Edges>>? {
    @inline(__always) get { storage.pointee }
    @inline(__always) set { storage.pointee = newValue }
  }
  // Lifetime: allocated once and never freed, as the handle itself (pooled, never freed).
  @usableFromInline let storage: UnsafeMutablePointer<Unmanaged<Graph<Edges>>?>
  @usableFromInline init() {
    storage = .allocate(capacity: 1)
    storage.initialize(to: nil)
  }
  // No deinit: handles are never freed (see above), so neither is their storage.

  /// A handle for a new graph: one a graph that went gave back, or a new one.
  @usableFromInline static func take() -> GraphHandle {
    let key = ObjectIdentifier(Edges.self)
    // Safety: the pool is keyed by `Edges`'s identifier, so its entries are `GraphHandle<Edges>`.
    if let h = graphHandlePool[key]?.popLast() { return unsafeDowncast(h, to: GraphHandle.self) }
    return GraphHandle()
  }

  /// Gives back the handle of a graph that is going (its `deinit`).
  @usableFromInline func give() {
    graph = nil
    graphHandlePool[ObjectIdentifier(Edges.self), default: []].append(self)
  }
}

/// The graph handles of graphs that went, by edge store type (a handle reaches a graph of its
/// own type only). Main actor only: graphs are made and freed there.
@MainActor private var graphHandlePool: [ObjectIdentifier: [AnyObject]] = [:]

/// Leases and exports alive in the process (reactions: `Reactions.alive`): tests count them
/// after register/cancel churn.
@usableFromInline package let registrationsAlive = Atomic<Int>(0)

/// The process's reactions, counted on the main actor: no atomic per registration. Every
/// graph is main-actor confined (its `deinit` is isolated), and it alone holds its reaction
/// objects, so `react` and `endReaction` are the only places a reaction comes or goes.
///
/// A reaction's id is what its handle checks against the row (`Graph.isLiveReaction`): unique
/// to the registration in the process, so that a handle kept after its row was released, or
/// its graph freed and its `GraphHandle` reused, names nothing. Ids count down from -2:
/// descriptor ids (`Registry.makeDescriptorID`) are never negative, and -1 is a free row's.
/// (Taken from the descriptor ids, with `registrationsAlive` counting them, a registration
/// cost three atomic operations: impl/perf-notes.md, "Stop 42".)
@MainActor @usableFromInline package enum Reactions {
  /// The last id handed out.
  @usableFromInline static var lastID: Int32 = -1
  /// Reactions registered and not yet ended, in every graph.
  @usableFromInline package static var alive = 0

  /// Counts a new reaction and returns its id.
  @inlinable static func register() -> Int32 {
    if _slowPath(lastID == Int32.min) { idsExhausted() }
    lastID &-= 1
    alive &+= 1
    return lastID
  }

  @inline(never) @usableFromInline static func idsExhausted() -> Never {
    fatalError("Cog: more than \(Int32.max - 1) reactions registered in one process")
  }
}

/// A reaction body that takes no context (`ReactionRow.plain`).
@usableFromInline
struct PlainReactionBody {
  @usableFromInline let run: () -> Void
  @inlinable init(_ run: @escaping () -> Void) { self.run = run }
}
