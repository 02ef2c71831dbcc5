/// The graph's stored state, kept behind one raw pointer. Accesses through a pointer carry no
/// dynamic exclusivity checks; class stored properties do, even marked
/// `@exclusivity(unchecked)`, once the access is inlined into another module (measured: one
/// `swift_beginAccess` per column access in the client's specialized code).
public struct GraphStore<Edges: EdgeStore> {

  // MARK: Row columns (indexed by Slot)
  public var flags: RawColumn<StateFlags>
  /// The revision at which the row's value last changed (kept on an equal recompute).
  public var changedAt: RawColumn<UInt32>
  /// The row that was running when this row's body started (meaningful while `.computing`):
  /// from `activeSub`, this chain is the stack of running bodies. Walked only to name a
  /// cycle; two column stores per recompute instead of pushing and popping a path stack.
  public var runParent: RawColumn<Slot>
  /// The pull-stack depth when this row's body started (meaningful while `.computing`).
  public var runFrame: RawColumn<Int32>
  public var generation: RawColumn<UInt16>
  /// Observation boundary index, `-1` until a UI read creates one.
  public var boundary: RawColumn<Int32>
  /// Index of the row's current entry in its typed `ValueColumn`.
  public var valueIndex: RawColumn<Int32>
  /// Which `ValueColumn` (by `Registry.typeIndex`) holds the row's value; `-1` for reactions.
  public var typeIndex: RawColumn<Int32>
  public var descriptor: RawColumn<Int32>
  public var behavior: RawColumn<BehaviorRef<Edges>>
  public var lifetime: RawColumn<RowLifetime>
  public var leases: RawColumn<Int32>
  /// Registration order of reactions (flush runs them in this order).
  public var order: RawColumn<UInt32>
  /// The key of a keyed row (a box's row); nil otherwise. Read on the tracking cursor's fast
  /// path to confirm "same dependency as last run" without hashing.
  public var keyOf: RawColumn<AnyHashable?>

  public var edges: Edges

  // MARK: Global versions and tracking state
  /// Bumped by every value change (a published source or a recompute with a new value).
  public var revision: UInt32 = 1
  /// The running row (`.none` outside any body) and the last dependency it confirmed.
  public var activeSub: Slot = .none
  public var cursor: EdgeID = .none
  public var nextOrder: UInt32 = 0

  // MARK: Reused buffers (reserved once; a steady turn never grows them)
  /// The pull's explicit stack: rows being checked, each with the dependency it resumes at.
  public var pullStack: RawColumn<PullFrame>
  public var pushStack: RawColumn<EdgeID>
  public var queue: RawColumn<Slot>
  /// The radix sort's second buffer for large reaction queues (see `sortQueue`).
  public var sortScratch: RawColumn<Slot>
  /// The radix sort's byte counts (256 entries, reserved once).
  public var sortCounts: RawColumn<Int32>
  public var touched: RawColumn<Slot>
  public var orphaned: RawColumn<Slot>
  public var freeSlots: RawColumn<Slot>
  /// Rows released while a body was running are freed when the outermost operation ends.
  public var deferredRelease: RawColumn<SlotRef>
  /// Reactions whose last refresh met a cycle: retried by the next flush that changes
  /// something (push cannot reach them again: the rows they wait on stay flagged).
  public var blocked: RawColumn<SlotRef>
  /// `.cache` rows kept while unobserved, oldest first (see `Graph+Lifetime.swift`).
  public var cacheEntries: RawColumn<CacheEntry>

  // MARK: Per-context descriptor maps (indexed by descriptor id / type index)
  /// Per-context maps by descriptor id, read on cold paths only (descriptors cache their
  /// row per context; see `DescriptorCache`). Dictionaries rather than arrays indexed by
  /// descriptor id: ids are process-wide, so an array would grow with every descriptor ever
  /// made, in every context.
  public var keylessSlots: [Int32: Int32] = [:]
  public var owners: [Int32: RowOwner] = [:]
  /// Per-context state of keyed descriptors (their key → slot index).
  public var keyIndexes: [Int32: KeyedRowIndex] = [:]
  public var columns: [AnyValueColumn?] = []
  /// The element storage of each typed column, by type index, kept in step with the column's
  /// buffer: reads load values through it without touching (or retaining) the column object.
  public var valueBase: RawColumn<UnsafeMutableRawPointer?>

