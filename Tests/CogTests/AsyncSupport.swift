@_spi(Testing) import Cog
import Testing

// Test doubles for async cogs: work whose completion the test decides (`Jobs`), and a
// sequence whose elements the test sends (`Feed`). Both live on the main actor, as the
// runtime's tasks do, so that every step is ordered: a resumed continuation enqueues its task
// on the main actor, and `settle()` lets the queued jobs run. No sleeps anywhere.

/// Lets the main actor run what is queued on it: resumed work, its outcome's turn, the next
/// work a policy starts. Everything in these tests runs on the main actor, so a few yields
/// drain it (each job queued before a yield runs before the test resumes).
@MainActor
func settle() async {
  for _ in 0..<8 { await Task.yield() }
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

  init(input: Int) { self.input = input }

  /// What the work awaits.
  func wait() async throws -> V {
    try await withTaskCancellationHandler {
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

  init(name: Int) { self.name = name }

  /// Hands `element` to the iterator (buffered if it is not waiting).
  func send(_ element: E) {
    if let w = waiter {
      waiter = nil
      w.resume(returning: element)
    } else {
      buffer.append(element)
    }
  }

  func end() {
    ended = true
    if let w = waiter {
      waiter = nil
      w.resume(returning: nil)
    }
  }

  fileprivate func next() async -> E? {
    if !buffer.isEmpty { return buffer.removeFirst() }
    if ended || Task.isCancelled { return nil }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { c in waiter = c }
    } onCancel: {
      MainActor.assumeIsolated { self.cancelled() }
    }
  }

  private func cancelled() {
    wasCancelled = true
    if let w = waiter {
      waiter = nil
      w.resume(returning: nil)
    }
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
