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
    clockKeeper = GraphClock(now ?? Graph.continuousClock())
    store = .allocate(capacity: 1)
    store.initialize(to: HotState(reservingRows: rows))
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
    cog_add_live_graphs(-1)
    dropDiagnostics()
    // Work still in flight stops: its results have no context to land in.
    for row in turnsPointer.pointee.asyncRows.values { row.cancelAll() }
    endExports()
    endAllReactions()
    // The context's holds on its descriptors go (other contexts' sweeps count on it).
    releaseHolds()
    LiveContexts.remove(keylessIdentity)
    mapsPointer.pointee.holds.free()
    store.pointee.rows.free()
    store.pointee.edges.free()
    store.pointee.work.free()
    store.pointee.valueBase.free()
    Self.dispose(store)
    Self.dispose(mapsPointer)
    Self.dispose(turnsPointer)
  }

  private static func dispose<T>(_ p: UnsafeMutablePointer<T>) {
    p.deinitialize(count: 1)
    p.deallocate()
  }

  /// Time since this call, on the continuous clock.
  @inlinable package nonisolated static func continuousClock() -> () -> Duration {
    let origin = ContinuousClock.now
    return { ContinuousClock.now - origin }
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
  @inlinable package func now() -> Duration {
    withGuaranteed(mapsPointer.pointee.clock) { $0.now() }
  }

  /// How many rows are live.
  @usableFromInline package var liveRowCount: Int { maps.liveRows }
}

/// A context's clock: time since the context was made (see `ContextMaps.clock`). Called
/// unretained: a closure loaded from storage and called costs a retain and release of its
/// context.
@usableFromInline package final class GraphClock {
  @usableFromInline package let now: () -> Duration
  @usableFromInline package init(_ now: @escaping () -> Duration) { self.now = now }
}

/// The hot groups of a graph's stored state (see `Graph.store`).
@usableFromInline
struct HotState<Edges: EdgeStore> {
  @usableFromInline var rows: RowColumns<Edges>
  @usableFromInline var edges: Edges
  @usableFromInline var work: WorkBuffers<Edges>
  @usableFromInline var track: Tracking<Edges>
  /// The element storage of each typed column, by type index, kept in step with the column's
  /// buffer: reads load values through it without touching (or retaining) the column object.
  /// Here, with the hot groups, rather than with the context's maps: every read and every
  /// behavior's store then reaches it from the one pointer they already hold, a load fewer
  /// per value access (the maps pointer).
  // Lifetime: `maps.columns` keeps each column; its entry is re-stored after `allocatePair`, the
  // one place a column's `values` grows (moves).
  @usableFromInline var valueBase = RawColumn<UnsafeMutableRawPointer?>(capacity: 16)

  @usableFromInline init(reservingRows rows: Int) {
    self.rows = RowColumns(reservingRows: rows)
    edges = Edges(reservingRows: rows)
    work = WorkBuffers()
    track = Tracking(run: edges.idleRun)
  }
}

