/// A side effect that re-runs when a dependency changed (swift-state-graph's tracking group,
/// with the pending-edge check described in `ObjectGraph`).
///
/// It runs once at creation. Its body runs with the effect as the current node (its reads make
/// edges to it) and its `OGTrackingRegistration` as the current registration (the nodes it
/// reads record it). When a node it read fires the registration, it calls `schedule` once
/// (until its next `runIfNeeded`); the owner later calls `runIfNeeded()` (at the end of its
/// batch), which checks the edges in read order and runs the body only if one is pending.
public final class OGEffect: OGNode, @unchecked Sendable {
  let body: () -> Void
  let schedule: (OGEffect) -> Void
  /// Creation order; owners run scheduled effects in this order.
  public let serial: Int
  /// How many times the body ran.
  public private(set) var runCount = 0
  public private(set) var isCancelled = false
  /// Scheduled since the last `runIfNeeded`.
  var isScheduled = false
  private(set) lazy var registration = OGTrackingRegistration(effect: self)

  public init(
    label: String = "", serial: Int, schedule: @escaping (OGEffect) -> Void,
    _ body: @escaping () -> Void
  ) {
    self.body = body
    self.schedule = schedule
    self.serial = serial
    super.init(label: label)
    run()
  }

  /// A node the body read was written or turned potentially dirty.
  func registrationFired() {
    lock.lock()
    let first = !isCancelled && !isScheduled
    if first { isScheduled = true }
    lock.unlock()
    if first { schedule(self) }
  }

  /// Runs the body if a dependency changed since the last run; clears the dirty mark.
  public func runIfNeeded() {
    lock.lock()
    defer { lock.unlock() }
    isScheduled = false
    guard !isCancelled, potentiallyDirty else { return }
    if hasPendingDependency() {
      run()
    } else {
      potentiallyDirty = false
    }
  }

  /// Stops the effect and drops its edges, so its dependencies stop pointing at it.
  public func cancel() {
    lock.lock()
    isCancelled = true
    lock.unlock()
    tearDownIncomingEdges()
  }

  func run() {
    tearDownIncomingEdges()
    OGThreadLocal.withCurrentRegistration(registration) {
      OGThreadLocal.withCurrentNode(self, body)
    }
    runCount += 1
    potentiallyDirty = false
  }
}
