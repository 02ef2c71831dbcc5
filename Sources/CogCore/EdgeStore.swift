/// The edge structure the core is generic over: the part of the layout the workbench compares
/// (shared linked pool, per-row prefix arrays, inline first dependencies plus overflow).
///
/// A store keeps, per row, an ordered dependency list (what the row's last run read, each
/// with the dependency's `changedAt` it saw) and a subscriber list (the rows that read it).
/// Each store owns its positions and its per-run tracking state; the core only hands them
/// back. Conformers are structs stored inline in the graph, with `@inlinable` members, so that
/// every call specializes and inlines in the measured binary (no witness-table calls).
///
/// **Runs.** A body's run of row `sub` is bracketed by `beginRun` and `endRun`. In between,
/// each tracked read either confirms the dependency the previous run read at the same place
/// (`candidate` names it; `confirm` records it: the steady path, no allocation, no search) or
/// goes through `track` (a new, moved or repeated dependency). Runs nest (a body's read can
/// refresh and so run another row): the graph keeps the innermost `Run` in its store and each
/// recompute saves the outer one in its own native frame, so a `Run` is a small value; state a
/// layout shares across nested runs (a collection buffer, say) must be a stack the runs
/// record their base in.
@usableFromInline
package protocol EdgeStore {
  /// A resumable position in one row's dependencies (pull).
  associatedtype DepPosition: EdgePosition
  /// A resumable position in one row's subscribers (push).
  associatedtype SubPosition: EdgePosition
  /// Per-run tracking state (see the type's documentation).
  associatedtype Run

  init(reservingRows rows: Int)
  /// Makes room for rows `0..<count`; new rows have no edges.
  mutating func ensureRows(_ count: Int)

  // MARK: Pull
  func firstDep(of sub: Slot) -> DepPosition
  func nextDep(of sub: Slot, after p: DepPosition) -> DepPosition
  func dep(of sub: Slot, at p: DepPosition) -> Slot
  /// The dependency's `changedAt` the last run saw at `p`.
  func version(of sub: Slot, at p: DepPosition) -> UInt32

  // MARK: Push
  func firstSub(of dep: Slot) -> SubPosition
  func nextSub(of dep: Slot, after p: SubPosition) -> SubPosition
  func sub(of dep: Slot, at p: SubPosition) -> Slot
  func hasSubscribers(_ dep: Slot) -> Bool

  // MARK: Tracking
  /// Starts a run of `sub` (a row, never `.none`: every recompute begins one, so the start
  /// tests nothing).
  func beginRun(_ sub: Slot) -> Run
  /// The run outside any body (a graph's initial tracking state, and what an outermost
  /// recompute leaves): its `candidate` is `.none`, which the read's fast path relies on to
  /// skip testing whether a body is running.
  var idleRun: Run { get }
  /// The row the previous run read at this point of the run, or `.none` (read past its old
  /// list, or the run has left it).
  func candidate(_ run: Run) -> Slot
  /// A row this run has read already (its entry holds the version the run saw), or `.none`,
  /// always allowed: a layout may leave every repeated read to `track`. `.none` in `idleRun`
  /// and at a run's start. `Graph.read` tries it in a body when there is no candidate: a row
  /// read again (kairo/repeated's 30 reads of one signal) needs no tracking, because no row
  /// changes while a body runs.
  func previous(_ run: Run) -> Slot
  /// The running row read `candidate(run)` again, seeing `version`.
  mutating func confirm(_ run: inout Run, version: UInt32)
  /// The running `sub` read `dep` (not the candidate), seeing `version`: the part of `track`
  /// that needs no call. Confirms an entry the run has (found by O(1) checks), or links a new
  /// one if the store can without a call; true when done. False leaves the store and the run
  /// as they were, for `trackNew`. (`track` is the two together.)
  mutating func trackInline(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run) -> Bool
  /// The rest of `track`: a new dependency `dep` of the running `sub`, seeing `version`,
  /// where `trackInline` just did nothing.
  mutating func trackNew(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run)
  /// Ends the run of `sub`: drops the dependencies it did not read again. Appends to
  /// `orphaned` each row that lost its last subscriber (the queue keeps those the collector
  /// may release).
  mutating func endRun(_ run: Run, sub: Slot, orphaned: inout OrphanQueue)
  /// Drops every dependency of `sub` (release), reporting orphans as `endRun` does.
  mutating func removeAllDeps(of sub: Slot, orphaned: inout OrphanQueue)

  // MARK: Reports
  /// Live dependency edges.
  var liveEdgeCount: Int { get }
  /// Bytes the store holds for its edges and per-row heads (capacity, not just use).
  var reservedBytes: Int { get }
  /// Checks the store's own structure for rows `0..<rowCount` (under `COG_INTERNAL_CHECKS`):
  /// every dependency is listed among its dependency's subscribers and back, counts agree.
  /// `isReleased` tells released rows, which must have no edges.
  func checkInvariants(rowCount: Int, isReleased: (Slot) -> Bool)
  /// Frees the store's buffers; called once by the owning graph's `deinit`.
  func free()
}

extension EdgeStore {
  /// The running `sub` read `dep` (not the candidate), seeing `version`: confirms the entry
  /// the run has, or links a new one.
  @inlinable @inline(__always)
  package mutating func track(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run) {
    if !trackInline(dep, version: version, sub: sub, &run) {
      trackNew(dep, version: version, sub: sub, &run)
    }
  }
}

/// A position in a store's list, with a sentinel for "none" (the end of a list).
@usableFromInline
package protocol EdgePosition: Equatable {
  static var none: Self { get }
  var isNone: Bool { get }
}

/// The edge entries a layout's store holds before it first grows, in the layouts that keep
/// every edge in a pool or column (`InlineOverflow` starts its overflow pool at 16: its first
/// edges live in the row's record). A store's
/// per-row columns (heads, records) take the context's row reservation; its edges, whose
/// number a row count does not tell, start here and double.
@inlinable package var initialEdgeCapacity: Int { 64 }
