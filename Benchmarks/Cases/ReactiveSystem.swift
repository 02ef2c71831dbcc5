/// The one adapter every measured system implements: the js-reactivity-benchmark framework
/// interface (signal, computed, effect, batch, build, cleanup), made generic so that a case
/// specializes for each system.
///
/// Handles are small trivial structs that name the system's own object without retaining it
/// (`HandleKeeper` owns it); a system reads the object through `object(as:)` and a guaranteed
/// reference, which costs no reference counting in release builds.
///
/// Semantics every system must keep (the cases' run-count checks depend on them), unless it
/// declares otherwise in `capabilities`:
/// - `computed` is lazy: it runs when read and one of its dependencies changed since its last
///   run; an equal result (`==`) does not count as a change for its readers.
/// - `effect` runs once immediately, then once per batch in which a dependency changed.
/// - `withBatch` applies all writes at its end, then runs the effects that need it.
/// - `write` outside a batch behaves like a batch of one write.
/// - `read` inside a computed or effect is tracked; outside it just pulls the current value.
@MainActor
public protocol ReactiveSystem: AnyObject {
  /// The system id used in case selection and result files (`cog`, `simple`, …). A constant,
  /// readable from any context.
  nonisolated static var id: String { get }
  /// Which of the semantics above the system keeps. Defaults to `.all`. A case lists what its
  /// graph needs in `requirements` (not applicable otherwise) and skips the checks that a
  /// missing capability would make fail (e.g. computed run counts without memoization).
  nonisolated static var capabilities: SystemCapabilities { get }
  init()
  func signal<T: Equatable>(_ initial: T) -> SignalHandle<T>
  func computed<T: Equatable>(_ body: @escaping () -> T) -> ComputedHandle<T>
  func effect(_ body: @escaping () -> Void)
  /// An effect's body made ready before the system is reached: `Guaranteed.effect` calls the
  /// system inside a closure, and a body captured there is copied (a retain and a release of
  /// its context per effect). A system whose prepared form is trivial (Cog's: the reaction's
  /// object, unretained) hands the body on with no copy. Defaults to the body itself.
  associatedtype PreparedEffect = () -> Void
  static func prepareEffect(_ body: consuming @escaping () -> Void) -> PreparedEffect
  func effect(prepared: consuming PreparedEffect)
  func read<T>(_ signal: SignalHandle<T>) -> T
  func read<T>(_ computed: ComputedHandle<T>) -> T
  func write<T>(_ signal: SignalHandle<T>, _ value: T)
  func withBatch(_ body: () -> Void)
  func withBuild<R>(_ body: () -> R) -> R
  /// Disposes the effects built since the last `cleanup`: they stop running and leave their
  /// dependencies, as the JS `cleanup` (an effect scope's dispose, or preact's disposers)
  /// does. The objects behind handles, and the disposed effects themselves, stay allocated
  /// until `collect`, as the JS leaves them to its garbage collector.
  func cleanup()
  /// Frees what was built before: every object behind a handle made before the call, and
  /// the effects `cleanup` disposed. The JS garbage collector's part; cases call it outside
  /// timed regions (sbench times `cleanup` but collects after the clock stops, like the JS).
  func collect()
  /// A UI read (needs `.uiReads`): reads the value the way a view's body does, so that the
  /// caller's `withObservationTracking` is told when it changes. Without the capability it
  /// is a plain read.
  func uiRead<T>(_ signal: SignalHandle<T>) -> T
  func uiRead<T>(_ computed: ComputedHandle<T>) -> T
  /// How many `ObservationRegistrar`s the system owns now; nil when it has none to count.
  var registrarCount: Int? { get }
  /// `cog/deep-api` (needs `.ownAPI`): kairo/deep's graph (a source, `length` chained `+1`
  /// computeds, one effect reading the last) built and driven through the system's own API
  /// rather than this adapter, so that the record shows what the adapter's layers cost. Each
  /// iteration does what kairo/deep's does (a turn writing 1, then `length` turns writing
  /// `i`, each checked by reading the last computed) and checks the same values and effect
  /// runs. With `explainsTurns` the context explains every turn (`cog/deep-explained`: what
  /// explanations cost when on). With `secondContext`, another context of the system's,
  /// alive for the case's life, reads the chain first (`cog/deep-second-context`: what a
  /// context pays for descriptors whose one-entry cache another live context holds). Nil by
  /// default.
  func deepThroughOwnAPI(
    length: Int, iterationsPerSample: Int, explainsTurns: Bool, secondContext: Bool,
    checks: CaseChecks
  ) -> PreparedCase?
  /// `cog/first-read-new-context` (needs `.ownAPI`): `count` fresh manual states with values
  /// 0 ..< `count`, each read once, outside any computation, in a context made for the
  /// sample with the system's own API and its default size. The context and the states are
  /// made before the sample, untimed, and the previous sample's go then: every row is
  /// appended and every column grows from a new context's size, as in an app's first
  /// screen (`cog/first-read` reads in the system's one context, where a sample's rows reuse
  /// the slots its previous sample freed). Nil by default.
  func firstReadsInNewContext(count: Int, checks: CaseChecks) -> PreparedCase?
}

