@_spi(Testing) import Cog
import Dispatch
import Synchronization
import Testing

// Test doubles for async cogs: work whose completion the test decides (`Jobs`), and a
// sequence whose elements the test sends (`Feed`). Both live on the main actor, as the
// runtime's tasks do, and `settle()` lets what the test started run to the end. No sleeps.

/// Lets the main actor run what is queued on it: resumed work, its outcome's turn, the next
/// work a policy starts. A task the test resumes through a continuation (a job's work, a
/// feed's iterator) does not go straight back to the main actor: it resumes on the global
/// executor and hops from there, after any number of main-actor yields (1 to over 700 measured
/// under CPU load), so yields alone cannot wait for it. `settle()` waits for those hand-offs
/// (`HandOffs`), and for the hops of tasks on a `TrackedExecutor` (an export's consumer, which
/// waits in an `AsyncStream` off the main actor), and yields between them for what they queue
/// on the main actor (a new task goes straight there, behind what was queued before).
@MainActor
func settle() async {
  for _ in 0..<8 {
    await HandOffs.allLanded()
    await Task.yield()
  }
  await HandOffs.allLanded()
}

/// The waiters the test doubles resumed and that have not run again yet (see `settle()`).
/// A test double takes a ticket when it resumes a waiter it had stored and gives it back when
/// that waiter runs on the main actor again; `allLanded()` waits for the tickets taken so far
/// (not for later ones: tests run in parallel on the main actor).
@MainActor
enum HandOffs {
  private static var nextTicket = 0
  private static var inFlight: Set<Int> = []

  /// A stored waiter is being resumed: its ticket.
  static func resumed() -> Int {
    nextTicket += 1
    inFlight.insert(nextTicket)
    return nextTicket
  }

  /// The waiter of `ticket` runs again.
  static func landed(_ ticket: Int) { inFlight.remove(ticket) }

  /// Waits until every waiter resumed before this call has run again, and every job enqueued
  /// on a `TrackedExecutor` before it has run. Yields (the main actor runs what the landed
  /// waiters queue meanwhile) rather than suspending on a continuation of its own, whose
  /// wake-up would take the same hop through the global executor. A hand-off that never lands
  /// (a runtime that loses a task) fails the test after a million yields instead of hanging it.
  static func allLanded() async {
    let before = nextTicket
    let hopsBefore = hops.withLock { $0.next }
    for _ in 0..<1_000_000 {
      if let lowest = inFlight.min(), lowest <= before {
      } else if let lowest = hops.withLock({ $0.inFlight.min() }), lowest <= hopsBefore {
      } else {
        return
      }
      await Task.yield()
    }
    Issue.record("a hand-off did not land in a million main-actor yields")
  }

  /// The jobs enqueued on a `TrackedExecutor` that have not run yet: tickets as above, taken
  /// and given back off the main actor.
  private nonisolated static let hops = Mutex<(next: Int, inFlight: Set<Int>)>((0, []))

  /// A job was enqueued on a `TrackedExecutor`: its ticket.
  nonisolated static func hopTaken() -> Int {
    hops.withLock { h in
      h.next += 1
      h.inFlight.insert(h.next)
      return h.next
    }
  }

  /// The job of `ticket` ran: its task is queued on the main actor, waits on something, or
  /// is done.
  nonisolated static func hopLanded(_ ticket: Int) {
    _ = hops.withLock { $0.inFlight.remove(ticket) }
  }
}

/// A task executor that tracks the jobs of the tasks that prefer it
/// (`withTaskExecutorPreference`), for `settle()`: a task that waits off the main actor (in an
/// `AsyncStream`'s `next()`, whose iterator runs on the global executor) or that a
/// continuation resumed runs its next job here, and from here hops to the main actor. Each job
/// holds a ticket (`HandOffs`) from its enqueueing until it has run, so `settle()` waits for
/// the hops of such tasks however long the global executor takes to run them, which counting
/// main-actor yields cannot (the differential test's export consumers: a consumer on its way
/// into `next()` when its task is cancelled, a value on its way to a consumer).
///
/// `holdFor`: every `every`-th job waits that many main-actor yields before it runs (a hop
/// made slow on purpose: `COG_ASYNC_DIFF_HOP_YIELDS`, and the tests of `settle()` itself).
final class TrackedExecutor: TaskExecutor, Sendable {
  let holdFor: Int
  let every: Int
  private let count = Mutex(0)

  init(holdFor: Int = 0, every: Int = 1) {
    self.holdFor = holdFor
    self.every = max(every, 1)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let ticket = HandOffs.hopTaken()
    let n = count.withLock { c in
      c += 1
      return c % every == 0 ? holdFor : 0
    }
    if n == 0 {
      run(job, ticket)
    } else {
      Task { @MainActor in
        for _ in 0..<n { await Task.yield() }
        self.run(job, ticket)
      }
    }
  }

  private func run(_ job: UnownedJob, _ ticket: Int) {
    DispatchQueue.global().async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      HandOffs.hopLanded(ticket)
    }
  }
}

struct TestFailure: Error, Equatable {
  var code: Int
}

/// One piece of work started by an async cog: its input, and a continuation the test resolves.
@MainActor
final class Job<V: Sendable> {
  let input: Int
  private(set) var wasCancelled = false
  private(set) var isDone = false
  private var continuation: UnsafeContinuation<V, any Error>?
  /// A result given before the work started waiting (its task had not run yet).
  private var early: Result<V, any Error>?
  /// When set, the work ignores cancellation and returns this once resolved (a late result).
  var ignoresCancellation = false
  /// The ticket of the resumed work's hand-off, until the work runs again (`HandOffs`).
  private var handOff: Int?

