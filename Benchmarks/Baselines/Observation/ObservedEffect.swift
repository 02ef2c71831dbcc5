import Observation

/// An effect over `@Observable` state: runs `body` inside `withObservationTracking`. The
/// `onChange` callback is one-shot and fires during the mutation's `willSet`, before the new
/// value is stored, so it only calls `schedule`; the owner calls `runIfScheduled()` after the
/// writes, which re-runs the body and re-arms the tracking.
///
/// Observation has no way to remove a registration: after `cancel()` the last one stays until
/// it fires once more, and is then ignored.
public final class ObservedEffect: @unchecked Sendable {
  let body: () -> Void
  let schedule: (ObservedEffect) -> Void
  /// Creation order; owners run scheduled effects in this order.
  public let serial: Int
  /// How many times the body ran.
  public private(set) var runCount = 0
  public private(set) var isScheduled = false
  public private(set) var isCancelled = false

  public init(
    serial: Int, schedule: @escaping (ObservedEffect) -> Void, _ body: @escaping () -> Void
  ) {
    self.body = body
    self.schedule = schedule
    self.serial = serial
    run()
  }

  /// Re-runs the body if a tracked property changed since the last run.
  public func runIfScheduled() {
    guard isScheduled, !isCancelled else { return }
    isScheduled = false
    run()
  }

  public func cancel() {
    isCancelled = true
  }

  func run() {
    runCount += 1
    withObservationTracking(body) { [weak self] in
      self?.changed()
    }
  }

  func changed() {
    guard !isCancelled, !isScheduled else { return }
    isScheduled = true
    schedule(self)
  }
}
