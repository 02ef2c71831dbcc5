// Small pieces shared by the case families.

/// Run counters and checksums that case closures bump. A class so that every closure of a graph
/// shares it; unchecked exclusivity so that a bump is one add (like the JS `Counter`), not a
/// runtime access check that would show up in the measured instructions.
@usableFromInline
final class RunCounter {
  @usableFromInline @exclusivity(unchecked) var runs = 0
  @usableFromInline @exclusivity(unchecked) var total = 0
  @usableFromInline @exclusivity(unchecked) var other = 0

  @inlinable init() {}

  @inlinable @inline(__always)
  func reset() {
    runs = 0
    total = 0
    other = 0
  }
}

/// A `RunCounter` as the closures a timed region makes capture it: unretained. A closure that
/// captures the class takes a retain (an atomic add) when it is made and a release when it is
/// freed, work the JS originals do not do (their effects capture no counter): the retain alone
/// was 15% of Cog's timed samples in `sbench` `create0to1` (impl/perf-notes.md, "Stop 45").
@frozen @usableFromInline
struct UnretainedCounter {
  // Lifetime: the case's own closures hold the counter strongly and outlive every effect that
  // bumps it (effects run only inside the case's iterations).
  @usableFromInline let ref: Unmanaged<RunCounter>
  @inlinable init(_ counter: RunCounter) { ref = .passUnretained(counter) }

  /// One more run, counted before the run's reads as the closures always did (one call after
  /// the reads making both adds was compiled into vector instructions: +3 a run).
  @inlinable @inline(__always)
  func countRun() { ref._withUnsafeGuaranteedRef { $0.runs &+= 1 } }

  /// Adds what a run read to the checksum.
  @inlinable @inline(__always)
  func add(_ value: Int) { ref._withUnsafeGuaranteedRef { $0.total &+= value } }
}

/// A cell a case's per-sample state lives in (graph handles built by `beforeSample`).
///
/// The value sits behind a pointer: a class `var` touched from a case specialized in another
/// module costs a dynamic exclusivity check per access, even marked `@exclusivity(unchecked)`
/// (about 80 instructions per signal on sbench/createSignals, which appends each one it makes
/// here; the JS original pushes to an array).
@usableFromInline
final class CaseState<Value> {
  @usableFromInline let storage: UnsafeMutablePointer<Value>
  @inlinable init(_ value: Value) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: value)
  }
  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }
  @inlinable var value: Value {
    @inline(__always) unsafeAddress { UnsafePointer(storage) }
    @inline(__always) unsafeMutableAddress { storage }
  }
}

/// Returns its argument through a call the optimizer cannot see into, so that work on a
/// constant (Kairo's `fib(16)`) is not folded at compile time.
@usableFromInline @inline(never) @_optimize(none)
func opaqueInt(_ x: Int) -> Int { x }

/// Kairo's `busy()`: `let a = 0; for (let i = 0; i < 100; i++) a++;`. Unoptimized so that the
/// loop runs (an optimized build would fold it away), like the JS "heavy computation" stand-in.
@usableFromInline @inline(never) @_optimize(none)
func kairoBusy() {
  var a = 0
  var i = 0
  while i < 100 {
    a &+= 1
    i &+= 1
  }
  _ = a
}

/// molBench's `fib`: `n < 2 ? 1 : fib(n - 1) + fib(n - 2)`.
@usableFromInline @inline(never)
func kairoFib(_ n: Int) -> Int {
  if n < 2 { return 1 }
  return kairoFib(n - 1) + kairoFib(n - 2)
}

/// molBench's `hard(n) = n + fib(16)` (fib(16) = 1597; the argument goes through `opaqueInt`).
@usableFromInline @inline(never)
func kairoHard(_ n: Int) -> Int { n + kairoFib(opaqueInt(16)) }

// MARK: - Capturing the system without reference counting