/// The per-row columns, indexed by `Slot`.
@usableFromInline
package struct RowColumns<Edges: EdgeStore> {
  @usableFromInline package var flags: RawColumn<StateFlags>
  /// The revision at which the row's value last changed (kept on an equal recompute).
  @usableFromInline package var changedAt: RawColumn<UInt32>
  @usableFromInline package var generation: RawColumn<UInt16>
  /// Index of the row's current entry in its typed `ValueColumn`.
  @usableFromInline package var valueIndex: RawColumn<Int32>
  /// Which `ValueColumn` (by `Registry.typeIndex`) holds the row's value; `-1` for reactions.
  /// Two bytes, not four (issue 13's goal of 64 bytes per row): a process has at most
  /// `Graph.maxValueTypes` value types with rows (`allocateRow` stops the program, with a
  /// message, beyond that).
  @usableFromInline package var typeIndex: RawColumn<Int16>
  @usableFromInline package var descriptor: RawColumn<Int32>
  @usableFromInline package var behavior: RawColumn<BehaviorRef>
  @usableFromInline package var lifetime: RawColumn<RowLifetime>
  /// A word the row's reference layout gives a keyed row (an entry in its box's key storage,
  /// or the interned token; 0 for other rows): the core stores it and hands it back, and
  /// keeps no keys (swift/0006-reference-layouts.md). A reaction, never keyed, keeps its
  /// registration order here (`order`).
  @usableFromInline package var tag: RawColumn<UInt32>
  /// Registration order of reactions (flush runs them in this order): the `tag` column,
  /// which a reaction has no other use for.
  @inlinable package var order: RawColumn<UInt32> {
    @inline(__always) get { tag }
  }

  @inlinable package init(reservingRows rows: Int) {
    flags = RawColumn(capacity: rows)
    changedAt = RawColumn(capacity: rows)
    generation = RawColumn(capacity: rows)
    valueIndex = RawColumn(capacity: rows)
    typeIndex = RawColumn(capacity: rows)
    descriptor = RawColumn(capacity: rows)
    behavior = RawColumn(capacity: rows)
    lifetime = RawColumn(capacity: rows)
    tag = RawColumn(capacity: rows)
  }

  @inlinable package func free() {
    flags.free()
    changedAt.free()
    generation.free()
    valueIndex.free()
    typeIndex.free()
    descriptor.free()
    behavior.free()
    lifetime.free()
    tag.free()
  }

  /// Adds a row at the end of every column, with neutral values; `Graph.allocateRow` sets
  /// them (for new and reused slots alike).
  @inlinable package mutating func appendRow() {
    flags.append([])
    changedAt.append(0)
    generation.append(0)
    valueIndex.append(-1)
    typeIndex.append(-1)
    descriptor.append(-1)
    behavior.append(BehaviorRef(nil))
    lifetime.append(.context)
    tag.append(0)
  }

  /// Rows in the table (live and free).
  @inlinable package var count: Int { flags.count }

  /// Bytes held per row slot by these columns (capacity-independent), for memory reports.
  @inlinable package static var bytesPerRow: Int {
    MemoryLayout<StateFlags>.stride + MemoryLayout<UInt32>.stride
      + MemoryLayout<Int32>.stride * 2 + MemoryLayout<Int16>.stride + MemoryLayout<UInt16>.stride
      + MemoryLayout<BehaviorRef>.stride + MemoryLayout<RowLifetime>.stride
      + MemoryLayout<UInt32>.stride
  }
}

/// Reused buffers: reserved once, a steady turn never grows them.
@usableFromInline
package struct WorkBuffers<Edges: EdgeStore> {
  @usableFromInline package init() {}

  /// The pull's explicit stack: rows being checked, each with the dependency it resumes at.
  @usableFromInline var pullStack = RawColumn<PullFrame<Edges.DepPosition>>(capacity: 64)
  /// The push's explicit stack: the next subscriber position of each level below the top.
  @usableFromInline var pushStack = RawColumn<PushFrame<Edges.SubPosition>>(capacity: 64)
  @usableFromInline package var queue = RawColumn<Slot>(capacity: 64)
  /// The radix sort's second buffer for large reaction queues (see `sortQueue`).
  @usableFromInline package var sortScratch = RawColumn<Slot>(capacity: 64)
  /// The radix sort's byte counts (256 entries, reserved once).
  @usableFromInline package var sortCounts = RawColumn<Int32>(capacity: 256)
  @usableFromInline package var touched = RawColumn<Slot>(capacity: 64)
  @usableFromInline package var orphaned = RawColumn<Slot>(capacity: 64)
  @usableFromInline package var freeSlots = RawColumn<Slot>(capacity: 16)
  /// Rows released while a body was running are freed when the outermost operation ends.
  @usableFromInline package var deferredRelease = RawColumn<SlotRef>(capacity: 16)
  /// Reactions whose last refresh met a cycle: retried by the next flush that changes
  /// something (push cannot reach them again: the rows they wait on stay flagged).
  @usableFromInline package var blocked = RawColumn<SlotRef>(capacity: 4)
  /// `.cache` rows kept while unobserved, oldest first (see `Graph+Lifetime.swift`).
  @usableFromInline package var cacheEntries = RawColumn<CacheEntry>(capacity: 4)
  /// The bodies running inside another body, innermost last (`Graph.runNested`); the
  /// outermost is `Tracking.outermost`. Read only to name a cycle: a push and a pop per
  /// nested recompute, where two columns of every row held the same (8 bytes a row).
  @usableFromInline var nestedRuns = RawColumn<NestedRun>(capacity: 16)

  @inlinable package func free() {
    pullStack.free()
    pushStack.free()
    queue.free()
    sortScratch.free()
    sortCounts.free()
    touched.free()
    orphaned.free()
    freeSlots.free()
    deferredRelease.free()
    blocked.free()
    cacheEntries.free()
    nestedRuns.free()
  }
}

