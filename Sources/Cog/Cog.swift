import CogCore
import CogEdgePool
import CogInlineKey

@_exported import struct CogCore.CogAsyncStatus
@_exported import protocol CogCore.CogCyclePlaceholder
@_exported import enum CogCore.CogError

/// The graph type the public API binds: the core over the shared linked edge pool.
@usableFromInline package typealias CogGraph = Graph<SharedEdgePool>

/// A state descriptor: a stable name for one piece of state, usable in any `Cogs` context.
///
/// A *manual* cog holds a value written through turns:
/// ```swift
/// let countCog = Cog(0)
/// ```
/// An *automatic* cog computes its value from the states it reads, and recomputes only when
/// one of them changed:
/// ```swift
/// let doubledCog = Cog { c in c[countCog] * 2 }
/// ```
/// Descriptors own no value: each context keeps its own row for them. Declare them once (as
/// globals or static members) and share them.
///
/// `Cog` derives from `_CogRowBehavior`, an implementation detail of the runtime: an automatic
/// cog is the behavior its rows run in every context (one object per cog beside its body's
/// closure). It has nothing an app can use (no public members or initializers); do not name it.
public class Cog<Value>: _CogRowBehavior, RowOwner, @unchecked Sendable {
  /// This cog's row in the context it was last used in (`KeylessCache`). First, so that its
  /// offset does not depend on `Value`.
  @usableFromInline final let cache = KeylessCache()
  @usableFromInline final let state: KeylessState<Value, SharedEdgePool>
  /// An automatic cog's body, when it is a closure (`nil` for a manual cog and for a body of
  /// its own type, `BodyCog`), and its custom equality (`nil`: none, or every recompute is a
  /// change). Stored here, not captured by `run`: `run` captures nothing, so declaring
  /// allocates no closure context for it. Each closure is wrapped in a struct: a closure
  /// stored directly in an optional of a generic class is reabstracted through a thunk
  /// allocated per call (measured: 5,100 allocations per sample on cog/deep-api).
  ///
  /// Declared after `cache` and `state`, which every read touches: fields are laid out in
  /// declaration order, and a field after one of generic type may sit at an offset the code
  /// loads from the class's metadata.
  @usableFromInline final let closure: ClosureBody<Value>?
  @usableFromInline final let equals: CustomEquality<Value>?
  /// Last, so that its `deinit` runs after `closure` is released (iterative teardown).
  @usableFromInline final let teardown = TeardownHook()

  /// `RowOwner`: the contexts holding this cog (in its cache's padding).
  @inlinable package final func contextHold(_ delta: Int32) -> Int32 { cache.hold(delta) }

  /// The descriptor's process-wide id (for the workbench and tests).
  package final var id: Int32 { state.id }

  /// The given label, or `Cog<Value>#id` (formatted on demand, never at declaration).
  public final var label: String { state.label }
  @usableFromInline package final var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }
  /// Whether this is a manual cog (written in turns) rather than an automatic one.
  public final var isManual: Bool { state.isManual }

  /// How long this cog's row lives in a context.
  public final var lifetime: CogLifetime {
    CogLifetime(state.lifetime, cachePolicy: state.cachePolicy)
  }

  /// Every initializer ends here. `run` is what this cog's rows run (a manual cog's never
  /// runs); it is handed this object, so it must capture nothing that `state`, `closure` or
  /// `equals` (or a subclass's fields) can hold instead.
  @inlinable
  init(
    state: KeylessState<Value, SharedEdgePool>,
    closure: ClosureBody<Value>?,
    equals: CustomEquality<Value>?,
    run: @escaping RowRun
  ) {
    self.closure = closure
    self.equals = equals
    self.state = state
    super.init(run: run)
  }

  // A body may hold other cogs: their teardown is iterative (`Teardown`).
  deinit { if Teardown.begin(), let closure { Teardown.keep(closure) } }

  /// A manual cog with an initial value, compared with `==`.
  @inlinable
  public convenience init(_ initial: Value, label: String = "") where Value: Equatable {
    self.init(
      state: KeylessState(
        manual: initial, label: label,
        sharedEquality: Registry.shared(for: Value.self) {
          SourceEquality<Value>(equatableEquals)
        }),
      closure: nil, equals: nil, run: { _, _, _ in false })
  }

  /// A manual cog with an initial value and a custom equality (`nil`: every write changes).
  @inlinable
  public convenience init(
    _ initial: Value, label: String = "", equals: (@Sendable (Value, Value) -> Bool)?
  ) {
    self.init(
      state: KeylessState(
        manual: initial, label: label, equality: equals.map { SourceEquality($0) }),
      closure: nil, equals: nil, run: { _, _, _ in false })
  }

  /// An automatic cog. An equal result (`==`) stops its readers from recomputing.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) where Value: Equatable {
    self.init(
      state: KeylessState(
        automatic: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
        typeIndex: Registry.typeIndex(for: Value.self)),
      closure: ClosureBody(body), equals: nil,
      run: { behavior, g, slot in
        let cog = unsafeDowncast(behavior, to: Cog.self)
        let graph = CogGraph.unchecked(g)
        let new = cog.closure.unsafelyUnwrapped.run(CogContext(graph: graph, slot: slot))
        return graph.store(new, at: slot) { $0 == $1 }
      })
  }

  /// An automatic cog with a custom equality; `nil` means every recompute is a change.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) {
    self.init(
      state: KeylessState(
        automatic: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
        typeIndex: Registry.typeIndex(for: Value.self)),
      closure: ClosureBody(body), equals: equals.map { CustomEquality(same: $0) },
      run: { behavior, g, slot in
        let cog = unsafeDowncast(behavior, to: Cog.self)
        let graph = CogGraph.unchecked(g)
        let new = cog.closure.unsafelyUnwrapped.run(CogContext(graph: graph, slot: slot))
        return graph.store(new, at: slot, typeIndex: cog.state.typeIndex) { old, new in
          if let equals = cog.equals { return equals.same(old, new) }
          return false
        }
      })
  }
}