  /// Set when a read closed a cycle; the outermost operation reports it and clears it.
  public var cycle: [Slot]? = nil
  /// Cached rows per descriptor (the limit is per descriptor). Entries are never removed, so
  /// a steady turn never inserts.
  public var cacheCounts: [Int32: Int32] = [:]
  /// The earliest retention deadline among the cached rows (`.max`: none).
  public var nextCacheDeadline: Duration = .zero
  /// The context's clock, as time since the context was made: retention deadlines use it,
  /// and tests inject a manual clock. Held by `Graph.clockOwner`, called unretained (a
  /// closure loaded from storage and called costs a retain and release of its context).
  public var clock: Unmanaged<GraphClock>
  public var liveRows: Int = 0

  public init(reservingRows rows: Int, clock: GraphClock) {
    self.clock = Unmanaged.passUnretained(clock)
    flags = RawColumn(capacity: rows)
    changedAt = RawColumn(capacity: rows)
    runParent = RawColumn(capacity: rows)
    runFrame = RawColumn(capacity: rows)
    generation = RawColumn(capacity: rows)
    boundary = RawColumn(capacity: rows)
    valueIndex = RawColumn(capacity: rows)
    typeIndex = RawColumn(capacity: rows)
    descriptor = RawColumn(capacity: rows)
    behavior = RawColumn(capacity: rows)
    lifetime = RawColumn(capacity: rows)
    leases = RawColumn(capacity: rows)
    order = RawColumn(capacity: rows)
    keyOf = RawColumn(capacity: rows)
    edges = Edges()
    pullStack = RawColumn(capacity: 64)
    pushStack = RawColumn(capacity: 64)
    queue = RawColumn(capacity: 64)
    sortScratch = RawColumn(capacity: 64)
    sortCounts = RawColumn(capacity: 256)
    touched = RawColumn(capacity: 64)
    orphaned = RawColumn(capacity: 64)
    freeSlots = RawColumn(capacity: 16)
    deferredRelease = RawColumn(capacity: 16)
    blocked = RawColumn(capacity: 4)
    cacheEntries = RawColumn(capacity: 4)
    valueBase = RawColumn(capacity: 16)
  }
}

/// A context's clock: time since the context was made (see `GraphStore.clock`).
public final class GraphClock {
  public let now: () -> Duration
  public init(_ now: @escaping () -> Duration) { self.now = now }
}

/// The state table of one context: every row's columns, the edge store, the reused stacks and
/// queues of propagation, and the per-context descriptor maps.
///
/// Hot columns are `RawColumn`s marked `@exclusivity(unchecked)`: the graph is confined to the
/// main actor and never hands out overlapping accesses to a column, and the dynamic checks
/// otherwise dominate propagation (floor.md measured 18–25 `swift_beginAccess` per node).
///
/// Everything here is public for the `Cog` module and the workbench; apps use `Cog`'s API.
@MainActor
public final class Graph<Edges: EdgeStore> {
  /// The stored state (see `GraphStore`); allocated once, freed by `deinit`.
  public let store: UnsafeMutablePointer<GraphStore<Edges>>
  /// This context's serial (see `Registry.makeContextSerial`).
  public let serial: Int
  /// Keeps the clock the store calls unretained.
  let clockOwner: GraphClock

