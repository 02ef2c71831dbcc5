/// Async cogs (seed 001, "Async policies switch work"; design: swift/0004-async-cogs.md).
///
/// An async row is an automatic row whose body returns work instead of a value. The body's
/// synchronous part runs like any body (tracked reads, inside the graph); the work it returns
/// runs in a `Task`, outside the graph; each result publishes in a turn of its own. This file
/// holds the per-row machinery (`AsyncRow`): the policy, the tasks in flight, the async
/// generation and the row's status. `Graph+Async.swift` connects it to the graph.

/// How an async row treats work in flight when its inputs change.
@usableFromInline
package enum AsyncPolicy: UInt8, Sendable {
  /// Cancel the work in flight and start the new work; only the newest work publishes.
  case latest
  /// Run the work one at a time, in the order of the changes; every result publishes.
  case queue
  /// Start every work at once; a result publishes unless a newer one already has.
  case merged
  /// Start nothing while work is in flight; when it finishes, run once more with the newest
  /// state if the inputs changed meanwhile.
  case exhaustLatest
}

/// What an async body returns, erased for the core.
@usableFromInline
package enum AsyncWork<Value> {
  /// One result (or a failure).
  case run(@MainActor () async throws -> Value)
  /// A sequence: the loop hands each element to `deliver` and stops when it returns false.
  case stream(@MainActor (_ deliver: @MainActor (Value) -> Bool) async throws -> Void)

  /// Follows `sequence` (the loop of `.stream`, for every binding): each element is
  /// delivered as `value(element)`; a restart or a release stops the iteration.
  @inlinable @MainActor
  package static func following<S: AsyncSequence>(
    _ sequence: S, _ value: @escaping @MainActor (S.Element) -> Value
  ) -> AsyncWork {
    .stream { deliver in
      for try await element in sequence {
        if !deliver(value(element)) { return }  // restarted or released: stop following
      }
    }
  }
}

/// Whether an async cog has work in flight, and the last failure. Read tracked, as a value,
/// while the cog's own value keeps the last good result.
public struct CogAsyncStatus: Sendable, CustomStringConvertible {
  /// True while work is in flight or waiting (`.queue`, `.exhaustLatest`); for `.stream`,
  /// until the sequence's first element (or its end) since it (re)started.
  public var isPending: Bool
  /// The error the last finished work threw; `nil` once a later work succeeds. A cancelled
  /// work is not a failure.
  public var failure: (any Error)?
  /// Tells failures apart (errors are not `Equatable`): bumped by every failure.
  @usableFromInline package var failureSerial: UInt32

  @inlinable package init(isPending: Bool = false, failure: (any Error)? = nil, serial: UInt32 = 0)
  {
    self.isPending = isPending
    self.failure = failure
    failureSerial = serial
  }

  /// The status of a state that is not async (or has never run): nothing in flight.
  public static var idle: CogAsyncStatus { CogAsyncStatus() }

  /// "pending, ok", "failed(…)": whether work is in flight, and the last failure.
  public var description: String {
    let f = failure.map { "failed(\($0))" } ?? "ok"
    return isPending ? "pending, \(f)" : f
  }

  /// The status row's equality: the same pending flag and the same failure (none on both
  /// sides, or the same one by serial: a success clears the failure without a new serial).
  @inlinable @Sendable package static func same(_ a: CogAsyncStatus, _ b: CogAsyncStatus)
    -> Bool
  {
    a.isPending == b.isPending && a.failureSerial == b.failureSerial
      && (a.failure == nil) == (b.failure == nil)
  }
}

/// How work ended, as `AsyncRow.finish` sees it.
@usableFromInline
enum AsyncOutcome<Value> {
  case value(Value)
  case failure(any Error)
  /// Cancelled (by a restart or a release), or it threw `CancellationError`: not a failure.
  case cancelled
  /// A stream ended normally.
  case ended
}

/// The per-descriptor half of an async state: its policy, initial value and equality (the
/// behavior captures it; every row of the descriptor shares it).
// Safety: immutable `let`s, read by main-actor graph code; `initial` has `Cog`'s caveat.
@usableFromInline
package final class AsyncSpec<Value>: @unchecked Sendable {
  @usableFromInline package let policy: AsyncPolicy
  @usableFromInline package let initial: Value
  @usableFromInline package let typeIndex: Int32
  /// `nil`: every result is a change.
  @usableFromInline package let equality: SourceEquality<Value>?

  @inlinable package init(
    policy: AsyncPolicy, initial: Value, typeIndex: Int32, equality: SourceEquality<Value>?
  ) {
    self.policy = policy
    self.initial = initial
    self.typeIndex = typeIndex
    self.equality = equality
  }
}