  init(input: Int) { self.input = input }

  /// What the work awaits.
  func wait() async throws -> V {
    defer {
      if let t = handOff {
        handOff = nil
        HandOffs.landed(t)
      }
    }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { c in
        if let early {
          self.early = nil
          c.resume(with: early)
        } else if Task.isCancelled && !ignoresCancellation {
          wasCancelled = true
          c.resume(throwing: CancellationError())
        } else {
          continuation = c
        }
      }
    } onCancel: {
      MainActor.assumeIsolated { self.cancelled() }
    }
  }

  private func cancelled() {
    wasCancelled = true
    if ignoresCancellation { return }
    resume(.failure(CancellationError()))
  }

  func succeed(_ value: V) { resume(.success(value)) }
  func fail(_ error: any Error) { resume(.failure(error)) }

  private func resume(_ result: Result<V, any Error>) {
    isDone = true
    guard let c = continuation else {
      early = result
      return
    }
    continuation = nil
    handOff = HandOffs.resumed()
    c.resume(with: result)
  }
}

/// Every job an async cog started, in start order.
@MainActor
final class Jobs<V: Sendable> {
  private(set) var all: [Job<V>] = []
  func start(_ input: Int) -> Job<V> {
    let j = Job<V>(input: input)
    all.append(j)
    return j
  }
  var inputs: [Int] { all.map(\.input) }
  subscript(i: Int) -> Job<V> { all[i] }
  var count: Int { all.count }
}

/// A sequence the test feeds, element by element; iterated on the main actor.
@MainActor
final class Feed<E: Sendable> {
  let name: Int
  private var waiter: UnsafeContinuation<E?, Never>?
  private var buffer: [E] = []
  private var ended = false
  private(set) var iterators = 0
  private(set) var wasCancelled = false
  /// The ticket of the resumed iterator's hand-off, until it runs again (`HandOffs`).
  private var handOff: Int?

  init(name: Int) { self.name = name }

  /// Resumes the waiting iterator with `element` (nil: the end).
  private func hand(_ element: E?) {
    guard let w = waiter else { return }
    waiter = nil
    handOff = HandOffs.resumed()
    w.resume(returning: element)
  }

  /// Hands `element` to the iterator (buffered if it is not waiting).
  func send(_ element: E) {
    if waiter != nil { hand(element) } else { buffer.append(element) }
  }

  func end() {
    ended = true
    hand(nil)
  }

  fileprivate func next() async -> E? {
    if !buffer.isEmpty { return buffer.removeFirst() }
    if ended || Task.isCancelled { return nil }
    let element = await withTaskCancellationHandler {
      await withUnsafeContinuation { c in waiter = c }
    } onCancel: {
      MainActor.assumeIsolated { self.cancelled() }
    }
    if let t = handOff {
      handOff = nil
      HandOffs.landed(t)
    }
    return element
  }

  private func cancelled() {
    wasCancelled = true
    hand(nil)
  }

  var sequence: FeedSequence<E> { FeedSequence(feed: self) }
}

struct FeedSequence<E: Sendable>: AsyncSequence {
  typealias Element = E
  let feed: Feed<E>

  struct AsyncIterator: AsyncIteratorProtocol {
    let feed: Feed<E>
    mutating func next() async -> E? { await feed.next() }
    // The runtime iterates on the main actor: this is the call it makes, no hop.
    mutating func next(isolation actor: isolated (any Actor)?) async -> E? { await feed.next() }
  }

  func makeAsyncIterator() -> AsyncIterator {
    MainActor.assumeIsolated { feed.iteratorMade() }
    return AsyncIterator(feed: feed)
  }
}

extension Feed {
  fileprivate func iteratorMade() { iterators += 1 }
}

/// Counts and logs what reactions saw.
@MainActor
final class Seen<V> {
  var values: [V] = []
  var statuses: [CogAsyncStatus] = []
  var pending: [Bool] { statuses.map(\.isPending) }
}

/// A task executor that holds the jobs enqueued on it until released, then passes them (and
/// every later one) to the global executor. A task that prefers it (`withTaskExecutorPreference`)
/// resumes here when a continuation it waits on is resumed, instead of on the global executor:
/// the test decides when that hop back to the main actor happens.
final class HeldExecutor: TaskExecutor, Sendable {
  private let state: Mutex<(open: Bool, jobs: [UnownedJob])>

  /// Holding from the start, or (`holding: false`) from `hold()` on.
  init(holding: Bool = true) { state = Mutex((!holding, [])) }

  /// Holds the jobs enqueued from now on.
  func hold() { state.withLock { $0.open = false } }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let open = state.withLock { s in
      if !s.open { s.jobs.append(job) }
      return s.open
    }
    if open { globalConcurrentExecutor.enqueue(job) }
  }

  /// Releases the held jobs once the main actor has yielded `yields` times.
  @MainActor func release(afterYields yields: Int) -> Task<Void, Never> {
    Task { @MainActor in
      for _ in 0..<yields { await Task.yield() }
      let jobs = state.withLock { s in
        s.open = true
        defer { s.jobs = [] }
        return s.jobs
      }
      for job in jobs { globalConcurrentExecutor.enqueue(job) }
    }
  }
}
