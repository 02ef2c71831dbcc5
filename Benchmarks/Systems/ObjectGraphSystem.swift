import CogBenchCases
import CogCore
import CogObjectGraph

/// The object-graph core (`CogObjectGraph`, swift-state-graph's cost structure) behind the
/// benchmark adapter.
///
/// Mapping: `signal` = `OGStored`, `computed` = `OGComputed`, `effect` = `OGEffect`. Writes
/// apply at once (the modeled library has no turns); a batch only defers effects: the effects
/// the writes marked run, in creation order, when the outermost batch ends (a write outside a
/// batch is a batch of one). Reads inside a batch therefore see the values written so far.
///
/// Run counts follow SEMANTICS except for a batch that writes a source and writes it back
/// (see `ObjectGraph`): there its readers rerun once, where a turn would publish nothing.
@MainActor
public final class ObjectGraphSystem: ReactiveSystem {
  public nonisolated static var id: String { "object-graph" }
  /// Everything but turns: writes apply at once, so a batch that writes a value and writes
  /// it back still counts as a change.
  public nonisolated static var capabilities: SystemCapabilities { .all.subtracting(.stagedTurns) }

  @usableFromInline var batchDepth = 0
  @usableFromInline var isFlushing = false
  /// Effects the writes marked since the last flush.
  @usableFromInline var scheduled: [OGEffect] = []
  /// Effects made since the last `cleanup`.
  @usableFromInline var built = EffectList<OGEffect>()
  @usableFromInline var nextSerial = 0

  /// Owns the objects behind the handles (handles are unretained).
  public let handles = HandleKeeper()

  public init() {}

  @inlinable
  public func signal<T: Equatable>(_ initial: T) -> SignalHandle<T> {
    SignalHandle(handles.keep(OGStored(wrappedValue: initial)))
  }

  @inlinable
  public func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T> {
    ComputedHandle(handles.keep(OGComputed(rule: body)))
  }

  @inlinable
  public func effect(_ body: @escaping () -> Void) {
    // The first run counts as a batch: effects its writes trigger run after it, not inside.
    batchDepth += 1
    nextSerial += 1
    let effect = OGEffect(
      serial: nextSerial, schedule: { [weak self] in self?.scheduled.append($0) }, body)
    built.append(effect)
    batchDepth -= 1
    if batchDepth == 0 { flush() }
  }

  @inlinable
  public func read<T>(_ signal: SignalHandle<T>) -> T {
    withGuaranteed(signal.object(as: OGStored<T>.self)) { $0.wrappedValue }
  }

  @inlinable
  public func read<T>(_ computed: ComputedHandle<T>) -> T {
    withGuaranteed(computed.object(as: OGComputed<T>.self)) { $0.wrappedValue }
  }

  @inlinable
  public func write<T>(_ signal: SignalHandle<T>, _ value: T) {
    withGuaranteed(signal.object(as: OGStored<T>.self)) { $0.wrappedValue = value }
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

  /// Runs the scheduled effects in creation order; effects scheduled meanwhile (by writes
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
      for effect in round { effect.runIfNeeded() }
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
  }
}

// MARK: - Keyed boxes

/// swift-state-graph has no keyed boxes; a user keeps a dictionary of `Computed`s, created on
/// first use, and that is what this is.
public final class ObjectGraphBox<K: Hashable, T> {
  @usableFromInline let body: (K) -> T
  @usableFromInline let equals: (T, T) -> Bool
  @usableFromInline var nodes: [K: OGComputed<T>] = [:]

  @inlinable init(equals: @escaping (T, T) -> Bool, _ body: @escaping (K) -> T) {
    self.equals = equals
    self.body = body
  }

  @inlinable
  func node(for key: K) -> OGComputed<T> {
    if let node = nodes[key] { return node }
    let body = self.body
    let node = OGComputed(equals: equals) { body(key) }
    nodes[key] = node
    return node
  }
}

extension ObjectGraphSystem: KeyedReactiveSystem {
  @inlinable
  public func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T> {
    // A named nonisolated function rather than `==`: the bare operator reference, formed
    // here on the main actor, is isolated to it and cannot be handed to the box's init.
    KeyedHandle(handles.keep(ObjectGraphBox(equals: objectGraphEquals, body)))
  }

  @inlinable
  public func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    withGuaranteed(box.object(as: ObjectGraphBox<K, T>.self)) { $0.node(for: key).wrappedValue }
  }

  /// Drops the key's computed; its deinit removes its edges from its dependencies.
  @inlinable
  public func release<K, T>(_ box: KeyedHandle<K, T>, key: K) {
    withGuaranteed(box.object(as: ObjectGraphBox<K, T>.self)) { $0.nodes[key] = nil }
  }
}

/// `==` as a function value that belongs to no actor (see `ObjectGraphSystem.box`).
@inlinable
nonisolated func objectGraphEquals<T: Equatable>(_ a: T, _ b: T) -> Bool { a == b }