  // MARK: Row columns (indexed by Slot)
  @inlinable public var flags: RawColumn<StateFlags> {
    @inline(__always) _read { yield store.pointee.flags }
    @inline(__always) _modify { yield &store.pointee.flags }
  }
  /// The revision at which the row's value last changed (kept on an equal recompute).
  @inlinable public var changedAt: RawColumn<UInt32> {
    @inline(__always) _read { yield store.pointee.changedAt }
    @inline(__always) _modify { yield &store.pointee.changedAt }
  }
  @inlinable public var runParent: RawColumn<Slot> {
    @inline(__always) _read { yield store.pointee.runParent }
    @inline(__always) _modify { yield &store.pointee.runParent }
  }
  @inlinable public var runFrame: RawColumn<Int32> {
    @inline(__always) _read { yield store.pointee.runFrame }
    @inline(__always) _modify { yield &store.pointee.runFrame }
  }
  @inlinable public var generation: RawColumn<UInt16> {
    @inline(__always) _read { yield store.pointee.generation }
    @inline(__always) _modify { yield &store.pointee.generation }
  }
  /// Observation boundary index, `-1` until a UI read creates one.
  @inlinable public var boundary: RawColumn<Int32> {
    @inline(__always) _read { yield store.pointee.boundary }
    @inline(__always) _modify { yield &store.pointee.boundary }
  }
  /// Index of the row's current entry in its typed `ValueColumn`.
  @inlinable public var valueIndex: RawColumn<Int32> {
    @inline(__always) _read { yield store.pointee.valueIndex }
    @inline(__always) _modify { yield &store.pointee.valueIndex }
  }
  /// Which `ValueColumn` (by `Registry.typeIndex`) holds the row's value; `-1` for reactions.
  @inlinable public var typeIndex: RawColumn<Int32> {
    @inline(__always) _read { yield store.pointee.typeIndex }
    @inline(__always) _modify { yield &store.pointee.typeIndex }
  }
  @inlinable public var descriptor: RawColumn<Int32> {
    @inline(__always) _read { yield store.pointee.descriptor }
    @inline(__always) _modify { yield &store.pointee.descriptor }
  }
  @inlinable public var behavior: RawColumn<BehaviorRef<Edges>> {
    @inline(__always) _read { yield store.pointee.behavior }
    @inline(__always) _modify { yield &store.pointee.behavior }
  }
  @inlinable public var lifetime: RawColumn<RowLifetime> {
    @inline(__always) _read { yield store.pointee.lifetime }
    @inline(__always) _modify { yield &store.pointee.lifetime }
  }
  @inlinable public var leases: RawColumn<Int32> {
    @inline(__always) _read { yield store.pointee.leases }
    @inline(__always) _modify { yield &store.pointee.leases }
  }
  /// Registration order of reactions (flush runs them in this order).
  @inlinable public var order: RawColumn<UInt32> {
    @inline(__always) _read { yield store.pointee.order }
    @inline(__always) _modify { yield &store.pointee.order }
  }
  /// The key of a keyed row (a box's row); nil otherwise. Read on the tracking cursor's fast
  /// path to confirm "same dependency as last run" without hashing.
  @inlinable public var keyOf: RawColumn<AnyHashable?> {
    @inline(__always) _read { yield store.pointee.keyOf }
    @inline(__always) _modify { yield &store.pointee.keyOf }
  }

  @inlinable public var edges: Edges {
    @inline(__always) _read { yield store.pointee.edges }
    @inline(__always) _modify { yield &store.pointee.edges }
  }

  // MARK: Global versions and tracking state
  /// Bumped by every value change (a published source or a recompute with a new value).
  @inlinable public var revision: UInt32 {
    @inline(__always) _read { yield store.pointee.revision }
    @inline(__always) _modify { yield &store.pointee.revision }
  }
  /// The running row (`.none` outside any body) and the last dependency it confirmed.
  @inlinable public var activeSub: Slot {
    @inline(__always) _read { yield store.pointee.activeSub }
    @inline(__always) _modify { yield &store.pointee.activeSub }
  }
  @inlinable public var cursor: EdgeID {
    @inline(__always) _read { yield store.pointee.cursor }
    @inline(__always) _modify { yield &store.pointee.cursor }
  }
  @inlinable var nextOrder: UInt32 {
    @inline(__always) _read { yield store.pointee.nextOrder }
    @inline(__always) _modify { yield &store.pointee.nextOrder }
  }