/// The system as graph closures capture it: unretained, and called without a retain.
///
/// A case's closures live inside the system they were built on, so a strong capture would make
/// a cycle; `unowned(unsafe)` avoids the cycle but the compiler retains and releases the
/// system at every use (measured: one pair per computed run in `kairo/deep`, which hid Cog's
/// zero). `Guaranteed` keeps an `Unmanaged` reference and calls through a guaranteed
/// reference instead. The bound case keeps the system alive until `tearDown`.
@frozen
public struct Guaranteed<S: ReactiveSystem> {
  @usableFromInline let ref: Unmanaged<S>
  @inlinable public init(_ system: S) { ref = Unmanaged.passUnretained(system) }

  @inlinable @inline(__always) @MainActor
  func with<R>(_ body: (S) -> R) -> R { guaranteed(ref, body) }

  @inlinable @inline(__always) @MainActor
  public func signal<T: Equatable>(_ initial: T) -> SignalHandle<T> { with { $0.signal(initial) } }
  @inlinable @inline(__always) @MainActor
  public func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T> {
    with { $0.computed(body) }
  }
  @inlinable @inline(__always) @MainActor
  public func effect(_ body: consuming @escaping () -> Void) {
    // Prepared outside `with`'s closure: a body captured there is copied (see
    // `ReactiveSystem.prepareEffect`).
    let prepared = S.prepareEffect(body)
    with { $0.effect(prepared: prepared) }
  }
  @inlinable @inline(__always) @MainActor
  public func read<T>(_ signal: SignalHandle<T>) -> T { with { $0.read(signal) } }
  @inlinable @inline(__always) @MainActor
  public func read<T>(_ computed: ComputedHandle<T>) -> T { with { $0.read(computed) } }
  @inlinable @inline(__always) @MainActor
  public func write<T>(_ signal: SignalHandle<T>, _ value: T) { with { $0.write(signal, value) } }
  @inlinable @inline(__always) @MainActor
  public func withBatch(_ body: () -> Void) { with { $0.withBatch(body) } }
  @inlinable @inline(__always) @MainActor
  public func withBuild<R>(_ body: () -> R) -> R { with { $0.withBuild(body) } }
  @inlinable @inline(__always) @MainActor
  public func uiRead<T>(_ signal: SignalHandle<T>) -> T { with { $0.uiRead(signal) } }
  @inlinable @inline(__always) @MainActor
  public func uiRead<T>(_ computed: ComputedHandle<T>) -> T { with { $0.uiRead(computed) } }
  @inlinable @inline(__always) @MainActor
  public func cleanup() { with { $0.cleanup() } }
  @inlinable @inline(__always) @MainActor
  public func collect() { with { $0.collect() } }
}

extension Guaranteed where S: KeyedReactiveSystem {
  @inlinable @inline(__always) @MainActor
  public func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T> {
    with { $0.box(body) }
  }
  @inlinable @inline(__always) @MainActor
  public func cachedBox<K: Hashable, T: Equatable>(limit: Int, _ body: @escaping (K) -> T)
    -> KeyedHandle<K, T>
  {
    with { $0.cachedBox(limit: limit, body) }
  }
  @inlinable @inline(__always) @MainActor
  public func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T { with { $0.read(box, key: key) } }
  @inlinable @inline(__always) @MainActor
  public func uiRead<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    with { $0.uiRead(box, key: key) }
  }
  @inlinable @inline(__always) @MainActor
  public func release<K, T>(_ box: KeyedHandle<K, T>, key: K) {
    with { $0.release(box, key: key) }
  }
}

/// `Unmanaged._withUnsafeGuaranteedRef` behind a function of this package: main-actor code
/// passing a closure literal straight to the standard library gets a dynamic executor check
/// inserted into the closure (Swift 6), one per call.
@inlinable @inline(__always)
public nonisolated func guaranteed<T: AnyObject, R>(_ u: Unmanaged<T>, _ body: (T) -> R) -> R {
  u._withUnsafeGuaranteedRef(body)
}