/// What the graph needs of an async row without knowing its value type.
@MainActor @usableFromInline
package protocol AsyncRowControl: AnyObject {
  /// The source row holding the row's `CogAsyncStatus`.
  var statusSlot: Slot { get }
  /// The tasks in flight, oldest first (tests await them).
  var tasks: [Task<Void, Never>] { get }
  /// The tasks in flight that end by themselves: every task but a followed sequence's, which
  /// may never end (`Cogs.settle` awaits these).
  var finiteTasks: [Task<Void, Never>] { get }
  /// The async generation: bumped by every restart and by the release.
  var generation: UInt32 { get }
  /// Cancels every task and bumps the generation, so that no late result lands: the row is
  /// being released (or its context is going away).
  func cancelAll()
}

/// The async machinery of one row: tasks in flight, the policy's queue, the async
/// generation, the status. Main-actor confined; its tasks run their work on the main actor
/// too (the work's own awaits go wherever the functions it calls run).
///
/// Everything is `@inlinable`, so that it is specialized with the descriptor's `@inlinable`
/// factory in the module that declares the cog: unspecialized, each element of a stream
/// looked up generic metadata (`swift_getGenericMetadata`) again and again. Its stored properties are main-actor confined and never
/// accessed overlapping, hence `@exclusivity(unchecked)` (each access otherwise calls
/// `swift_beginAccess`).
@MainActor @usableFromInline
final class AsyncRow<Value, Edges: EdgeStore>: AsyncRowControl {
  /// The context; weak: a task that outlives it finds nothing to publish into.
  // Safety (every `@exclusivity(unchecked)` here): main-actor confined, never overlapping.
  @exclusivity(unchecked) @usableFromInline weak var graph: Graph<Edges>?
  @usableFromInline let slot: Slot
  @usableFromInline package let statusSlot: Slot
  @usableFromInline let spec: AsyncSpec<Value>
  /// Bumped by a `.latest` restart and by the release: a result or element of an older
  /// generation is dropped before it touches the graph.
  @exclusivity(unchecked) @usableFromInline package internal(set) var generation: UInt32 = 0
  @exclusivity(unchecked) @usableFromInline var released = false
  @exclusivity(unchecked) @usableFromInline var lastID: UInt64 = 0
  /// Work in flight, oldest first.
  @exclusivity(unchecked) @usableFromInline var running: [(id: UInt64, task: Task<Void, Never>)] =
    []
  /// Work not started yet: `.queue`'s backlog in order; for `.exhaustLatest`, the newest work
  /// submitted while one was in flight (at most one).
  @exclusivity(unchecked) @usableFromInline var waiting: [AsyncWork<Value>] = []
  /// `.merged`: the id of the newest work whose outcome published.
  @exclusivity(unchecked) @usableFromInline var lastPublished: UInt64 = 0
  /// Whether the work in flight follows a sequence (`.latest` runs one work at a time).
  @exclusivity(unchecked) @usableFromInline var following = false
  /// `.stream`: whether the running sequence has delivered an element.
  @exclusivity(unchecked) @usableFromInline var delivered = false
  @exclusivity(unchecked) @usableFromInline var failure: (any Error)?
  @exclusivity(unchecked) @usableFromInline var failureSerial: UInt32 = 0

  @usableFromInline init(
    graph: Graph<Edges>, slot: Slot, statusSlot: Slot, spec: AsyncSpec<Value>
  ) {
    self.graph = graph
    self.slot = slot
    self.statusSlot = statusSlot
    self.spec = spec
  }

  @inlinable package var tasks: [Task<Void, Never>] { running.map(\.task) }

  @inlinable package var finiteTasks: [Task<Void, Never>] { following ? [] : tasks }

  /// The status as the row's state says now.
  @inlinable var status: CogAsyncStatus {
    let inFlight: Bool
    switch spec.policy {
    case .latest: inFlight = !running.isEmpty && !delivered
    default: inFlight = !running.isEmpty || !waiting.isEmpty
    }
    return CogAsyncStatus(isPending: inFlight, failure: failure, serial: failureSerial)
  }

  // MARK: Submitting (from the body's run)

