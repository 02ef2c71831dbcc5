#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Async cogs in the workbench (swift/0004-async-cogs.md): stream elements published through a
// small graph, and `.latest` restarts with their cancellations. The async work runs in Swift
// tasks on the main actor, as in an app; the measured iteration drives them by draining the
// main queue itself (`MainActorJobs.run`), so that every job runs on the measuring thread at
// a fixed point and the counts repeat exactly. That needs a thread that is not already running
// a main-queue job: the runner's (its `main` is synchronous). In `swift test`, which runs on
// the main queue, these cases run through the runner (CogBenchTests' AsyncCaseTests).

public enum AsyncCases {
  @inlinable @MainActor
  public static func visit<V: CaseVisitor>(_ v: inout V) {
    v.visitAsync(CogAsyncStream())
    v.visitAsync(CogAsyncLatestRestart())
  }
}

// MARK: - Adapter

/// A system with async cogs (Cog): a `.latest` async computed whose body reads tracked and
/// returns work or a stream.
@MainActor
public protocol AsyncReactiveSystem: KeyedReactiveSystem {
  /// An async computed with the `.latest` policy: `body` runs like a computed's (its reads
  /// are tracked) and returns the work to run or the feed to follow; the value is `initial`
  /// until the first result.
  func latestComputed<T: Equatable & Sendable>(initial: T, _ body: @escaping () -> BenchWork<T>)
    -> ComputedHandle<T>
}

extension Guaranteed where S: AsyncReactiveSystem {
  @inlinable @inline(__always) @MainActor
  public func latestComputed<T: Equatable & Sendable>(
    initial: T, _ body: @escaping () -> BenchWork<T>
  ) -> ComputedHandle<T> {
    with { $0.latestComputed(initial: initial, body) }
  }
}

/// What an async computed's body returns.
public enum BenchWork<T: Sendable> {
  case run(@MainActor @Sendable () async throws -> T)
  case stream(BenchFeed<T>)
}

/// A case that needs async cogs; not applicable to systems that are not `AsyncReactiveSystem`.
@MainActor
public protocol AsyncBenchmarkCase: CaseDescription {
  func prepare<S: AsyncReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
}

/// Runs the jobs queued on the main actor (the dispatch main queue), on this thread: what an
/// app's run loop does between events. libdispatch's run-loop hooks, looked up at run time
/// (Foundation's run loop calls them): the drain, and the handle (an eventfd on Linux) that
/// is signalled when a job arrives. It cannot drain from inside a main-queue job (the queue is
/// serial): `canRun` says whether this process can.
///
/// A task resumed by a continuation does not always reach the main queue at once (on this
/// toolchain it can arrive a moment later, from another thread), so `run(until:)` drains,
/// and while `done` is false waits on the handle (in the kernel) and drains again.
public enum MainActorJobs {
  typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void
  typealias Handle = @convention(c) () -> Int32

  static let hooks: (drain: Hook, fd: Int32)? = {
    guard let h = dlopen(nil, RTLD_NOW),
      let handle = dlsym(h, "_dispatch_get_main_queue_handle_4CF"),
      let drain = dlsym(h, "_dispatch_main_queue_callback_4CF")
    else { return nil }
    // The main queue serves a run loop once its run-loop handle exists.
    let fd = unsafeBitCast(handle, to: Handle.self)()
    return (unsafeBitCast(drain, to: Hook.self), fd)
  }()

  /// Whether `run` can drain here: the hooks exist and the caller says it is not on the main
  /// queue (set by the runner, whose `main` is synchronous).
  @MainActor public static var canRun: Bool { hooks != nil && isOutsideMainQueue }
  @MainActor public static var isOutsideMainQueue = false

  /// Drains the main queue once.
  @MainActor @inline(never)
  public static func run() { hooks?.drain(nil) }

  /// Drains until `done()`; false if it did not happen within `timeoutSeconds`.
  @MainActor @inline(never) @discardableResult
  public static func run(until done: () -> Bool, timeoutSeconds: Int32 = 10) -> Bool {
    guard let hooks else { return done() }
    while true {
      hooks.drain(nil)
      if done() { return true }
      var p = pollfd(fd: hooks.fd, events: Int16(POLLIN), revents: 0)
      if poll(&p, 1, timeoutSeconds * 1000) <= 0 { return done() }
      var count: UInt64 = 0
      _ = read(hooks.fd, &count, 8)  // reset the eventfd; the drain takes the jobs
    }
  }
}

