import Observation

/// The type-erased part of every node (swift-state-graph's `TypeErasedNode`): its lock, its
/// edge arrays, the tracking registrations that read it, the `potentiallyDirty` flag of the
/// push phase, and the `ObservationRegistrar` every node carries (eagerly, one per node).
public class OGNode: @unchecked Sendable {
  public let label: String
  public let lock = ObjectGraph.NodeLock()
  let observationRegistrar = ObservationRegistrar()
  var outgoingEdges: ContiguousArray<OGEdge> = []
  var incomingEdges: ContiguousArray<OGEdge> = []
  var trackingRegistrations: Set<OGTrackingRegistration> = []
  var potentiallyDirty = false

  init(label: String) {
    self.label = label
  }

  /// A node that goes away takes its edges out of its dependencies' outgoing arrays (each an
  /// O(n) removal), so that writes stop visiting it.
  deinit {
    for edge in incomingEdges { edge.from?.removeOutgoingEdge(edge) }
  }

  /// How many edges this node has to its readers and from its dependencies (duplicates
  /// included: a node read twice in one run has two edges).
  public var edgeCounts: (incoming: Int, outgoing: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (incomingEdges.count, outgoingEdges.count)
  }

  /// Pull phase: brings the node up to date. Nothing to do for a stored node.
  func recomputeIfNeeded() {}

  /// Called once when the node turns potentially dirty (a computed notifies Observation
  /// through a main-actor task).
  func didBecomePotentiallyDirty() {}

  /// Push phase: marks this node and everything downstream potentially dirty, then tells the
  /// tracking registrations that read it. Stops at a node already marked: its readers were
  /// marked when it was (a node is cleaned only by a pull, which cleans its dependencies
  /// first).
  func markPotentiallyDirty() {
    lock.lock()
    if potentiallyDirty {
      lock.unlock()
      return
    }
    potentiallyDirty = true
    let edges = outgoingEdges
    let registrations = trackingRegistrations
    lock.unlock()
    didBecomePotentiallyDirty()
    for edge in edges { edge.to?.markPotentiallyDirty() }
    for registration in registrations { registration.fire() }
  }

  /// Records a read of this node: the running tracking registration, if any, joins the
  /// node's set (both thread-locals are looked up on every read), and the running
  /// computation, if any, gets a new edge appended to both ends (no dedup, as in
  /// swift-state-graph).
  func registerRead() {
    let registration = OGThreadLocal.currentRegistration
    let reader = OGThreadLocal.currentNode
    if let registration {
      lock.lock()
      trackingRegistrations.insert(registration)
      lock.unlock()
    }
    guard let reader else { return }
    let edge = OGEdge(from: self, to: reader)
    lock.lock()
    outgoingEdges.append(edge)
    lock.unlock()
    reader.lock.lock()
    reader.incomingEdges.append(edge)
    reader.lock.unlock()
  }

  /// O(n) in the number of readers, like `removeOutgoingEdge` in swift-state-graph.
  func removeOutgoingEdge(_ edge: OGEdge) {
    lock.lock()
    outgoingEdges.removeAll(where: { $0 === edge })
    lock.unlock()
  }

  /// Drops every dependency before a recompute (or on cancel).
  func tearDownIncomingEdges() {
    lock.lock()
    let edges = incomingEdges
    incomingEdges.removeAll()
    lock.unlock()
    for edge in edges { edge.from?.removeOutgoingEdge(edge) }
  }

  /// Marks the edges to this node's readers pending ("my value changed").
  func markOutgoingEdgesPending() {
    lock.lock()
    let edges = outgoingEdges
    lock.unlock()
    for edge in edges { edge.isPending = true }
  }

  /// The pull-phase check shared by computeds and effects: brings each dependency up to date
  /// in edge (read) order and reports whether one is pending, stopping at the first.
  func hasPendingDependency() -> Bool {
    lock.lock()
    let edges = incomingEdges
    lock.unlock()
    for edge in edges {
      edge.from?.recomputeIfNeeded()
      if edge.isPending { return true }
    }
    return false
  }
}
