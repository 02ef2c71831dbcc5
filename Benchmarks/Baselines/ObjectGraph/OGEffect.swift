/// A side effect that re-runs when a dependency changed (swift-state-graph's tracking group,
/// with the pending-edge check described in `ObjectGraph`).
///
/// It runs once at creation. When the push phase reaches it, it calls `schedule` once; the
/// owner later calls `runIfNeeded()` (at the end of its batch), which checks the edges in read
/// order and runs the body only if one is pending.
public final class OGEffect: OGNode, @unchecked Sendable {
  let body: () -> Void
  let schedule: (OGEffect) -> Void
  /// Creation order; owners run scheduled effects in this order.
  public let serial: Int
  /// How many times the body ran.
  public private(set) var runCount = 0
  public private(set) var isCancelled = false

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

  override func didBecomePotentiallyDirty() {
    if !isCancelled { schedule(self) }
  }

  /// Runs the body if a dependency changed since the last run; clears the dirty mark.
  public func runIfNeeded() {
    lock.lock()
    defer { lock.unlock() }
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
    OGThreadLocal.withCurrentNode(self, body)
    runCount += 1
    potentiallyDirty = false
  }
}
