import CogCore
import CogEdgePool
import CogTypedKey

/// The policy of an async cog whose body may return a stream: `.latest` (switchMap). Streams
/// take this policy only (another policy could wait forever for a stream to end), so a
/// `.stream` returned under `.queue`, `.merged` or `.exhaustLatest` does not compile: those
/// policies' bodies return `CogRun`, which has no `.stream`.
public struct CogLatestPolicy: Sendable, Hashable {
  @inlinable init() {}
  /// A dependency change cancels the work in flight and starts new work; only the newest
  /// work publishes (switchMap). For a stream: the old sequence is cancelled and a new one
  /// starts.
  public static var latest: CogLatestPolicy { CogLatestPolicy() }
}

/// The policies of an async cog whose body returns one piece of work (`.run`) per change.
public struct CogRunPolicy: Sendable, Hashable {
  @usableFromInline let kind: AsyncPolicy
  @inlinable init(_ kind: AsyncPolicy) { self.kind = kind }

  /// Work runs one at a time, in the order of the changes; each result publishes, in order
  /// (concatMap).
  public static var queue: CogRunPolicy { CogRunPolicy(.queue) }
  /// Work may overlap (flatMap / merge). A result publishes when it finishes, unless a newer
  /// work's result already published: a state never goes back to older inputs.
  public static var merged: CogRunPolicy { CogRunPolicy(.merged) }
  /// While work is in flight, changes start nothing; when it finishes, if the inputs changed
  /// meanwhile, it runs once more with the newest state (exhaustMap for state).
  public static var exhaustLatest: CogRunPolicy { CogRunPolicy(.exhaustLatest) }
}

/// What the body of a `.latest` async cog returns: one piece of work, or a sequence to follow.
public struct CogWork<Value> {
  @usableFromInline let work: AsyncWork<Value>
  @inlinable init(_ work: AsyncWork<Value>) { self.work = work }

  /// Work to run outside the graph, in a task on the main actor (its awaits run wherever the
  /// functions it calls run). Its result publishes in a turn of its own. A thrown error is a
  /// failure (`CogAsyncStatus.failure`; the value keeps the last good result); a cancelled
  /// work (a restart or a release cancels the task) publishes nothing.
  @inlinable
  public static func run(_ work: @escaping @MainActor () async throws -> Value) -> CogWork {
    CogWork(.run(work))
  }

  /// A sequence to follow (location updates, sockets, database observations): each element
  /// publishes in its own turn, an element equal to the current value changes nothing, and a
  /// dependency change cancels the sequence and starts the new one. The sequence is iterated
  /// on the main actor.
  @inlinable @MainActor
  public static func stream<S: AsyncSequence>(_ sequence: S) -> CogWork where S.Element == Value {
    CogWork(.following(sequence) { $0 })
  }
}

extension CogWork {
  /// A sequence of non-optional elements followed by an optional state (`Cog<CLLocation?>`
  /// following a sequence of `CLLocation`): `nil` until the first element.
  @inlinable @MainActor
  public static func stream<S: AsyncSequence>(_ sequence: S) -> CogWork
  where Value == S.Element? {
    CogWork(.following(sequence) { $0 })
  }
}

/// What the body of a `.queue`, `.merged` or `.exhaustLatest` async cog returns: one piece of
/// work (see `CogWork.run`).
public struct CogRun<Value> {
  @usableFromInline let work: AsyncWork<Value>
  @inlinable init(_ work: AsyncWork<Value>) { self.work = work }

  /// Work to run outside the graph (see `CogWork.run`).
  @inlinable
  public static func run(_ work: @escaping @MainActor () async throws -> Value) -> CogRun {
    CogRun(.run(work))
  }
}

// The factory is spelled as seed 001 writes it, `Cog<V>.Async(.latest) { c in … }`.

extension Cog where Value: Equatable {
  /// An async cog: the body's tracked reads run like an automatic cog's; the work it returns
  /// runs outside the graph and each result publishes in a turn of its own. The cog's value
  /// is `initial` until the first result, then the last good result; `status(of:)` reads,
  /// tracked, whether work is in flight and the last failure.
  ///
  /// ```swift
  /// let forecastCog = Cog<Forecast?>.Async(.latest) { c in
  ///   let zip = c[currentZipCog]
  ///   return .run { try await api.forecast(for: zip) }
  /// }
  /// ```
  /// Like every automatic cog, it runs when read: a reaction or view that reads it restarts
  /// its work after every change of its inputs.
  ///
  /// A value that is not `Sendable` is taken on the main actor only (see `Cog.init(_:label:)`).
  @MainActor @inlinable
  public static func Async(
    _ policy: CogLatestPolicy, initial: Value, label: String = "",
    lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> CogWork<Value>
  ) -> Cog<Value> {
    Cog(
      async: .latest, initial: initial, label: label, lifetime: lifetime, { c in body(c).work })
  }