  /// The body returned `work` (its inputs changed, or it ran for the first time): apply the
  /// policy.
  @inlinable func submit(_ work: AsyncWork<Value>) {
    switch spec.policy {
    case .latest:
      // switchMap: the work in flight is for inputs that are gone.
      cancelRunning()
      generation &+= 1
      start(work)
    case .queue:
      if running.isEmpty { start(work) } else { waiting.append(work) }
    case .merged:
      start(work)
    case .exhaustLatest:
      // The newest work replaces any waiting one: it saw the newest state.
      if running.isEmpty {
        start(work)
      } else {
        waiting.removeAll(keepingCapacity: true)
        waiting.append(work)
      }
    }
  }

  @inlinable func cancelRunning() {
    for r in running { r.task.cancel() }
    running.removeAll(keepingCapacity: true)
  }

  @inlinable package func cancelAll() {
    released = true
    generation &+= 1
    cancelRunning()
    waiting.removeAll()
  }

  /// Starts `work` in a task of its own, tagged with a fresh id and the current generation.
  @inlinable func start(_ work: AsyncWork<Value>) {
    lastID &+= 1
    let id = lastID
    let generation = self.generation
    delivered = false
    let task: Task<Void, Never>
    switch work {
    case .run(let body):
      following = false
      task = Task { @MainActor in
        let outcome: AsyncOutcome<Value>
        do {
          outcome = .value(try await body())
        } catch {
          outcome = AsyncRow.isCancellation(error) ? .cancelled : .failure(error)
        }
        self.finish(id: id, generation: generation, outcome)
      }
    case .stream(let loop):
      following = true
      task = Task { @MainActor in
        let outcome: AsyncOutcome<Value>
        do {
          try await loop { element in self.deliver(element, id: id, generation: generation) }
          outcome = .ended
        } catch {
          outcome = AsyncRow.isCancellation(error) ? .cancelled : .failure(error)
        }
        self.finish(id: id, generation: generation, outcome)
      }
    }
    running.append((id, task))
  }

  /// A cancelled task's error, or `CancellationError` thrown by the work: not a failure.
  @inlinable static func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || Task.isCancelled
  }

  // MARK: Results (from the tasks)

  /// Whether a result of generation `g` may still land.
  @inlinable func isCurrent(_ g: UInt32) -> Bool { g == generation && !released }

  /// A stream element: publishes it in a turn of its own. Returns whether the stream should go
  /// on (false once the row restarted or was released).
  @inlinable func deliver(_ element: Value, id: UInt64, generation g: UInt32) -> Bool {
    guard isCurrent(g), let graph else { return false }
    graph.asyncTurn(self) { graph in
      // The body runs first if its inputs changed: a restart makes this element stale.
      if graph.isStale(self.slot) { graph.refresh(self.slot) }
      guard self.isCurrent(g) else { return }
      self.delivered = true
      graph.stageAsyncValue(element, at: self.slot, spec: self.spec)
      self.failure = nil
      graph.stageAsyncStatus(self)
    }
    return isCurrent(g)
  }

  /// Work `id` ended: publish its outcome as the policy says, in a turn of its own, and start
  /// what waited for it.
  @inlinable func finish(id: UInt64, generation g: UInt32, _ outcome: AsyncOutcome<Value>) {
    guard isCurrent(g), let graph, running.contains(where: { $0.id == id }) else { return }
    graph.asyncTurn(self) { graph in
      // The body runs first if its inputs changed (while this work still counts as in
      // flight, so that the policy sees it): `.latest` then drops this outcome, `.queue`
      // queues the new work behind the backlog, `.exhaustLatest` keeps it for afterwards.
      if graph.isStale(self.slot) { graph.refresh(self.slot) }
      if let index = self.running.firstIndex(where: { $0.id == id }) {
        self.running.remove(at: index)
      }
      if self.isCurrent(g) && self.accepts(id) {
        switch outcome {
        case .value(let v):
          graph.stageAsyncValue(v, at: self.slot, spec: self.spec)
          self.failure = nil
          self.lastPublished = id
        case .failure(let error):
          self.failure = error
          self.failureSerial &+= 1
          self.lastPublished = id
        case .cancelled, .ended:
          break
        }
      }
      if !self.released && self.running.isEmpty && !self.waiting.isEmpty {
        // .queue: the next in order; .exhaustLatest: the newest state's work.
        self.start(self.waiting.removeFirst())
      }
      graph.stageAsyncStatus(self)
    }
  }

  /// Whether the outcome of work `id` publishes (its generation is current).
  @inlinable func accepts(_ id: UInt64) -> Bool {
    switch spec.policy {
    case .latest, .queue, .exhaustLatest: return true
    // A result older than one already published would take the state back: dropped.
    case .merged: return id > lastPublished
    }
  }
}
