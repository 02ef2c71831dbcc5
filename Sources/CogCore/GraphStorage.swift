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
  /// Each typed column by type index, unretained: making a row's value pair and dropping it
  /// call the column through these with no retain and release of it (a strong reference
  /// loaded from `maps.columns` cost both: 48 of a fresh signal's 311 first-read instructions).
  // Lifetime: `maps.columns` keeps each column for the graph's life; the two are set together
  // (`Graph.makeColumn`).
  @usableFromInline var valueColumns = RawColumn<Unmanaged<AnyValueColumn>?>(capacity: 16)

  /// Where `rows.lifetime` is in the state (the collector's queue reads it: `OrphanQueue`).
  @usableFromInline static var lifetimeColumnOffset: Int {
    MemoryLayout<HotState>.offset(of: \HotState.rows)!
      + MemoryLayout<RowColumns<Edges>>.offset(of: \RowColumns<Edges>.lifetime)!
  }

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

  /// Adds a row at the end of every column. Its generation starts at 0; every other field is
  /// left for `Graph.allocateRow` to store, as it does for a reused slot (all are trivial
  /// types). The columns are only ever appended together, so their counts and capacities are
  /// equal: one test, and one cold growth of all nine (appended one by one, with nine tests
  /// and neutral stores, a fresh state's first read in a new context cost 49 instructions more:
  /// impl/perf-notes.md, "Stop 50"). Always inlined, as the edge stores' `ensureRows` (but
  /// the inline-overflow one's): called out of line, the two cost a fresh state's first read
  /// in a new context 23 instructions more (impl/perf-notes.md, "Stop 52").
  @inlinable @inline(__always) package mutating func appendRow() {
    let n = flags.count
    #if DEBUG || COG_INTERNAL_CHECKS
      checkInStep()
    #endif
    if _slowPath(n == flags.capacity) { growAll(minimumCapacity: n &+ 1) }
    (generation.base + n).initialize(to: 0)
    let m = n &+ 1  // n < capacity: cannot overflow
    flags.count = m
    changedAt.count = m
    generation.count = m
    valueIndex.count = m
    typeIndex.count = m
    descriptor.count = m
    behavior.count = m
    lifetime.count = m
    tag.count = m
  }

  @inline(never) @usableFromInline
  mutating func growAll(minimumCapacity n: Int) {
    flags.grow(minimumCapacity: n)
    changedAt.grow(minimumCapacity: n)
    generation.grow(minimumCapacity: n)
    valueIndex.grow(minimumCapacity: n)
    typeIndex.grow(minimumCapacity: n)
    descriptor.grow(minimumCapacity: n)
    behavior.grow(minimumCapacity: n)
    lifetime.grow(minimumCapacity: n)
    tag.grow(minimumCapacity: n)
  }

  /// Stops the program if the nine columns' counts or capacities differ (internal checks).
  @inline(never) @usableFromInline
  func checkInStep() {
    let counts = [
      changedAt.count, generation.count, valueIndex.count, typeIndex.count, descriptor.count,
      behavior.count, lifetime.count, tag.count,
    ]
    let capacities = [
      changedAt.capacity, generation.capacity, valueIndex.capacity, typeIndex.capacity,
      descriptor.capacity, behavior.capacity, lifetime.capacity, tag.capacity,
    ]
    if counts.contains(where: { $0 != flags.count })
      || capacities.contains(where: { $0 != flags.capacity })
    {
      fatalError("Cog internal check: the row columns are out of step: \(counts), \(capacities)")
    }
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
  @usableFromInline package var orphaned = OrphanQueue(capacity: 64)
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