extension ReactiveSystem where PreparedEffect == () -> Void {
  @inlinable public static func prepareEffect(_ body: consuming @escaping () -> Void)
    -> PreparedEffect
  { body }
  @inlinable public func effect(prepared: consuming PreparedEffect) { effect(prepared) }
}

extension ReactiveSystem {
  public nonisolated static var capabilities: SystemCapabilities { .all }
  @inlinable public func uiRead<T>(_ signal: SignalHandle<T>) -> T { read(signal) }
  @inlinable public func uiRead<T>(_ computed: ComputedHandle<T>) -> T { read(computed) }
  public var registrarCount: Int? { nil }
  public func deepThroughOwnAPI(
    length: Int, iterationsPerSample: Int, explainsTurns: Bool, secondContext: Bool,
    checks: CaseChecks
  ) -> PreparedCase? { nil }
  public func firstReadsInNewContext(count: Int, checks: CaseChecks) -> PreparedCase? { nil }
}

/// A writable source made by a `ReactiveSystem`.
public struct SignalHandle<T> {
  public let ref: Unmanaged<AnyObject>
  @inlinable public init(_ ref: Unmanaged<AnyObject>) { self.ref = ref }
  /// The system's object behind the handle, unretained.
  @inlinable @inline(__always)
  public func object<O: AnyObject>(as _: O.Type) -> Unmanaged<O> { .fromOpaque(ref.toOpaque()) }
}

/// A derived value made by a `ReactiveSystem`.
public struct ComputedHandle<T> {
  public let ref: Unmanaged<AnyObject>
  @inlinable public init(_ ref: Unmanaged<AnyObject>) { self.ref = ref }
  /// The system's object behind the handle, unretained.
  @inlinable @inline(__always)
  public func object<O: AnyObject>(as _: O.Type) -> Unmanaged<O> { .fromOpaque(ref.toOpaque()) }
}

/// Keeps the objects behind a system's handles alive. Handles are unretained (`Unmanaged`) so
/// that copying one, such as reading `current[i]` out of an array of handles in a computed's
/// body, costs no retain and release: with strong handles that was one pair per element read
/// (measured: 5 per turn in kairo/diamond, about 450,000 per sample in dynamic/25-1000x5),
/// traffic of the case code that hid the system's own count.
///
/// A system makes every handle with `keep(_:)` and calls `releaseAll()` in `collect()`; cases
/// never use a handle made before a `collect()`. The array keeps its capacity, so rebuilding a
/// graph of the same size after a cleanup allocates nothing here. Main-actor confined, as the
/// systems that own one are.
@MainActor
public final class HandleKeeper {
  @usableFromInline @exclusivity(unchecked) var objects: [AnyObject] = []
  @inlinable public init() {}

