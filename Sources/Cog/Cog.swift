import CogCore
import CogEdgePool
import CogTypedKey

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
/// globals or static members) and share them; a descriptor the app drops takes its rows with
/// it (swift/SEMANTICS.md §17).
public final class Cog<Value>: @unchecked Sendable {
  // Safety: immutable after init, rows used by main-actor graph code; a non-Sendable initial
  // value is taken on the main actor only (the initializers' two overloads), where it is read.
  /// This cog's row in the context it was last used in, and its id (`KeylessCache`). First,
  /// so that its offset does not depend on `Value`.
  @usableFromInline let cache = KeylessCache()
  /// Everything else: a manual `Cog<Int>` is one 64-byte object; what only some cogs need (a
  /// label, a lifetime, an own equality, an automatic cog's body and behavior) is in
  /// `state.details` (`KeylessState`).
  @usableFromInline package let state: KeylessState<Value, SharedEdgePool>

  deinit { cache.descriptorDeinit(details: state.details) }

  /// The descriptor's process-wide id (for the workbench and tests).
  package var id: Int32 { cache.id }

  /// The given label, or `Cog<Value>#id` (formatted on demand, never at declaration).
  public var label: String { state.label(id: cache.id) }
  @usableFromInline package var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }
  /// Whether this is a manual cog (written in turns) rather than an automatic one.
  @_spi(Testing) public var isManual: Bool { state.isManual }

  /// How long this cog's row lives in a context.
  public var lifetime: CogLifetime {
    CogLifetime(state.lifetime, cachePolicy: state.cachePolicy)
  }

  /// Every initializer ends here.
  @inlinable
  init(state: KeylessState<Value, SharedEdgePool>) {
    self.state = state
  }

  /// A manual cog with an initial value, compared with `==`.
  @inlinable
  public convenience init(_ initial: Value, label: String = "")
  where Value: Equatable & Sendable {
    self.init(state: .manual(initial, label: label))
  }

  /// A manual cog with an initial value that is not `Sendable`, compared with `==`. Made on
  /// the main actor: a cog is `Sendable`, and its initial value is read on the main actor,
  /// so a value made elsewhere and kept there could be changed while a context reads it.
  @MainActor @inlinable
  public convenience init(_ initial: Value, label: String = "") where Value: Equatable {
    self.init(state: .manual(initial, label: label))
  }

  /// A manual cog with an initial value and a custom equality (`nil`: every write changes).
  @inlinable
  public convenience init(
    _ initial: Value, label: String = "", equals: (@Sendable (Value, Value) -> Bool)?
  ) where Value: Sendable {
    self.init(state: .manual(initial, label: label, equals: equals))
  }

  /// A manual cog with an initial value that is not `Sendable` and a custom equality. Made on
  /// the main actor (see `init(_:label:)`).
  @MainActor @inlinable
  public convenience init(
    _ initial: Value, label: String = "", equals: (@Sendable (Value, Value) -> Bool)?
  ) {
    self.init(state: .manual(initial, label: label, equals: equals))
  }

  /// An automatic cog. An equal result (`==`) stops its readers from recomputing.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) where Value: Equatable {
    self.init(label: label, lifetime: lifetime, body: ClosureBody(body))
  }

  /// An automatic cog with a custom equality; `nil` means every recompute is a change.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) {
    typealias Behavior = KeylessBehavior<EquatingClosureBody<Value>>
    let behavior = Behavior(
      label: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      body: EquatingClosureBody(
        body: ClosureBody(body), equals: equals.map { CustomEquality(same: $0) })
    ) { behavior, g, slot in
      // Safety: this is `Behavior`'s own `run`, and the graph hands `run` its own object.
      let b = unsafeDowncast(behavior, to: Behavior.self)
      let graph = CogGraph.unchecked(g)
      let new = b.body.body.run(CogContext(graph: graph, slot: slot))
      return graph.store(new, at: slot) { old, new in
        if let equals = b.body.equals { return equals.same(old, new) }
        return false
      }
    }
    self.init(
      state: KeylessState(automatic: behavior, typeIndex: Registry.typeIndex(for: Value.self)))
  }

  /// An automatic cog whose body is a value of its own type (a closure body is a
  /// `ClosureBody`): its rows' `run`, specialized for `Body`, calls it directly. The
  /// workbench's adapter uses it to call the case's closure from the behavior (see
  /// impl/perf-notes.md, "One indirect call per row").
  @inlinable
  package convenience init<Body: CogBody>(
    label: String = "", lifetime: CogLifetime = .context, body: Body
  ) where Body.Value == Value, Value: Equatable {
    typealias Behavior = KeylessBehavior<Body>
    let behavior = Behavior(
      label: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy, body: body
    ) { behavior, g, slot in
      // Safety: this is `Behavior`'s own `run`, and the graph hands `run` its own object.
      let b = unsafeDowncast(behavior, to: Behavior.self)
      let graph = CogGraph.unchecked(g)
      let new = b.body.run(CogContext(graph: graph, slot: slot))
      return graph.store(new, at: slot) { $0 == $1 }
    }
    self.init(
      state: KeylessState(automatic: behavior, typeIndex: Registry.typeIndex(for: Value.self)))
  }
}