  /// An async cog with the `.queue`, `.merged` or `.exhaustLatest` policy (see the `.latest`
  /// factory and `CogRunPolicy`). A value that is not `Sendable` is taken on the main actor.
  @MainActor @inlinable
  public static func Async(
    _ policy: CogRunPolicy, initial: Value, label: String = "",
    lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> CogRun<Value>
  ) -> Cog<Value> {
    Cog(
      async: policy.kind, initial: initial, label: label, lifetime: lifetime, { c in body(c).work }
    )
  }

  @inlinable
  convenience init(
    async policy: AsyncPolicy, initial: Value, label: String, lifetime: CogLifetime,
    _ body: @escaping @MainActor (CogContext<Value>) -> AsyncWork<Value>
  ) {
    let ti = Registry.typeIndex(for: Value.self)
    let spec = AsyncSpec<Value>(
      policy: policy, initial: initial, typeIndex: ti,
      equality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) }
        .takeUnretainedValue())
    typealias Behavior = KeylessBehavior<AsyncBody<Value>>
    let behavior = Behavior(
      label: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      body: AsyncBody(make: body, spec: spec)
    ) { behavior, g, slot in
      // Safety: this is `Behavior`'s own `run`, and the graph hands `run` its own object.
      let b = unsafeDowncast(behavior, to: Behavior.self)
      let graph = CogGraph.unchecked(g)
      let work = b.body.make(CogContext(graph: graph, slot: slot))
      return graph.submitAsync(work, at: slot, spec: b.body.spec)
    }
    self.init(state: KeylessState(automatic: behavior, typeIndex: ti))
  }
}

/// An async cog's body: the closure that returns its work, and the policy's state shared by
/// its rows. `@unchecked Sendable`: `make` is `@MainActor` and only the graph calls it.
// Safety: `make` is `@MainActor` and only the graph calls it; `spec` is argued at `AsyncSpec`.
@frozen @usableFromInline
struct AsyncBody<Value>: @unchecked Sendable {
  @usableFromInline let make: @MainActor (CogContext<Value>) -> AsyncWork<Value>
  @usableFromInline let spec: AsyncSpec<Value>
  @inlinable init(
    make: @escaping @MainActor (CogContext<Value>) -> AsyncWork<Value>,
    spec: AsyncSpec<Value>
  ) {
    self.make = make
    self.spec = spec
  }
}

extension Cog where Value: Equatable & Sendable {
  /// An async cog with the `.latest` policy and a `Sendable` initial value, made anywhere
  /// (see the main-actor overload for the rest).
  @inlinable
  public static func Async(
    _ policy: CogLatestPolicy, initial: Value, label: String = "",
    lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> CogWork<Value>
  ) -> Cog<Value> {
    Cog(
      async: .latest, initial: initial, label: label, lifetime: lifetime, { c in body(c).work })
  }

  /// An async cog with a run policy and a `Sendable` initial value, made anywhere.
  @inlinable
  public static func Async(
    _ policy: CogRunPolicy, initial: Value, label: String = "",
    lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> CogRun<Value>
  ) -> Cog<Value> {
    Cog(
      async: policy.kind, initial: initial, label: label, lifetime: lifetime, { c in body(c).work }
    )
  }
}

extension Cog where Value: Equatable & ExpressibleByNilLiteral {
  /// An async cog whose value is `nil` until its first result (see `Async(_:initial:…)`).
  @inlinable
  public static func Async(
    _ policy: CogLatestPolicy, label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> CogWork<Value>
  ) -> Cog<Value> {
    // Made anywhere: `nil` is made here, so no other code holds the initial value.
    Cog(async: .latest, initial: nil, label: label, lifetime: lifetime, { c in body(c).work })
  }

  /// An async cog whose value is `nil` until its first result (see `Async(_:initial:…)`).
  @inlinable
  public static func Async(
    _ policy: CogRunPolicy, label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> CogRun<Value>
  ) -> Cog<Value> {
    Cog(async: policy.kind, initial: nil, label: label, lifetime: lifetime, { c in body(c).work })
  }
}
