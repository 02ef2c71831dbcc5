import CogBenchCases
import CogCore
import CogSimpleCore

/// The simple core (`CogSimpleCore`, the test oracle) behind the benchmark adapter.
///
/// Mapping: `signal` = source, `computed` = computed (reads inside it go through
/// `SimpleCogs.read`, which tracks ambiently), `effect` = reaction, `withBatch` = turn, `write`
/// outside a batch = a turn of one write. Inside a batch, signal reads go through the turn's
/// writer and so see the values written earlier in the batch; computeds read inside a batch
/// see the committed state (SEMANTICS §4: staged values are published when the turn ends).
///
/// A batch or write made while the core is busy (inside an effect) cannot start a turn there
/// (SEMANTICS §5); its writes are collected and scheduled as a turn that runs after the
/// current flush.
///
/// The adapter's methods are `@inlinable` so that a case specialized for this system calls
/// them directly; the core itself is an ordinary (non-inlinable) module, as its role as a
/// plain baseline asks.
@MainActor
public final class SimpleSystem: ReactiveSystem {
  public nonisolated static var id: String { "simple" }
  /// Everything the simple core expresses.
  public nonisolated static var capabilities: SystemCapabilities { .all }

  public let cogs = SimpleCogs()
  /// The writer of the running batch's turn.
  @usableFromInline var writer: SimpleWriter?
  /// Writes of a batch opened while the core was busy, applied by a scheduled turn.
  @usableFromInline var collected: [(SimpleWriter) -> Void]?
  /// Reactions made since the last `cleanup`.
  @usableFromInline var built = EffectList<SimpleReaction>()

  /// Owns the objects behind the handles (handles are unretained).
  public let handles = HandleKeeper()

  public init() {}

  @inlinable
  public func signal<T: Equatable>(_ initial: T) -> SignalHandle<T> {
    SignalHandle(handles.keep(cogs.source(initial)))
  }

  @inlinable
  public func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T> {
    ComputedHandle(handles.keep(cogs.computed { (_: SimpleContext<T>) in body() }))
  }

  @inlinable
  public func effect(_ body: @escaping () -> Void) {
    built.append(cogs.react("effect") { _ in body() })
  }

  @inlinable
  public func read<T>(_ signal: SignalHandle<T>) -> T {
    withGuaranteed(signal.object(as: SimpleNode<T>.self)) { node in
      if let writer, !cogs.isTracking { return writer[node] }
      return cogs.read(node)
    }
  }

  @inlinable
  public func read<T>(_ computed: ComputedHandle<T>) -> T {
    withGuaranteed(computed.object(as: SimpleNode<T>.self)) { cogs.read($0) }
  }

  @inlinable
  public func write<T>(_ signal: SignalHandle<T>, _ value: T) {
    withGuaranteed(signal.object(as: SimpleNode<T>.self)) { node in
      if let writer {
        writer[node] = value
      } else if collected != nil {
        collected!.append { w in w[node] = value }
      } else if cogs.isIdle {
        cogs.turn("write") { w in w[node] = value }
      } else {
        cogs.scheduleTurn("write") { w in w[node] = value }
      }
    }
  }

  @inlinable
  public func withBatch(_ body: () -> Void) {
    if writer != nil || collected != nil {
      body()  // nested batch: part of the outer one
    } else if cogs.isIdle {
      cogs.turn("batch") { w in
        writer = w
        body()
        writer = nil
      }
    } else {
      collected = []
      body()
      let writes = collected!
      collected = nil
      cogs.scheduleTurn("batch") { w in
        for write in writes { write(w) }
      }
    }
  }

  @inlinable
  public func withBuild<R>(_ body: () -> R) -> R {
    body()
  }

  public func cleanup() {
    for r in built.live { r.cancel() }
    built.retire()
  }

  public func collect() {
    built.collect()
    handles.releaseAll()
  }
}

// MARK: - Keyed boxes

extension SimpleSystem: KeyedReactiveSystem {
  /// A `SimpleBox`; reads inside `body` are tracked ambiently for the key's computed.
  @inlinable
  public func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T> {
    KeyedHandle(handles.keep(cogs.box { (key: K, _: SimpleContext<T>) in body(key) }))
  }

  @inlinable
  public func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    withGuaranteed(box.object(as: SimpleBox<K, T>.self)) { cogs.read($0[key]) }
  }

  /// Nothing to do: the simple core keeps every key's computed.
  @inlinable
  public func release<K, T>(_ box: KeyedHandle<K, T>, key: K) {}
}
