@_spi(Testing) import Cog
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
/// (`HandOffs`), and yields between them for what they queue on the main actor (a new task
/// goes straight there, behind what was queued before).
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

  /// Waits until every waiter resumed before this call has run again. Yields (the main actor
  /// runs what the landed waiters queue meanwhile) rather than suspending on a continuation of
  /// its own, whose wake-up would take the same hop through the global executor.
  static func allLanded() async {
    let before = nextTicket
    while let lowest = inFlight.min(), lowest <= before { await Task.yield() }
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