/// An automatic cog whose body is a value of its own type rather than a closure: its `run`,
/// specialized for `Body`, calls it directly, so a recompute makes one indirect call (the
/// behavior) where a closure body makes two (the behavior, then the closure). The workbench's
/// adapter uses it to call the case's closure from the behavior (see impl/perf-notes.md, "One
/// indirect call per row"). A subclass because `Cog` cannot hold a `Body` of any type and an
/// initializer of `Cog` cannot make a subclass.
@usableFromInline
package final class BodyCog<Value, Body: CogBody>: Cog<Value>, @unchecked Sendable
where Body.Value == Value {
  @usableFromInline let body: Body
  /// Last: ends the teardown after `body` is released (see `Cog.teardown`).
  @usableFromInline let bodyTeardown = TeardownHook()

  deinit { if Teardown.begin() { Teardown.keep(body) } }

  @inlinable
  package init(label: String = "", lifetime: CogLifetime = .context, body: Body)
  where Value: Equatable {
    self.body = body
    super.init(
      state: KeylessState(
        automatic: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
        typeIndex: Registry.typeIndex(for: Value.self)),
      closure: nil, equals: nil,
      run: { behavior, g, slot in
        let cog = unsafeDowncast(behavior, to: BodyCog.self)
        let graph = CogGraph.unchecked(g)
        let new = cog.body.run(CogContext(graph: graph, slot: slot))
        return graph.store(new, at: slot) { $0 == $1 }
      })
  }
}

extension Cog: StateName {
  @usableFromInline package typealias Edges = SharedEdgePool

  @inlinable package var typeIndex: Int32 { state.typeIndex }

  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: CogGraph) -> Bool {
    state.names(candidate, in: graph)
  }

  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: CogGraph) -> Slot {
    state.resolve(in: graph, cache: cache, owner: self, behavior: self)
  }

  @MainActor @inlinable
  package func existing(in graph: CogGraph) -> Slot { state.existing(in: graph) }
}

/// A cog named by an unretained reference (the workbench's handles): each requirement
/// borrows the cog for a field load or a call, so a read through it needs no closure around
/// the whole read. The caller keeps the cog alive.
@MainActor @frozen @usableFromInline
package struct UnretainedCog<T>: StateName {
  @usableFromInline package typealias Value = T
  @usableFromInline package typealias Edges = SharedEdgePool
  @usableFromInline let cog: Unmanaged<Cog<T>>
  @inlinable @inline(__always) package init(_ cog: Unmanaged<Cog<T>>) { self.cog = cog }
  @inlinable package var typeIndex: Int32 {
    @inline(__always) get { withGuaranteed(cog) { $0.typeIndex } }
  }
  @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: CogGraph) -> Bool {
    withGuaranteed(cog) { $0.names(candidate, in: graph) }
  }
  @inlinable @inline(__always)
  package func resolve(in graph: CogGraph) -> Slot {
    withGuaranteed(cog) { $0.resolve(in: graph) }
  }
  @inlinable
  package func existing(in graph: CogGraph) -> Slot {
    withGuaranteed(cog) { $0.existing(in: graph) }
  }
}

/// An automatic cog's body as a type (see `BodyCog`). Sendable, as a
/// closure body is: descriptors are made anywhere and run on the main actor.
@usableFromInline
package protocol CogBody: Sendable {
  associatedtype Value
  @MainActor func run(_ c: CogContext<Value>) -> Value
}

/// A closure as a cog's body (`Cog.closure`): a struct, so that the closure is stored at its
/// natural abstraction inside the optional and called without a thunk.
@frozen @usableFromInline
struct ClosureBody<Value> {
  @usableFromInline let body: @MainActor (CogContext<Value>) -> Value
  @inlinable nonisolated init(_ body: @escaping @MainActor (CogContext<Value>) -> Value) {
    self.body = body
  }
  @MainActor @inlinable @inline(__always)
  func run(_ c: CogContext<Value>) -> Value { body(c) }
}

/// An automatic cog's custom equality (`Cog.equals`), wrapped for the same reason.
@frozen @usableFromInline
struct CustomEquality<Value> {
  @usableFromInline let same: @Sendable (Value, Value) -> Bool
  @inlinable init(same: @escaping @Sendable (Value, Value) -> Bool) { self.same = same }
}