  // MARK: Reused buffers (reserved once; a steady turn never grows them)
  @inlinable var pullStack: RawColumn<PullFrame> {
    @inline(__always) _read { yield store.pointee.pullStack }
    @inline(__always) _modify { yield &store.pointee.pullStack }
  }
  @inlinable var pushStack: RawColumn<EdgeID> {
    @inline(__always) _read { yield store.pointee.pushStack }
    @inline(__always) _modify { yield &store.pointee.pushStack }
  }
  @inlinable var sortScratch: RawColumn<Slot> {
    @inline(__always) _read { yield store.pointee.sortScratch }
    @inline(__always) _modify { yield &store.pointee.sortScratch }
  }
  @inlinable var sortCounts: RawColumn<Int32> {
    @inline(__always) _read { yield store.pointee.sortCounts }
    @inline(__always) _modify { yield &store.pointee.sortCounts }
  }
  @inlinable public var queue: RawColumn<Slot> {
    @inline(__always) _read { yield store.pointee.queue }
    @inline(__always) _modify { yield &store.pointee.queue }
  }
  @inlinable public var touched: RawColumn<Slot> {
    @inline(__always) _read { yield store.pointee.touched }
    @inline(__always) _modify { yield &store.pointee.touched }
  }
  @inlinable public var orphaned: RawColumn<Slot> {
    @inline(__always) _read { yield store.pointee.orphaned }
    @inline(__always) _modify { yield &store.pointee.orphaned }
  }
  @inlinable var freeSlots: RawColumn<Slot> {
    @inline(__always) _read { yield store.pointee.freeSlots }
    @inline(__always) _modify { yield &store.pointee.freeSlots }
  }
  /// Rows released while a body was running are freed when the outermost operation ends.
  @inlinable var deferredRelease: RawColumn<SlotRef> {
    @inline(__always) _read { yield store.pointee.deferredRelease }
    @inline(__always) _modify { yield &store.pointee.deferredRelease }
  }
  @inlinable var blocked: RawColumn<SlotRef> {
    @inline(__always) _read { yield store.pointee.blocked }
    @inline(__always) _modify { yield &store.pointee.blocked }
  }
  @inlinable var cacheEntries: RawColumn<CacheEntry> {
    @inline(__always) _read { yield store.pointee.cacheEntries }
    @inline(__always) _modify { yield &store.pointee.cacheEntries }
  }

  // MARK: Per-context descriptor maps (indexed by descriptor id / type index)
  /// The one row of each keyless descriptor in this context (`-1`: none yet).
  @inlinable public var keylessSlots: [Int32: Int32] {
    @inline(__always) _read { yield store.pointee.keylessSlots }
    @inline(__always) _modify { yield &store.pointee.keylessSlots }
  }
  @inlinable public var owners: [Int32: RowOwner] {
    @inline(__always) _read { yield store.pointee.owners }
    @inline(__always) _modify { yield &store.pointee.owners }
  }
  /// Per-context state of keyed descriptors (their key → slot index), strongly held here and
  /// read unretained on hot paths through `states`.
  @inlinable public var keyIndexes: [Int32: KeyedRowIndex] {
    @inline(__always) _read { yield store.pointee.keyIndexes }
    @inline(__always) _modify { yield &store.pointee.keyIndexes }
  }
  @inlinable public var columns: [AnyValueColumn?] {
    @inline(__always) _read { yield store.pointee.columns }
    @inline(__always) _modify { yield &store.pointee.columns }
  }
  /// The element storage of each typed column, by type index, kept in step with the column's
  /// buffer: reads load values through it without touching (or retaining) the column object.
  @inlinable public var valueBase: RawColumn<UnsafeMutableRawPointer?> {
    @inline(__always) _read { yield store.pointee.valueBase }
    @inline(__always) _modify { yield &store.pointee.valueBase }
  }

