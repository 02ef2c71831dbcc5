import Foundation

/// The object-graph baseline: a reactive core with the cost structure of swift-state-graph
/// (VergeGroup/swift-state-graph, `Sources/StateGraph/Primitives`, as described in
/// swift/Benchmarks/baselines.md), written from that description so that it builds on Linux
/// without a port and without Combine, `os` or swift-syntax.
///
/// What it models, one for one:
/// - one class instance per node (`OGStored`, `OGComputed`, `OGEffect`), each with its own
///   `NSRecursiveLock` (`NodeLock`), held while the node is read, written or recomputed, and
///   its own `ObservationRegistrar`, made with the node;
/// - Observation on every node (`OGObservation.swift`): every read calls the registrar's
///   `access` with the key path `\OGObservationRoot<Node>.wrappedValue`, which is generic over
///   the node's type, so the runtime builds it (`swift_getKeyPath`: mangled-name lookup and an
///   allocation) on every access and every notification;
/// - the task hop (`ogWithMainActor`, swift-state-graph's `withMainActor`): a stored write
///   notifies `willSet` and, at its end, `didSet`, and a computed that turns potentially dirty
///   notifies `willSet`, each inside its own `Task.immediate { @MainActor in … }`, which runs
///   inline when the writer is on the main actor (two tasks per write, one per dirtying);
/// - one heap object per dependency (`OGEdge`) with `weak` references to both ends and a lock
///   of its own (`OGAllocatedLock`, a pthread-mutex stand-in for `OSAllocatedUnfairLock`, the
///   same stand-in the Linux port used) guarding its `isPending` flag;
/// - edges appended to both ends' `ContiguousArray`s on every tracked read, without dedup;
/// - two thread-locals in `Thread.current.threadDictionary` with `String` keys and `as?`
///   casts, both looked up on every read (`OGThreadLocal`): the running computation, and the
///   running tracking registration (`OGTrackingRegistration`), which a read records in the
///   node's `trackingRegistrations` set; a write or a dirtying snapshots that set with the
///   edges and fires the registrations (here: an effect's, which schedules it);
/// - dynamic dependencies rebuilt on every recompute: all incoming edges are torn down, each
///   removal an O(n) `removeAll(where: ===)` on the upstream's outgoing array;
/// - version-less propagation: a write marks its outgoing edges pending and pushes
///   `potentiallyDirty` downstream; a read pulls upstream first, in edge order, and reruns the
///   rule at the first pending edge; a recompute with an equal result marks nothing pending
///   (equality cutoff).
///
/// How close it is: issue 17 measured swift-state-graph itself (a local Linux port) on the
/// `sinks/*` cases' shapes; `cog-bench render` compares this model with those figures, per
/// recomputed node, in the record (`impl/perf.md`, "The object-graph model against
/// swift-state-graph"), and labels the model's comparisons with Cog when it is not within
/// 1.3× of them.
///
/// Where it differs:
/// - no debug `NodeStore` registration (release builds have none either);
/// - effects: state-graph re-runs a tracking group whenever its registration fires, which
///   includes computeds that then turn out equal. `OGEffect` is scheduled by its registration
///   but then checks its edges like a computed and runs only if one is pending, so that its
///   run counts match SEMANTICS (§4–5) and the benchmark cases' checks hold;
/// - a registration stays in the set of a node its group no longer reads (the firing then
///   schedules an effect that runs nothing).
///
/// Values and run counts follow `swift/SEMANTICS.md` (lazy computeds, dependencies checked in
/// read order up to the first change, equality cutoff) with one documented exception: there
/// are no turns. A write applies at once, so a batch that writes a source and writes it back
/// (A → B → A) still marks its readers, and they rerun on the next read; SEMANTICS compares
/// staged and current values at the end of the turn and reruns nothing.
public enum ObjectGraph {
  /// The lock every node carries, as in swift-state-graph (`typealias NodeLock`).
  public typealias NodeLock = NSRecursiveLock
}
