import Synchronization

/// A clock that moves only when the test says so: for `.cache` retention
/// (`Cogs(clock:)`) and for async work that sleeps.
///
/// ```swift
/// let clock = CogTestClock()
/// let cogs = Cogs(clock: clock)
/// clock.advance(by: .seconds(30))  // wakes every sleeper due by then
/// ```
///
/// `sleep(until:)` suspends until `advance` reaches the deadline (or the task is cancelled,
/// which throws `CancellationError`); a deadline already reached returns at once. Retention
/// is applied at the end of each turn, so a retention that ran out shows after the next turn.
public final class CogTestClock: Clock, Sendable {
  /// A point on the test clock: time since the clock was made.
  public struct Instant: InstantProtocol, Sendable {
    /// Time since the clock was made.
    public var offset: Duration

    /// The point `offset` after the clock was made.
    public init(offset: Duration) { self.offset = offset }

    /// The point `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The time from this point to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Whether `a` comes before `b`.
    public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
  }

  /// A sleeping task: its deadline, its continuation, and an id to find it on cancellation.
  private struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var lastID: UInt64 = 0
  }

  private let state = Mutex(State())

  /// A clock at zero.
  public init() {}

  /// The current time: moves only by `advance(by:)`.
  public var now: Instant { state.withLock { $0.now } }

  /// The smallest step: one nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Moves the clock forward by `duration` (which must not be negative) and wakes, in order of
  /// their deadlines, the sleepers due by then. A woken task runs when its executor next
  /// runs it: `await cogs.settle()` lets it finish.
  public func advance(by duration: Duration) {
    if duration < .zero {
      fatalError("Cog: CogTestClock.advance(by:) was given \(duration); time only moves forward")
    }
    let due = state.withLock { s in
      s.now = s.now.advanced(by: duration)
      let now = s.now
      let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      s.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Suspends until the clock reaches `deadline` (see the type's documentation).
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { s in
      s.lastID += 1
      return s.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
        let resumeNow: (any Error)?? = state.withLock { s in
          if Task.isCancelled { return .some(CancellationError()) }
          if deadline <= s.now { return .some(nil) }
          s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: c))
          return .none
        }
        switch resumeNow {
        case .some(.some(let error)): c.resume(throwing: error)
        case .some(.none): c.resume()
        case .none: break
        }
      }
    } onCancel: {
      let sleeper = state.withLock { s -> Sleeper? in
        guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return s.sleepers.remove(at: i)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }
}