  /// Set when a read closed a cycle; the outermost operation reports it and clears it.
  @inlinable public var cycle: [Slot]? {
    @inline(__always) _read { yield store.pointee.cycle }
    @inline(__always) _modify { yield &store.pointee.cycle }
  }
  @inlinable var cacheCounts: [Int32: Int32] {
    @inline(__always) _read { yield store.pointee.cacheCounts }
    @inline(__always) _modify { yield &store.pointee.cacheCounts }
  }
  /// The context's clock now (see `GraphStore.clock`).
  @inlinable func now() -> Duration { withGuaranteed(store.pointee.clock) { $0.now() } }
  @inlinable var nextCacheDeadline: Duration {
    @inline(__always) _read { yield store.pointee.nextCacheDeadline }
    @inline(__always) _modify { yield &store.pointee.nextCacheDeadline }
  }
  @inlinable public var liveRows: Int {
    @inline(__always) _read { yield store.pointee.liveRows }
    @inline(__always) _modify { yield &store.pointee.liveRows }
  }

  #if DEBUG
    public var history = TurnHistory()
    /// Bodies run so far (computeds and reactions), for tests that check a benchmark case's
    /// declared run counts. Debug builds only: release pays nothing for it.
    public var runCount = 0
  #endif

  /// - Parameters:
  ///   - rows: rows to reserve up front.
  ///   - now: the context's clock (time since the context was made), for cache retention.
  public init(reservingRows rows: Int = 64, now: (() -> Duration)? = nil) {
    store = .allocate(capacity: 1)
    clockOwner = GraphClock(now ?? Graph.continuousClock())
    store.initialize(to: GraphStore(reservingRows: rows, clock: clockOwner))
    serial = Registry.makeContextSerial()
  }

  /// Time since this call, on the continuous clock.
  nonisolated static func continuousClock() -> () -> Duration {
    let origin = ContinuousClock.now
    return { ContinuousClock.now - origin }
  }

  isolated deinit {
    store.pointee.flags.free()
    store.pointee.changedAt.free()
    store.pointee.runParent.free()
    store.pointee.runFrame.free()
    store.pointee.generation.free()
    store.pointee.boundary.free()
    store.pointee.valueIndex.free()
    store.pointee.typeIndex.free()
    store.pointee.descriptor.free()
    store.pointee.behavior.free()
    store.pointee.lifetime.free()
    store.pointee.leases.free()
    store.pointee.order.free()
    store.pointee.keyOf.free()
    store.pointee.edges.free()
    store.pointee.pullStack.free()
    store.pointee.pushStack.free()
    store.pointee.queue.free()
    store.pointee.sortScratch.free()
    store.pointee.sortCounts.free()
    store.pointee.touched.free()
    store.pointee.orphaned.free()
    store.pointee.freeSlots.free()
    store.pointee.deferredRelease.free()
    store.pointee.blocked.free()
    store.pointee.cacheEntries.free()
    store.pointee.valueBase.free()
    store.deinitialize(count: 1)
    store.deallocate()
  }

  /// Whether `COG_INTERNAL_CHECKS` was compiled in (the benchmark runner refuses such builds).
  public nonisolated static var isConsistencyCheckingEnabled: Bool {
    #if COG_INTERNAL_CHECKS
      true
    #else
      false
    #endif
  }

  /// True while no body runs and no refresh is under way: the moment deferred work may run.
  @inlinable public var isIdle: Bool { activeSub.isNone && pullStack.count == 0 }

  /// True once a read of the current operation closed a cycle: from then on, refreshes give
  /// up and body results are discarded (see swift/0002-cycles-and-depth.md).
  @inlinable public var isFailing: Bool {
    @inline(__always) get { cycle != nil }
  }
}