/// A sequence the case feeds, one element at a time, iterated on the main actor with no hop:
/// `send` resumes the waiting iterator, which queues its task on the main actor.
@MainActor
public final class BenchFeed<T: Sendable> {
  @usableFromInline var waiter: UnsafeContinuation<T?, Never>?
  @usableFromInline var ended = false
  /// Whether the iterator waits for the next element (it handled the previous one).
  public var isWaiting: Bool { waiter != nil }
  public private(set) var iterators = 0
  public private(set) var cancellations = 0

  public init() {}

  /// Hands `element` to the waiting iterator; false if none waits (a case error).
  @discardableResult
  public func send(_ element: T) -> Bool {
    guard let w = waiter else { return false }
    waiter = nil
    w.resume(returning: element)
    return true
  }

  public func end() {
    ended = true
    if let w = waiter {
      waiter = nil
      w.resume(returning: nil)
    }
  }

  func next() async -> T? {
    if ended || Task.isCancelled { return nil }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { waiter = $0 }
    } onCancel: {
      MainActor.assumeIsolated { self.cancelled() }
    }
  }

  func cancelled() {
    cancellations += 1
    if let w = waiter {
      waiter = nil
      w.resume(returning: nil)
    }
  }

  func iteratorMade() { iterators += 1 }

  public var sequence: Sequence { Sequence(feed: self) }

  public struct Sequence: AsyncSequence {
    public typealias Element = T
    let feed: BenchFeed<T>

    public struct AsyncIterator: AsyncIteratorProtocol {
      let feed: BenchFeed<T>
      public mutating func next() async -> T? { await feed.next() }
      // What a main-actor loop calls: no hop.
      public mutating func next(isolation actor: isolated (any Actor)?) async -> T? {
        await feed.next()
      }
    }

    public func makeAsyncIterator() -> AsyncIterator {
      MainActor.assumeIsolated { feed.iteratorMade() }
      return AsyncIterator(feed: feed)
    }
  }
}

/// Work that waits until the case releases it: `wait` suspends; `release` resumes the newest
/// waiter with a value; a cancelled waiter is resumed with `CancellationError` at once.
@MainActor
public final class BenchGate<T: Sendable> {
  @usableFromInline var waiters: [(id: Int, c: UnsafeContinuation<T, any Error>)] = []
  var nextID = 0
  public private(set) var started = 0
  /// Waits that returned or threw.
  public private(set) var ended = 0
  public private(set) var cancellations = 0

  public init() { waiters.reserveCapacity(4) }

  public var waiting: Int { waiters.count }

  public func wait() async throws -> T {
    started += 1
    nextID += 1
    let id = nextID
    defer { ended += 1 }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { c in
        if Task.isCancelled {
          cancellations += 1
          c.resume(throwing: CancellationError())
        } else {
          waiters.append((id, c))
        }
      }
    } onCancel: {
      MainActor.assumeIsolated { self.cancel(id) }
    }
  }

  func cancel(_ id: Int) {
    guard let i = waiters.firstIndex(where: { $0.id == id }) else { return }
    let w = waiters.remove(at: i)
    cancellations += 1
    w.c.resume(throwing: CancellationError())
  }

  /// Resumes the newest waiter with `value`; false if none waits.
  @discardableResult
  public func release(_ value: T) -> Bool {
    guard let w = waiters.popLast() else { return false }
    w.c.resume(returning: value)
    return true
  }
}

// MARK: - Cases

/// A stream through a small graph: `position` follows a feed (`.latest` `.stream`), `doubled =
/// 2·position`, and an effect reads `doubled`. One iteration sends one new element and runs
/// the main actor's jobs: the stream's task takes it and publishes it in a turn of its own,
/// `doubled` reruns, the effect runs. Counts per iteration are per element, Swift
/// concurrency's part (resuming the task, its job on the main queue) included.
public struct CogAsyncStream: AsyncBenchmarkCase {
  public init() {}
  public var id: String { "cog/async-stream" }
  /// The hop through another thread (see `MainActorJobs`): its instructions, and the graph
  /// bytes of whatever that thread allocates, vary run to run (1.9% and three values in five
  /// runs); allocations and ARC counts repeat exactly.
  public var variableMetrics: Set<String> { ["instructions", "graphBytes"] }
  public var summary: String {
    "stream elements: one element per iteration through stream → computed → effect"
  }