/// A body running inside another body (`WorkBuffers.nestedRuns`).
@frozen @usableFromInline
struct NestedRun {
  @usableFromInline let body: Slot
  /// The pull-stack depth when the body started (the outermost's is
  /// `Tracking.outermostFrame`).
  @usableFromInline let frame: Int32
  @inlinable init(body: Slot, frame: Int32) {
    self.body = body
    self.frame = frame
  }
}

/// Versions and the running body's state.
@usableFromInline
package struct Tracking<Edges: EdgeStore> {
  @usableFromInline package var revision: UInt32 = 1
  @usableFromInline package var activeSub: Slot = .none
  @usableFromInline package var run: Edges.Run
  /// The outermost running body (meaningful while `activeSub` is not `.none`) and the
  /// pull-stack depth when it started: what `WorkBuffers.nestedRuns` holds for a nested
  /// body. Two stores here per outermost recompute (every steady recompute of a flush)
  /// instead of a push, a pop and the outer run's save and restore.
  @usableFromInline package var outermost: Slot = .none
  @usableFromInline package var outermostFrame: Int32 = 0
  /// Set when a read closed a cycle; the outermost operation reports it and clears it
  /// (`noteCycle` and `takeCycle`, which keep `coldRecompute` too).
  @usableFromInline package var cycle: [Slot]? = nil
  @usableFromInline package var nextOrder: UInt32 = 0
  /// `cycle != nil || ContextMaps.countsRuns`: whether `recompute` takes its cold path. One
  /// byte for both, so that a steady recompute tests one. In what was padding.
  @usableFromInline package var coldRecompute = false

  @usableFromInline package init(run: Edges.Run) { self.run = run }
}

