import Foundation

/// The object-graph baseline: a reactive core with the cost structure of swift-state-graph
/// (VergeGroup/swift-state-graph, `Sources/StateGraph/Primitives`, as described in
/// swift/Benchmarks/baselines.md), written from that description so that it builds on Linux
/// without a port and without Combine, `os` or swift-syntax.
///
/// What it models, one for one:
/// - one class instance per node (`OGStored`, `OGComputed`, `OGEffect`), each with its own
///   `NSRecursiveLock` (`NodeLock`), held while the node is read, written or recomputed;
/// - one heap object per dependency (`OGEdge`) with `weak` references to both ends and a lock
///   of its own (`OGAllocatedLock`, a pthread-mutex stand-in for `OSAllocatedUnfairLock`, the
///   same stand-in the Linux port used) guarding its `isPending` flag;
/// - edges appended to both ends' `ContiguousArray`s on every tracked read, without dedup;
/// - the running computation found through `Thread.current.threadDictionary` with a `String`
///   key and an `as?` cast on every read (`OGThreadLocal`);
/// - dynamic dependencies rebuilt on every recompute: all incoming edges are torn down, each
///   removal an O(n) `removeAll(where: ===)` on the upstream's outgoing array;
/// - version-less propagation: a write marks its outgoing edges pending and pushes
///   `potentiallyDirty` downstream; a read pulls upstream first, in edge order, and reruns the
///   rule at the first pending edge; a recompute with an equal result marks nothing pending
///   (equality cutoff).
///
/// Where it differs (each difference makes it cheaper than the real library, so its numbers
/// are a lower bound of swift-state-graph's costs):
/// - no `ObservationRegistrar` per node, so no `access`/`willSet`/`didSet` and no generic
///   key path (`swift_getKeyPath`) instantiated per access;
/// - no `Task.immediate` per write or dirtying (`withMainActor`);
/// - no debug `NodeStore` registration;
/// - effects: state-graph re-runs a tracking group whenever Observation reports a `willSet` of
///   a tracked node, which includes computeds that then turn out equal. `OGEffect` instead
///   checks its edges like a computed and runs only if one is pending, so that its run counts
///   match SEMANTICS (§4–5) and the benchmark cases' checks hold.
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
