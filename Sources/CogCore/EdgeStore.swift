/// The edge structure the core is generic over: the part of the layout the workbench compares
/// (shared linked pool, per-state prefix arrays, inline first dependency + overflow).
///
/// A conforming store keeps, per slot, an ordered dependency list and a subscriber list, and
/// supports the four things propagation needs without allocating or hashing in a steady run:
/// - **track**: during a run, confirm the next dependency in order (cursor reuse) or insert one;
/// - **end tracking**: after a run, drop the dependencies the run did not read again;
/// - **iterate subscribers** (push) and **dependencies** (pull, resumable from an `EdgeID`);
/// - **remove all** dependencies of a slot (release).
///
/// Conformers are structs stored inline in `Graph`, with `@inlinable` members, so that every
/// call specializes and inlines in the measured binary (no witness-table calls).
public protocol EdgeStore {
  init()
  /// Makes room for slots `0..<count`; new slots have no edges.
  mutating func ensureSlots(_ count: Int)

  func firstDep(of sub: Slot) -> EdgeID
  func nextDep(_ e: EdgeID) -> EdgeID
  func dep(_ e: EdgeID) -> Slot
  /// The dependency's `changedAt` seen when the edge was last confirmed.
  func version(_ e: EdgeID) -> UInt32

  func firstSub(of dep: Slot) -> EdgeID
  func nextSub(_ e: EdgeID) -> EdgeID
  func sub(_ e: EdgeID) -> Slot
  func hasSubscribers(_ dep: Slot) -> Bool

  /// The edge a run of `sub` would confirm next, given `cursor`, the last edge it confirmed
  /// (`.none` at the start of the run). `.none` when the run has read past its old list.
  func nextCandidate(of sub: Slot, after cursor: EdgeID) -> EdgeID
  /// Records that the running row read again the dependency of `e`, its next candidate (the
  /// caller checked the row), seeing `version`. The caller advances its cursor to `e`.
  mutating func confirm(_ e: EdgeID, version: UInt32)
  /// Records that the running `sub` read `dep`, seeing `version`; advances `cursor`.
  mutating func track(dep: Slot, sub: Slot, version: UInt32, cursor: inout EdgeID)
  /// Drops the dependencies of `sub` after `cursor`. Appends to `orphaned` each dependency that
  /// lost its last subscriber.
  mutating func endTracking(sub: Slot, cursor: EdgeID, orphaned: inout RawColumn<Slot>)
  /// Drops every dependency of `sub` (release), reporting orphans as `endTracking` does.
  mutating func removeAllDeps(of sub: Slot, orphaned: inout RawColumn<Slot>)

  /// Live edges, for invariant checks and memory reports.
  var liveEdgeCount: Int { get }
  /// Frees the store's buffers; called once by the owning graph's `deinit`.
  func free()
}
