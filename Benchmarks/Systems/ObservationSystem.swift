import CogBenchCases
import CogCore
import CogObservationBaseline

/// Raw `@Observable` state (`CogObservationBaseline`) behind the benchmark adapter.
///
/// Mapping: `signal` = an `@Observable` cell, `computed` = a closure re-run on every read (no
/// memoization, like a computed property), `effect` = a body run in `withObservationTracking`
/// and re-armed after each change. Writes apply at once; a batch defers the effects that the
/// writes triggered until the outermost batch ends (a write outside a batch is a batch of one).
///
/// Run counts differ from SEMANTICS by construction (see `capabilities`): a computed runs once
/// per read, and an effect re-runs whenever a source it reached changed, even through a
/// computed whose value stayed equal. Cases whose checks count computed runs, or expect an
/// equal computed to stop an effect, list those capabilities in their `requirements` (or skip
/// those checks), and the runner reports this system as not applicable; value checks still
/// hold.
@MainActor
public final class ObservationSystem: ReactiveSystem {
  public nonisolated static var id: String { "observation" }
  /// No memoized computeds and no equality cutoff; no staged turns. UI reads: a view reads
  /// the model's property under its `withObservationTracking`, as SwiftUI does.
  public nonisolated static var capabilities: SystemCapabilities { .uiReads }

  @usableFromInline var batchDepth = 0
  @usableFromInline var isFlushing = false
  /// Effects whose tracked properties changed since the last flush.
  @usableFromInline var scheduled: [ObservedEffect] = []
  /// Effects made since the last `cleanup`.
  @usableFromInline var built = EffectList<ObservedEffect>()
  @usableFromInline var nextSerial = 0

  /// Owns the objects behind the handles (handles are unretained).
  public let handles = HandleKeeper()

  public init() {}

  /// `@Observable` objects made (one registrar each).
  @usableFromInline var cells = 0

  @inlinable
  public func signal<T: Equatable>(_ initial: T) -> SignalHandle<T> {
    cells += 1
    return SignalHandle(handles.keep(ObservedCell(initial)))
  }

  /// Every `@Observable` cell owns a registrar, read by the UI or not.
  public var registrarCount: Int? { cells }

  @inlinable
  public func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T> {
    ComputedHandle(handles.keep(ObservedDerived(body)))
  }

  @inlinable
  public func effect(_ body: @escaping () -> Void) {
    // The first run counts as a batch: effects its writes trigger run after it, not inside.
    batchDepth += 1
    nextSerial += 1
    // `onChange` runs synchronously inside the mutation, on the writer's thread: the main
    // actor here, since every write goes through this adapter.
    let effect = ObservedEffect(
      serial: nextSerial,
      schedule: { [weak self] effect in
        MainActor.assumeIsolated { self?.scheduled.append(effect) }
      }, body)
    built.append(effect)
    batchDepth -= 1
    if batchDepth == 0 { flush() }
  }

  @inlinable
  public func read<T>(_ signal: SignalHandle<T>) -> T {
    withGuaranteed(signal.object(as: ObservedCell<T>.self)) { $0.value }
  }

  @inlinable
  public func read<T>(_ computed: ComputedHandle<T>) -> T {
    withGuaranteed(computed.object(as: ObservedDerived<T>.self)) { $0.value }
  }

  @inlinable
  public func write<T>(_ signal: SignalHandle<T>, _ value: T) {
    withGuaranteed(signal.object(as: ObservedCell<T>.self)) { $0.set(value) }
    if batchDepth == 0 { flush() }
  }

  @inlinable
  public func withBatch(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    if batchDepth == 0 { flush() }
  }

  @inlinable
  public func withBuild<R>(_ body: () -> R) -> R {
    body()
  }

  /// Re-runs the triggered effects in creation order; effects triggered meanwhile (by writes
  /// inside effects) run in a following round.
  @usableFromInline
  func flush() {
    guard !isFlushing else { return }
    isFlushing = true
    defer { isFlushing = false }
    while !scheduled.isEmpty {
      var round = scheduled
      scheduled.removeAll(keepingCapacity: true)
      round.sort { $0.serial < $1.serial }
      for effect in round { effect.runIfScheduled() }
    }
  }

  public func cleanup() {
    for effect in built.live { effect.cancel() }
    built.retire()
    scheduled.removeAll()
  }

  public func collect() {
    built.collect()
    handles.releaseAll()
    cells = 0
  }
}

// MARK: - Keyed boxes

/// Observation has no keyed state either: a keyed "box" is a function of the key, run on
/// every read like any other derived value (the reads it makes are tracked by the caller).
public final class ObservationBox<K: Hashable, T> {
  @usableFromInline let body: (K) -> T

  @inlinable init(_ body: @escaping (K) -> T) { self.body = body }
}

extension ObservationSystem: KeyedReactiveSystem {
  @inlinable
  public func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T> {
    KeyedHandle(handles.keep(ObservationBox(body)))
  }

  @inlinable
  public func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    withGuaranteed(box.object(as: ObservationBox<K, T>.self)) { $0.body(key) }
  }

  /// Nothing is kept per key.
  @inlinable
  public func release<K, T>(_ box: KeyedHandle<K, T>, key: K) {}
}