/// A descriptor id as a key of the context's maps, hashed by one multiplication rather than
/// by SipHash: `Int32` keys hashed through `Hasher` were about a sixth of the instructions of
/// making a row (cog/peak-memory-1000: 455 of 2,936 per row; three map operations per new
/// row). Ids are the runtime's own dense numbers, never an attacker's input, so a seeded hash
/// buys nothing; multiplying by an odd constant keeps ids that differ in their low bits in
/// different buckets (the maps index buckets by the low bits).
@frozen @usableFromInline
package struct DescriptorKey: Hashable {
  @usableFromInline package let id: Int32
  @inlinable package init(_ id: Int32) { self.id = id }

  @inlinable package func hash(into hasher: inout Hasher) { hasher.combine(id) }

  @inlinable package func _rawHashValue(seed: Int) -> Int {
    Int(truncatingIfNeeded: UInt64(UInt32(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15) ^ seed
  }
}

/// Per-context maps by descriptor id and type index: cold paths only (descriptors cache their
/// row per context; see `KeylessCache`, `DescriptorCache`). Dictionaries rather than arrays
/// indexed by descriptor id: ids are process-wide, so an array would grow with every
/// descriptor ever made, in every context.
@usableFromInline
package struct ContextMaps {
  /// The records of descriptors without a keyless row here (keyed boxes, async status rows):
  /// one strong reference each, counted in the descriptor's context holds (`OwnerRecord`; a
  /// descriptor whose only references are the contexts' holds is dropped:
  /// `Graph+Dropped.swift`). Keyless rows hold their descriptor in `ContextMaps.holds`;
  /// reactions have none (the graph holds their `ReactionRow` through the behavior column).
  @usableFromInline package var owners: [DescriptorKey: OwnerRecord] = [:]
  /// True while a sweep runs: the collector then releases orphaned rows of dropped
  /// descriptors whatever their lifetime (`Graph+Dropped.swift`).
  @usableFromInline package var sweeping = false
  /// Whether `recompute` notes each run (`countRun`): runs are counted or turns explained
  /// (see `Graph+Diagnostics.swift`). With `hasDiagnostics`, in what was padding after
  /// `sweeping`: the struct keeps its size.
  @usableFromInline package var countsRuns = false
  /// Whether this context has an entry in `GraphDiagnostics.table`.
  @usableFromInline package var hasDiagnostics = false
  /// Whether a flush sweeps on its own when due (`sweepIfDue`); the benchmark adapters turn
  /// it off and sweep where the JS ports leave garbage to their collector, untimed. With
  /// `ownersAddedSinceSweep`, in what was padding too.
  @usableFromInline package var sweepsAfterFlush = true
  /// Owners registered since the last sweep for dropped descriptors (see `sweepIfDue`).
  @usableFromInline package var ownersAddedSinceSweep: Int32 = 0
  /// Per-context state of keyed descriptors (their key → slot index).
  @usableFromInline package var keyIndexes: [DescriptorKey: KeyedRowIndex] = [:]
  @usableFromInline var columns: [AnyValueColumn?] = []
  /// Cached rows per descriptor (the limit is per descriptor). Entries are never removed, so
  /// a steady turn never inserts.
  @usableFromInline package var cacheCounts: [Int32: Int32] = [:]
  /// The earliest retention deadline among the cached rows.
  @usableFromInline package var nextCacheDeadline: Duration = .zero
  /// The context's clock, as time since the context was made: retention deadlines use it,
  /// and tests inject a manual clock. Held by `Graph.clockKeeper`, called unretained.
  // Lifetime: `Graph.clockKeeper` retains the clock for the context's life.
  @usableFromInline package var clock: Unmanaged<GraphClock>
  @usableFromInline package var liveRows: Int = 0
  /// Observation boundaries: made on a row's first UI read, pinned to the context (v1: the
  /// row keeps a lease for it).
  @usableFromInline package var boundaries: [Boundary] = []
  /// The index in `boundaries` of each observed row's boundary, by slot, grown only as far
  /// as the last row that got one (the row's `observed` flag says its entry means
  /// something). Not a row column: few rows have a boundary, and a column cost every row 4
  /// bytes; a context without UI reads keeps it empty (an empty array allocates nothing).
  @usableFromInline package var boundaryIndex: ContiguousArray<Int32> = []
  /// The explicit leases of each row (boundaries, exports, `CogLease`s), by slot, grown only
  /// as far as the last row that got one (the row's `leased` flag says it has some).
  @usableFromInline package var leases: ContiguousArray<Int32> = []
  /// Export subscribers of each exported row (by slot index), in subscription order.
  @usableFromInline package var exports: [Int32: [ExportSink]] = [:]
  /// Watched rows (a boundary or an export) that push or publish reached in this flush:
  /// settled, then told, before the reactions run (see `Graph+Boundaries.swift`). Here, not
  /// with the reused work buffers: an empty array allocates nothing, so a context that
  /// watches nothing pays nothing for it, not even at creation.
  @usableFromInline package var roots: ContiguousArray<Slot> = []
  /// Watched rows whose settle met a cycle: retried by the next flush that changes something.
  @usableFromInline package var blockedRoots: [SlotRef] = []
  /// Boundaries plus export subscribers: zero in a context that watches nothing, whose flush
  /// then skips steps 3–5 after one check.
  @usableFromInline package var watchers = 0

  /// The rows of keyless descriptors whose one-entry cache names another live context
  /// (`Graph.keylessSlotSlow`): empty while one context uses its descriptors, so a first
  /// read adds no map entry.
  @usableFromInline package var keylessRows: [DescriptorKey: Int32] = [:]
  /// Each keyless row's hold on its descriptor (`OwnerRef`; nil for other rows, whose
  /// records, if any, are in `owners`), by slot, up to the last keyless row: the row keeps
  /// the descriptor alive until a sweep finds the app dropped it, and gives the hold back
  /// when it is released. A column of the cold maps rather than of `RowColumns`: only a
  /// first read, a release and a sweep touch it (`Graph.hold(of:)`).
  @usableFromInline package var holds = RawColumn<OwnerRef?>(capacity: 0)
  /// The context's holds: rows holding their descriptor (`holds`) plus `owners`' records;
  /// what a sweep walks, and what `sweepIfDue` compares the new ones with.
  @usableFromInline package var holdCount = 0

  // Lifetime: `Graph.clockKeeper` retains the clock for the context's life.
  @inlinable package init(clock: GraphClock) { self.clock = Unmanaged.passUnretained(clock) }
}