  @inlinable
  public func keep(_ object: AnyObject) -> Unmanaged<AnyObject> {
    objects.append(object)
    return .passUnretained(object)
  }

  /// Releases every kept object (those still referenced elsewhere live on).
  @inlinable
  public func releaseAll() { objects.removeAll(keepingCapacity: true) }

  public var count: Int { objects.count }
}

/// The effects of a system: those built since the last `cleanup`, and those disposed but not
/// yet collected (`ReactiveSystem.cleanup` / `collect`).
@MainActor
public struct EffectList<Effect> {
  /// The effects built since the last `retire` (systems cancel them by a loop over it).
  public var live: [Effect] = []
  @usableFromInline var disposed: [Effect] = []

  @inlinable public init() {}

  /// Takes the caller's reference (`consuming`: no retain of its own).
  @inlinable public mutating func append(_ effect: consuming Effect) { live.append(effect) }

  /// Moves the live effects (which the system has just cancelled) to the disposed ones,
  /// without retaining them again, until `collect`. (The systems cancel with a plain loop
  /// over `live`: a generic `dispose` closure here cost a retain and release per effect.)
  @inlinable
  public mutating func retire() {
    if disposed.isEmpty {
      swap(&disposed, &live)
    } else {
      disposed.append(contentsOf: live)
      live.removeAll()
    }
  }

  /// Releases the disposed effects. (Keeping the arrays' storage, so that they stop regrowing
  /// after the second sample, measured slower: 1.02–1.11× the wall time of six of the nine
  /// `sbench` `create*` sub-cases in five interleaved rounds, impl/perf-notes.md "Stop 45".)
  @inlinable public mutating func collect() { disposed.removeAll() }
}

// MARK: - Capabilities

/// What a measured system keeps of the semantics above. (Moved here from the baselines'
/// `ObservationSystem.swift`, same members, so that a case can read `S.capabilities` in its
/// specialized `prepare`.)
public struct SystemCapabilities: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

  /// A computed runs only when read after a dependency changed (run count = changes, not
  /// reads). Without it, deep or wide graphs recompute exponentially often.
  public static let memoizedComputeds = SystemCapabilities(rawValue: 1 << 0)
  /// An equal recompute stops its readers (computeds and effects) from running.
  public static let equalityCutoff = SystemCapabilities(rawValue: 1 << 1)
  /// Batch writes are staged and compared at the end: writing a value and writing it back
  /// inside one batch changes nothing.
  public static let stagedTurns = SystemCapabilities(rawValue: 1 << 2)

  /// UI reads under Observation tracking (`uiRead`): a view's `withObservationTracking` is
  /// told when a value it read changed. Not part of `all`: only systems that connect to
  /// Observation (Cog's boundaries, raw `@Observable`) have it.
  public static let uiReads = SystemCapabilities(rawValue: 1 << 3)
  /// Cases written against the system's own API (`ReactiveSystem.deepThroughOwnAPI`). Not
  /// part of `all`: only Cog's systems have them.
  public static let ownAPI = SystemCapabilities(rawValue: 1 << 4)

  public static let all: SystemCapabilities = [.memoizedComputeds, .equalityCutoff, .stagedTurns]

  /// Why a system with these capabilities cannot run a case that needs `required`, or nil.
  public func reasonMissing(_ required: SystemCapabilities) -> String? {
    let missing = required.subtracting(self)
    guard !missing.isEmpty else { return nil }
    var names: [String] = []
    if missing.contains(.memoizedComputeds) { names.append("memoized computeds") }
    if missing.contains(.equalityCutoff) { names.append("equality cutoff") }
    if missing.contains(.stagedTurns) { names.append("staged turns") }
    if missing.contains(.uiReads) { names.append("UI reads under Observation tracking") }
    if missing.contains(.ownAPI) { names.append("cases written against its own API") }
    return "the system has no " + names.joined(separator: ", ")
  }
}

