import CogCore
import CogEdgePool
import CogTypedKey

extension Cogs {
  /// The values of `cog` as an `AsyncSequence`, for consumers outside the graph: its current
  /// value first, then its value after every turn that changed it.
  ///
  /// ```swift
  /// let counts = cogs.export(countCog)
  /// Task { for await n in counts { print("count is now", n) } }
  /// ```
  ///
  /// Each call is one subscriber with its own buffer, which keeps only the newest value: a
  /// slow consumer never holds up a turn and skips the values it was too slow for, but always
  /// gets the latest; a consumer waiting in `next()` when a turn ends gets that turn's value,
  /// so one that keeps up sees every change (no coalescing, unlike `Observations`). The export keeps the state's row alive (a lease, so a `.whileObserved`
  /// cog lives while exported) until the subscription ends: `cancel()`, cancelling the task
  /// that iterates it, or dropping the sequence and its iterator. A cancelled task's
  /// subscription ends while the task waits in `next()`: at once if it was waiting, else at
  /// its next call (Swift tells cancellation only to code in scope), which returns nil.
  /// Ending twice is harmless; the sequence finishes when the subscription ends or the
  /// context goes away.
  @inlinable public func export<T: Sendable>(_ cog: Cog<T>) -> CogExport<T> { makeExport(cog) }

  /// The values of the keyed state `ref` as an `AsyncSequence` (see `export(_:)` for cogs).
  @inlinable public func export<K, T: Sendable>(_ ref: CogRef<K, T>) -> CogExport<T> {
    makeExport(ref.name)
  }

  @inlinable func makeExport<N: StateName>(_ n: N) -> CogExport<N.Value>
  where N.Edges == SharedEdgePool, N.Value: Sendable {
    if _slowPath(!graph.canStartOperation) { graph.misplaced("an export was started") }
    let s = n.resolve(in: graph)
    let (stream, continuation) = AsyncStream.makeStream(
      of: CogExport<N.Value>.Numbered.self, bufferingPolicy: .bufferingNewest(1))
    let sink = ExportSink(
      row: graph.ref(s),
      offer: { base, index, serial in
        continuation.yield((serial, ValueEntry<N.Value>.load(base, index)))
        return true
      },
      finish: {
        // Ended from here: no termination handler needed (it would only hop back to cancel
        // what is already cancelled, holding the registration until it ran).
        continuation.onTermination = nil
        continuation.finish()
      })
    graph.addExport(sink)
    let registration = ExportRegistration(cogs: self, sink: sink)
    // Called on the consumer's side when its task is cancelled (or after `finish`).
    continuation.onTermination = { [weak registration] _ in
      guard let registration else { return }
      Task { @MainActor in registration.cancel() }
    }
    _ = graph.read(n, .tracked)
    graph.offer(s, to: sink)
    return CogExport(stream: stream, registration: registration)
  }
}

/// The values of one state for one outside subscriber (see `Cogs.export(_:)`). Copies share
/// the subscription: cancelling any of them ends it, once.
public struct CogExport<Value: Sendable>: AsyncSequence, Sendable {
  /// The state's values.
  public typealias Element = Value
  /// Iteration never throws: the sequence finishes when the subscription ends.
  public typealias Failure = Never

  /// The buffered values with their serials (`ExportSink.offered`), so that the iterator can
  /// tell its sink which one a consumer on the main actor received (`Cogs.settle`).
  @usableFromInline typealias Numbered = (serial: UInt32, value: Value)

  @usableFromInline let stream: AsyncStream<Numbered>
  @usableFromInline let registration: ExportRegistration

  @usableFromInline init(stream: AsyncStream<Numbered>, registration: ExportRegistration) {
    self.stream = stream
    self.registration = registration
  }

  /// The subscriber's iterator. Keeps the subscription while it is in use, even after the
  /// sequence itself was dropped.
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: AsyncStream<Numbered>.Iterator
    @usableFromInline let registration: ExportRegistration

    @usableFromInline init(base: AsyncStream<Numbered>.Iterator, registration: ExportRegistration) {
      self.base = base
      self.registration = registration
    }

    /// The next value: waits for a turn that changes the state; nil once the subscription
    /// ended or the consuming task is cancelled. A cancelled task gets nil at once (not a
    /// value buffered meanwhile), and the subscription has ended when it returns.
    ///
    /// Swift tells a task's cancellation only to handlers in scope while it runs, so a task
    /// cancelled while it waits here ends the subscription at once, and one cancelled while
    /// its loop body runs, at its next call to `next()` (`cancel()` ends it from anywhere).
    @inlinable public mutating func next() async -> Value? {
      if !Task.isCancelled, let v = await base.next() { return v.value }
      return await Self.ended(registration)
    }

    /// The next value, awaited on `actor` (see `next()`).
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
      if Task.isCancelled { return await Self.ended(registration) }
      // A consumer on the main actor tells its sink that it waits, and which value it got, so
      // that `Cogs.settle` waits for a value on its way to it.
      let sink = actor === MainActor.shared ? registration.sink : nil
      if let sink { Self.waits(sink, true, received: nil) }
      // The stream's next() runs off `actor`: a task cancelled on its way there has no handler
      // of the stream's to tell yet, so this one ends the subscription (once it reaches the
      // stream, the stream's `onTermination` would too, later).
      let registration = registration
      let v = await withTaskCancellationHandler {
        await base.next(isolation: actor)
      } onCancel: {
        Task { @MainActor in registration.cancel() }
      }
      if let sink { Self.waits(sink, false, received: v?.serial) }
      if let v { return v.value }
      return await Self.ended(registration)
    }

    /// Tells `sink` whether its consumer (on the main actor, where this runs) waits in
    /// `next()`, and the serial of the value it received.
    @usableFromInline static func waits(_ sink: ExportSink, _ waits: Bool, received: UInt32?) {
      MainActor.assumeIsolated {
        sink.consumerWaits = waits
        if let received { sink.received = received }
      }
    }

    /// The sequence is over: makes sure the subscription ended (harmless if it had).
    @usableFromInline static func ended(_ registration: ExportRegistration) async -> Value? {
      await registration.cancel()
      return nil
    }
  }

  /// The subscriber's iterator (copies of the sequence share the subscription).
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator(), registration: registration)
  }

  /// Ends the subscription: its lease is returned, and iteration finishes. Harmless if it
  /// already ended.
  @MainActor public func cancel() { registration.cancel() }

  /// Whether the subscription has ended: cancelled, or its context is gone.
  @MainActor public var isCancelled: Bool { registration.isEnded }
}