  @inlinable
  public func prepare<S: AsyncReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    guard MainActorJobs.canRun else { return nil }
    let s = Guaranteed(system)
    let feed = BenchFeed<Int>()
    let counts = RunCounter()  // runs: doubled bodies, other: effect runs, total: last read
    s.withBuild {
      let position = s.latestComputed(initial: 0) { () -> BenchWork<Int> in .stream(feed) }
      let doubled = s.computed { () -> Int in
        counts.runs &+= 1
        return s.read(position) * 2
      }
      s.effect {
        counts.other &+= 1
        counts.total = s.read(doubled)
      }
    }
    // The stream's task starts and waits for the first element.
    MainActorJobs.run { feed.isWaiting }
    checks.expect(feed.iterators == 1, "cog/async-stream: the feed was iterated \(feed.iterators)×")
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    return PreparedCase(
      iterationsPerSample: size == .full ? 1000 : 100,
      iterate: {
        counts.reset()
        tick.value += 1
        let v = tick.value
        let taken = feed.send(v)
        // The element's turn ran and the task came back for the next one.
        MainActorJobs.run { feed.isWaiting }
        checks.expect(
          taken && counts.other == 1 && counts.total == 2 * v,
          "cog/async-stream: element \(v) taken \(taken), effect ran \(counts.other)× reading "
            + "\(counts.total), expected once reading \(2 * v)")
        if memoized {
          checks.expect(
            counts.runs == 1, "cog/async-stream: doubled ran \(counts.runs)×, expected once")
        }
      },
      finish: {
        // Ends the stream so that its task finishes before the next build is measured.
        feed.end()
        MainActorJobs.run { !feed.isWaiting }
      })
  }
}

/// `.latest` restarts: `forecast` reads `zip` and runs work that waits on a gate; an effect
/// reads `forecast`. One iteration writes a new zip (a turn): the effect's refresh reruns
/// `forecast`'s body, which cancels the work in flight and starts new work; then the main
/// actor's jobs run (the new task starts and waits, the cancelled one ends). Nothing
/// publishes until `finish` releases the last work. Counts per iteration are per restart,
/// cancellation and both tasks' jobs included.
public struct CogAsyncLatestRestart: AsyncBenchmarkCase {
  public init() {}
  public var id: String { "cog/async-latest-restart" }
  /// As for `cog/async-stream` (instructions 4.4% apart in five runs).
  public var variableMetrics: Set<String> { ["instructions", "graphBytes"] }
  public var summary: String {
    ".latest restarts: one dependency change per iteration cancels the work and starts new"
  }

  @inlinable
  public func prepare<S: AsyncReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    guard MainActorJobs.canRun else { return nil }
    let s = Guaranteed(system)
    let gate = BenchGate<Int>()
    let counts = RunCounter()  // runs: forecast bodies, other: effect runs, total: last read
    let zip = s.withBuild { () -> SignalHandle<Int> in
      let zip = s.signal(0)
      let forecast = s.latestComputed(initial: -1) { () -> BenchWork<Int> in
        counts.runs &+= 1
        let z = s.read(zip)
        return .run { try await gate.wait() &+ z }
      }
      s.effect {
        counts.other &+= 1
        counts.total = s.read(forecast)
      }
      return zip
    }
    MainActorJobs.run { gate.waiting == 1 }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    return PreparedCase(
      iterationsPerSample: size == .full ? 1000 : 100,
      iterate: {
        counts.reset()
        let cancelled = gate.cancellations
        let started = gate.started
        tick.value += 1
        let z = tick.value
        s.withBatch { s.write(zip, z) }
        // The new work waits on the gate and the cancelled one has ended.
        MainActorJobs.run { gate.waiting == 1 && gate.ended == started }
        checks.expect(
          gate.cancellations == cancelled + 1 && gate.started == started + 1
            && gate.waiting == 1 && counts.other == 0,
          "cog/async-latest-restart: zip \(z): \(gate.cancellations - cancelled) cancelled, "
            + "\(gate.started - started) started, \(gate.waiting) waiting, effect ran "
            + "\(counts.other)×; expected 1, 1, 1, 0")
        if memoized {
          checks.expect(
            counts.runs == 1, "cog/async-latest-restart: forecast ran \(counts.runs)×, expected 1")
        }
      },
      finish: {
        // The newest work finishes: its result, and only its, publishes.
        counts.reset()
        let released = gate.release(1000)
        MainActorJobs.run { counts.other == 1 }
        let z = tick.value
        checks.expect(
          released && counts.other == 1 && counts.total == 1000 + z,
          "cog/async-latest-restart: released \(released), effect ran \(counts.other)× reading "
            + "\(counts.total), expected once reading \(1000 + z)")
      })
  }
}