// MARK: - Keyed boxes (optional capability)

/// A system that also has keyed boxes: one body shared by every key, a lazy computed per key
/// (SEMANTICS §3). Cases that need boxes (`KeyedBenchmarkCase`) are not applicable to systems
/// without this conformance.
///
/// - `box` makes a box; nothing runs until a key is read.
/// - `read(box, key:)` names the computed for `key` (creating it on first use: a cold key) and
///   reads it, with the same tracking and laziness rules as `read(_: ComputedHandle)`. Inside
///   a box body, reads of signals, computeds and other boxes are tracked for that key.
/// - `release(box, key:)` says the case will not read `key` again and that no live computed or
///   effect depends on it any more. A system may drop the key's computed and cached value (Cog
///   frees the row); a system that keeps every key may ignore the call. Cases never read a
///   released key again, so their run counts do not depend on that choice.
/// - `cachedBox(limit:_:)` makes a box whose unobserved keys a system with lifetimes keeps in
///   a cache of at most `limit` keys (Cog's `.cache` lifetime); the default is a plain box
///   (systems that keep every key). Cases stay within the limit, so the work is the same.
@MainActor
public protocol KeyedReactiveSystem: ReactiveSystem {
  func box<K: Hashable, T: Equatable>(_ body: @escaping (K) -> T) -> KeyedHandle<K, T>
  func cachedBox<K: Hashable, T: Equatable>(limit: Int, _ body: @escaping (K) -> T)
    -> KeyedHandle<K, T>
  func read<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T
  func release<K, T>(_ box: KeyedHandle<K, T>, key: K)
  /// A UI read of `key`'s state (see `ReactiveSystem.uiRead`); a plain read by default.
  func uiRead<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T
}

extension KeyedReactiveSystem {
  @inlinable public func uiRead<K, T>(_ box: KeyedHandle<K, T>, key: K) -> T {
    read(box, key: key)
  }

  @inlinable
  public func cachedBox<K: Hashable, T: Equatable>(limit: Int, _ body: @escaping (K) -> T)
    -> KeyedHandle<K, T>
  {
    box(body)
  }
}

/// A keyed box made by a `KeyedReactiveSystem`.
public struct KeyedHandle<K: Hashable, T> {
  public let ref: Unmanaged<AnyObject>
  @inlinable public init(_ ref: Unmanaged<AnyObject>) { self.ref = ref }
  /// The system's object behind the handle, unretained.
  @inlinable @inline(__always)
  public func object<O: AnyObject>(as _: O.Type) -> Unmanaged<O> { .fromOpaque(ref.toOpaque()) }
}

// MARK: - Readable handles

/// Signals and computeds read through one generic call, so that graph builders can take a
/// previous row of either kind (a first row of signals, later rows of computeds) and still
/// specialize.
public protocol ReadableHandle {
  associatedtype Value
  @MainActor func read<S: ReactiveSystem>(in system: S) -> Value
  @MainActor func read<S: ReactiveSystem>(in system: Guaranteed<S>) -> Value
}

extension SignalHandle: ReadableHandle {
  @inlinable @inline(__always) @MainActor
  public func read<S: ReactiveSystem>(in system: S) -> T { system.read(self) }
  @inlinable @inline(__always) @MainActor
  public func read<S: ReactiveSystem>(in system: Guaranteed<S>) -> T { system.read(self) }
}

extension ComputedHandle: ReadableHandle {
  @inlinable @inline(__always) @MainActor
  public func read<S: ReactiveSystem>(in system: S) -> T { system.read(self) }
  @inlinable @inline(__always) @MainActor
  public func read<S: ReactiveSystem>(in system: Guaranteed<S>) -> T { system.read(self) }
}
