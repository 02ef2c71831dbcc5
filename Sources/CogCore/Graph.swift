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
  // MARK: Row columns (indexed by Slot)
  @exclusivity(unchecked) public var flags: RawColumn<StateFlags>
  /// The revision at which the row's value last changed (kept on an equal recompute).
  @exclusivity(unchecked) public var changedAt: RawColumn<UInt32>
  /// The revision at which the row was last verified up to date.
  @exclusivity(unchecked) public var checkedAt: RawColumn<UInt32>
  @exclusivity(unchecked) public var generation: RawColumn<UInt16>
  /// Observation boundary index, `-1` until a UI read creates one.
  @exclusivity(unchecked) public var boundary: RawColumn<Int32>
  /// Index of the row's current entry in its typed `ValueColumn`.
  @exclusivity(unchecked) public var valueIndex: RawColumn<Int32>
  /// Which `ValueColumn` (by `Registry.typeIndex`) holds the row's value; `-1` for reactions.
  @exclusivity(unchecked) public var typeIndex: RawColumn<Int32>
  @exclusivity(unchecked) public var descriptor: RawColumn<Int32>
  @exclusivity(unchecked) public var behavior: RawColumn<Unmanaged<RowBehavior<Edges>>?>
  @exclusivity(unchecked) public var lifetime: RawColumn<RowLifetime>
  @exclusivity(unchecked) public var leases: RawColumn<Int32>
  /// Registration order of reactions (flush runs them in this order).
  @exclusivity(unchecked) public var order: RawColumn<UInt32>
  /// The key of a keyed row (a box's row); nil otherwise. Read on the tracking cursor's fast
  /// path to confirm "same dependency as last run" without hashing.
  @exclusivity(unchecked) public var keyOf: RawColumn<AnyHashable?>

  @exclusivity(unchecked) public var edges: Edges

  // MARK: Global versions and tracking state
  /// Bumped by every value change (a published source or a recompute with a new value).
  @exclusivity(unchecked) public var revision: UInt32 = 1
  /// The running row (`.none` outside any body) and the last dependency it confirmed.
  @exclusivity(unchecked) public var activeSub: Slot = .none
  @exclusivity(unchecked) public var cursor: EdgeID = .none
  @usableFromInline var nextOrder: UInt32 = 0

  // MARK: Reused buffers (reserved once; a steady turn never grows them)
  @exclusivity(unchecked) @usableFromInline var stackNodes: RawColumn<Slot>
  @exclusivity(unchecked) @usableFromInline var stackCursors: RawColumn<EdgeID>
  @exclusivity(unchecked) @usableFromInline var pushStack: RawColumn<EdgeID>
  @exclusivity(unchecked) public var computingPath: RawColumn<Slot>
  /// For each running body, the pull-stack depth when it started (names cycles exactly).
  @exclusivity(unchecked) public var computingDepth: RawColumn<Int>
  @exclusivity(unchecked) public var queue: RawColumn<Slot>
  @exclusivity(unchecked) public var touched: RawColumn<Slot>
  @exclusivity(unchecked) public var orphaned: RawColumn<Slot>
  @exclusivity(unchecked) @usableFromInline var freeSlots: RawColumn<Slot>
  /// Rows released while a body was running are freed when the outermost operation ends.
  @exclusivity(unchecked) @usableFromInline var deferredRelease: RawColumn<SlotRef>

  // MARK: Per-context descriptor maps (indexed by descriptor id / type index)
  /// The one row of each keyless descriptor in this context (`-1`: none yet).
  @exclusivity(unchecked) public var slotOf: RawColumn<Int32>
  public var owners: [RowOwner?] = []
  /// Per-context state of keyed descriptors (their key → slot index), strongly held here and
  /// read unretained on hot paths through `states`.
  public var keyIndexes: [KeyedRowIndex?] = []
  @exclusivity(unchecked) public var states: RawColumn<Unmanaged<AnyObject>?>
  public var columns: [AnyValueColumn?] = []

  /// Set when a read closed a cycle; the outermost operation reports it and clears it.
  public var cycle: [Slot]? = nil
  /// Rows with `.cache` lifetime that lost their last observer, oldest first.
  public var cacheRows: [(ref: SlotRef, since: ContinuousClock.Instant)] = []
  public var liveRows: Int = 0

  #if DEBUG
    public var history = TurnHistory()
  #endif

  public init(reservingRows rows: Int = 64) {
    flags = RawColumn(capacity: rows)
    changedAt = RawColumn(capacity: rows)
    checkedAt = RawColumn(capacity: rows)
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
    stackNodes = RawColumn(capacity: 64)
    stackCursors = RawColumn(capacity: 64)
    pushStack = RawColumn(capacity: 64)
    computingPath = RawColumn(capacity: 64)
    computingDepth = RawColumn(capacity: 64)
    queue = RawColumn(capacity: 64)
    touched = RawColumn(capacity: 64)
    orphaned = RawColumn(capacity: 64)
    freeSlots = RawColumn(capacity: 16)
    deferredRelease = RawColumn(capacity: 16)
    slotOf = RawColumn(capacity: 64)
    states = RawColumn(capacity: 16)
  }

  isolated deinit {
    flags.free()
    changedAt.free()
    checkedAt.free()
    generation.free()
    boundary.free()
    valueIndex.free()
    typeIndex.free()
    descriptor.free()
    behavior.free()
    lifetime.free()
    leases.free()
    order.free()
    keyOf.free()
    edges.free()
    stackNodes.free()
    stackCursors.free()
    pushStack.free()
    computingPath.free()
    computingDepth.free()
    queue.free()
    touched.free()
    orphaned.free()
    freeSlots.free()
    deferredRelease.free()
    slotOf.free()
    states.free()
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
  @inlinable public var isIdle: Bool { activeSub.isNone && stackNodes.count == 0 }
}
