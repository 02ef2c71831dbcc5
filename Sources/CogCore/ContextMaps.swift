/// A descriptor id as a key of the context's maps, hashed by one multiplication rather than
/// by SipHash: `Int32` keys hashed through `Hasher` were a large part of making a row (three
/// map operations per new row). Ids are the runtime's own dense numbers, never an attacker's input, so a seeded hash
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
  /// `Graph+Dropped.swift`). Keyless rows hold their descriptor's details in
  /// `ContextMaps.holds`; reactions have none (the graph holds their `ReactionRow` through
  /// the behavior column).
  @usableFromInline package var owners: [DescriptorKey: OwnerRecord] = [:]
  /// Whether `recompute` notes each run (`countRun`): runs are counted or turns explained
  /// (see `Graph+Diagnostics.swift`). With `hasDiagnostics`, in what was padding: the struct
  /// keeps its size.
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
  @usableFromInline package var nextCacheDeadline: ContextTime = .zero
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
  /// Each keyless row's hold on its descriptor's details (`KeylessDetails.rowHolds`; nil for
  /// other rows, whose records, if any, are in `owners`, and for a plain manual state's, which
  /// holds nothing: `Graph.isUnheld`), by slot, up to the last row with details: the row
  /// keeps what it runs and names after the app dropped the descriptor, until a sweep finds
  /// its id marked dropped, and gives the hold back when it is released. A column of the cold
  /// maps rather than of `RowColumns`: only a first read, a release and a sweep touch it
  /// (`Graph.hold(of:)`).
  // Lifetime: each entry is counted in its object's `rowHolds` (`makeKeylessRow`).
  @usableFromInline package var holds = RawColumn<Unmanaged<KeylessDetails>?>(capacity: 0)
  /// The context's holds: keyless rows (holding their details or, plain manual ones, nothing;
  /// a sweep looks at each) and `owners`' records; what `sweepIfDue` compares the new ones
  /// with.
  @usableFromInline package var holdCount = 0

  // Lifetime: `Graph.clockKeeper` retains the clock for the context's life.
  @inlinable package init(clock: GraphClock) { self.clock = Unmanaged.passUnretained(clock) }
}