extension KeylessState where Edges == SharedEdgePool {
  /// A manual cog's state, compared with `==` (both overloads of `Cog.init(_:label:)`).
  @inlinable
  static func manual(_ initial: Value, label: String) -> Self where Value: Equatable {
    KeylessState(
      manual: initial, label: label,
      sharedEquality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) })
  }

  /// A manual cog's state with a custom equality (both overloads of `Cog.init(_:label:equals:)`).
  @inlinable
  static func manual(
    _ initial: Value, label: String, equals: (@Sendable (Value, Value) -> Bool)?
  ) -> Self {
    KeylessState(manual: initial, label: label, equality: equals.map { SourceEquality($0) })
  }
}

extension Cog: StateName {
  @usableFromInline package typealias Edges = SharedEdgePool

  @inlinable package var typeIndex: Int32 { state.typeIndex }

  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: CogGraph) -> Bool {
    state.names(candidate, in: graph, id: cache.id)
  }

  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: CogGraph) -> Slot {
    state.resolve(in: graph, cache: cache)
  }

  @MainActor @inlinable
  package func existing(in graph: CogGraph) -> Slot { state.existing(in: graph, cache: cache) }

  @MainActor @inlinable @inline(__always)
  package func knownSlot(in graph: CogGraph) -> Slot { state.knownSlot(in: graph, cache: cache) }

  @MainActor @inlinable @inline(__always)
  package func resolveUnknown(in graph: CogGraph) -> Slot {
    state.resolveSlow(in: graph, cache: cache)
  }
}

/// An automatic cog's body as a type (see `Cog.init(label:lifetime:body:)`). Sendable, as a
/// closure body is: descriptors are made anywhere and run on the main actor.
@usableFromInline
package protocol CogBody: Sendable {
  associatedtype Value
  @MainActor func run(_ c: CogContext<Value>) -> Value
}

/// A closure as a cog's body: a struct, so that the closure is stored at its natural
/// abstraction and called without a thunk (a closure stored directly in a generic class is
/// reabstracted through a thunk allocated per call). `@unchecked Sendable`: the closure is
/// `@MainActor` and only the graph calls it, on the main actor.
// Safety: the closure is `@MainActor`; only the graph calls it, on the main actor.
@frozen @usableFromInline
struct ClosureBody<Value>: CogBody, @unchecked Sendable {
  @usableFromInline let body: @MainActor (CogContext<Value>) -> Value
  @inlinable nonisolated init(_ body: @escaping @MainActor (CogContext<Value>) -> Value) {
    self.body = body
  }
  @MainActor @inlinable @inline(__always)
  func run(_ c: CogContext<Value>) -> Value { body(c) }
}

/// An automatic cog's custom equality, wrapped for the same reason.
@frozen @usableFromInline
struct CustomEquality<Value> {
  @usableFromInline let same: @Sendable (Value, Value) -> Bool
  @inlinable init(same: @escaping @Sendable (Value, Value) -> Bool) { self.same = same }
}

/// A closure body with a custom equality (`nil`: every recompute is a change).
// Safety: a `ClosureBody` (see there) and a `@Sendable` equality.
@frozen @usableFromInline
struct EquatingClosureBody<Value>: @unchecked Sendable {
  @usableFromInline let body: ClosureBody<Value>
  @usableFromInline let equals: CustomEquality<Value>?
  @inlinable init(body: ClosureBody<Value>, equals: CustomEquality<Value>?) {
    self.body = body
    self.equals = equals
  }
}
