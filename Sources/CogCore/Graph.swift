import CCogStack

/// The state table of one context: every row's columns, the edge store, the reused stacks and
/// queues of propagation, the per-context descriptor maps, and the turn machinery. One engine
/// for every binding: `Sources/Cog` binds it to the default layouts; the workbench binds any
/// combination.
///
/// Everything is kept behind raw pointers (see `store`): accesses through a pointer carry
/// no dynamic exclusivity checks, while class stored properties do, even marked
/// `@exclusivity(unchecked)`, once the access is inlined into another module (measured: one
/// `swift_beginAccess` per column access in the client's specialized code). The graph is
/// confined to the main actor and never hands out overlapping accesses to a column.
///
/// The stored state is grouped (`rows`, `edges`, `work`, `track`, `maps`, `turns`), each with
/// one accessor here. Adding a row column touches six places in `RowColumns`: its declaration,
/// `init`, `free`, `appendRow`, the hand-summed `bytesPerRow`, and the store in
/// `Graph.allocateRow` (`RowColumnsTests` checks `bytesPerRow` against the columns).
@MainActor @usableFromInline
package final class Graph<Edges: EdgeStore> {
  /// The hot groups (`rows`, `edges`, `work`, `track`) behind one pointer, reached through
  /// inlined `_read`/`_modify` accessors: every hot path then loads one pointer and uses
  /// constant offsets (separate pointers per group were a load more per access). The cold groups (`maps`, `turns`) sit behind pointers of
  /// their own, reached through addressors: a `_read`/`_modify` coroutine that is not inlined
  /// (cold paths are not) allocates its frame (seen: 2 allocations per created row).
  // Lifetime: the three are allocated in `init` and freed only in this graph's `deinit`.
  @usableFromInline let store: UnsafeMutablePointer<HotState<Edges>>
  @usableFromInline package let mapsPointer: UnsafeMutablePointer<ContextMaps>
  @usableFromInline package let turnsPointer: UnsafeMutablePointer<TurnState<Edges>>
  /// This context's serial (see `Registry.makeContextSerial`).
  @usableFromInline package let serial: Int
  /// Keeps the clock the store calls unretained.
  @usableFromInline let clockKeeper: GraphClock
  /// What reaction handles hold to reach this graph (see `GraphHandle`).
  @usableFromInline package let handle = GraphHandle<Edges>.take()

  @inlinable package var rows: RowColumns<Edges> {
    @inline(__always) _read { yield store.pointee.rows }
    @inline(__always) _modify { yield &store.pointee.rows }
  }
  @inlinable package var edges: Edges {
    @inline(__always) _read { yield store.pointee.edges }
    @inline(__always) _modify { yield &store.pointee.edges }
  }
  @inlinable package var work: WorkBuffers<Edges> {
    @inline(__always) _read { yield store.pointee.work }
    @inline(__always) _modify { yield &store.pointee.work }
  }
  @inlinable package var track: Tracking<Edges> {
    @inline(__always) _read { yield store.pointee.track }
    @inline(__always) _modify { yield &store.pointee.track }
  }
  @inlinable package var valueBase: RawColumn<UnsafeMutableRawPointer?> {
    @inline(__always) _read { yield store.pointee.valueBase }
    @inline(__always) _modify { yield &store.pointee.valueBase }
  }
  @inlinable var valueColumns: RawColumn<Unmanaged<AnyValueColumn>?> {
    @inline(__always) _read { yield store.pointee.valueColumns }
    @inline(__always) _modify { yield &store.pointee.valueColumns }
  }
  @inlinable package var maps: ContextMaps {
    @inline(__always) unsafeAddress { UnsafePointer(mapsPointer) }
    @inline(__always) unsafeMutableAddress { mapsPointer }
  }
  @inlinable package var turns: TurnState<Edges> {
    @inline(__always) unsafeAddress { UnsafePointer(turnsPointer) }
    @inline(__always) unsafeMutableAddress { turnsPointer }
  }

  // The tracking fields every hot path reads, by name.
  /// Bumped by every value change (a published source or a recompute with a new value).
  @inlinable package var revision: UInt32 {
    @inline(__always) _read { yield store.pointee.track.revision }
    @inline(__always) _modify { yield &store.pointee.track.revision }
  }
  /// The running row (`.none` outside any body).
  @inlinable package var activeSub: Slot {
    @inline(__always) _read { yield store.pointee.track.activeSub }
    @inline(__always) _modify { yield &store.pointee.track.activeSub }
  }
  /// The running row's tracking state (see `EdgeStore.Run`).
  @inlinable package var run: Edges.Run {
    @inline(__always) _read { yield store.pointee.track.run }
    @inline(__always) _modify { yield &store.pointee.track.run }
  }

  #if DEBUG
    /// Bodies run so far (computeds and reactions), for tests that check a benchmark case's
    /// declared run counts. Debug builds only: release pays nothing for it.
    @usableFromInline package var runCount = 0
  #endif

  /// - Parameters:
  ///   - rows: rows to reserve up front, so that building a graph of known size does not grow
  ///     the columns mid-benchmark.
  ///   - now: the context's clock (time since the context was made), for cache retention.
  @inlinable package init(reservingRows rows: Int = 64, now: (() -> Duration)? = nil) {
    clockKeeper = GraphClock(
      now.map { clock in { ContextTime(clock()) } } ?? Graph.continuousClock())
    store = .allocate(capacity: 1)
    store.initialize(to: HotState(reservingRows: rows))
    // Lifetime: the lifetime column's place in the hot state, allocated above and freed in
    // deinit with the queue that points to it.
    let lifetimes = UnsafeRawPointer(store) + HotState<Edges>.lifetimeColumnOffset
    store.pointee.work.orphaned.lifetimes = lifetimes.assumingMemoryBound(
      to: RawColumn<RowLifetime>.self)
    mapsPointer = .allocate(capacity: 1)
    mapsPointer.initialize(to: ContextMaps(clock: clockKeeper))
    turnsPointer = .allocate(capacity: 1)
    turnsPointer.initialize(to: TurnState())
    serial = Registry.makeContextSerial()
    // Lifetime: cleared by `handle.give()` in deinit.
    handle.graph = Unmanaged.passUnretained(self)
    cog_add_live_graphs(1)
    LiveContexts.insert(keylessIdentity)
  }

  isolated deinit {
    handle.give()
    // Lifetime: an address to compare, never dereferenced.
    let me = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
    if cog_get_body_graph() == me { cog_set_body_graph(nil) }
    if cog_get_turn_graph() == me { cog_set_turn_graph(nil) }
    dropDiagnostics()
    // Work still in flight stops: its results have no context to land in.
    for row in turnsPointer.pointee.asyncRows.values { row.cancelAll() }
    endExports()
    endAllReactions()
    // The context's holds on its descriptors go (other contexts' sweeps count on it).
    releaseHolds()
    // Counted gone only now that no row of it holds details: a descriptor's `deinit` off the
    // main thread that sees no graph alive gives its details back itself
    // (`cog_park_details`); then what was parked before goes to the rows left, if any.
    cog_add_live_graphs(-1)
    KeylessDetails.releaseParked()
    LiveContexts.remove(keylessIdentity)
    mapsPointer.pointee.holds.free()
    store.pointee.rows.free()
    store.pointee.edges.free()
    store.pointee.work.free()
    store.pointee.valueBase.free()
    store.pointee.valueColumns.free()
    Self.dispose(store)
    Self.dispose(mapsPointer)
    Self.dispose(turnsPointer)
  }

  private static func dispose<T>(_ p: UnsafeMutablePointer<T>) {
    p.deinitialize(count: 1)
    p.deallocate()
  }

  /// Time since this call, on the clock `ContinuousClock` reads, in integer nanoseconds (see
  /// `ContextTime`).
  @inlinable package nonisolated static func continuousClock() -> () -> ContextTime {
    let origin = cog_continuous_nanoseconds()
    return { ContextTime(nanoseconds: cog_continuous_nanoseconds() &- origin) }
  }

  /// The graph a row's `run` is handed (`RowRun` erases it, so that `RowBehavior` need not be
  /// generic): unchecked, as a behavior is only ever stored in graphs of the edge store its
  /// descriptor was made for.
  @inlinable @inline(__always)
  package nonisolated static func unchecked(_ graph: AnyObject) -> Graph {
    // Safety: a behavior is stored only in graphs of its descriptor's edge store (see above).
    unsafeDowncast(graph, to: Graph.self)
  }

  /// Identifies this context in descriptor caches (a serial, never reused).
  @inlinable package var identity: Int { serial }
  /// `identity` as keyless descriptors store it (`KeylessCache`; serials fit in `Int32`).
  @inlinable package var keylessIdentity: Int32 { Int32(truncatingIfNeeded: serial) }

  /// True while no body runs and no refresh is under way: the moment deferred work may run.
  @inlinable package var isIdle: Bool { activeSub.isNone && work.pullStack.count == 0 }

  /// True once a read of the current operation closed a cycle: from then on, refreshes give
  /// up and body results are discarded (see swift/0002-cycles-and-depth.md).
  @inlinable package var isFailing: Bool {
    @inline(__always) get { store.pointee.track.cycle != nil }
  }

  /// The context's clock now (see `ContextMaps.clock`).
  @inlinable package func now() -> ContextTime {
    withGuaranteed(mapsPointer.pointee.clock) { $0.now() }
  }

  /// How many rows are live.
  @usableFromInline package var liveRowCount: Int { maps.liveRows }
}

/// A context's clock: time since the context was made (see `ContextMaps.clock`). Called
/// unretained: a closure loaded from storage and called costs a retain and release of its
/// context.
@usableFromInline package final class GraphClock {
  @usableFromInline package let now: () -> ContextTime
  @usableFromInline package init(_ now: @escaping () -> ContextTime) { self.now = now }
}
