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
public final class Cog<Value>: RowOwner, @unchecked Sendable {
  @usableFromInline let state: KeylessState<Value, SharedEdgePool>

  deinit { state.cache.free() }

  /// The descriptor's process-wide id (for the workbench and tests).
  package var id: Int32 { state.id }

  /// The given label, or `Cog<Value>#id` (formatted on demand, never at declaration).
  public var label: String { state.label }
  @usableFromInline package var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }
  /// Whether this is a manual cog (written in turns) rather than an automatic one.
  public var isManual: Bool { state.isManual }

  /// How long this cog's row lives in a context.
  public var lifetime: CogLifetime { CogLifetime(state.lifetime, cachePolicy: state.cachePolicy) }

  /// A cog over a state made elsewhere (the async factories, `CogAsync.swift`).
  @inlinable init(automaticState: KeylessState<Value, SharedEdgePool>) { state = automaticState }

  /// A manual cog with an initial value, compared with `==`.
  @inlinable
  public init(_ initial: Value, label: String = "") where Value: Equatable {
    state = KeylessState(
      manual: initial, label: label,
      sharedEquality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) })
  }

  /// A manual cog with an initial value and a custom equality (`nil`: every write changes).
  @inlinable
  public init(
    _ initial: Value, label: String = "", equals: (@Sendable (Value, Value) -> Bool)?
  ) {
    state = KeylessState(manual: initial, label: label, equality: equals.map { SourceEquality($0) })
  }

  /// An automatic cog. An equal result (`==`) stops its readers from recomputing.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) where Value: Equatable {
    self.init(label: label, lifetime: lifetime, body: ClosureBody(body))
  }

  /// An automatic cog whose body is a value of its own type rather than a closure: the row's
  /// behavior, specialized for `Body`, calls it directly, so a recompute makes one indirect
  /// call (the behavior) where a closure body makes two (the behavior, then the closure). The
  /// workbench's adapter uses it to call the case's closure from the behavior (see
  /// impl/perf-notes.md, "One indirect call per row"). Every automatic cog with `==` goes
  /// through here.
  @inlinable
  package init<Body: CogBody>(label: String = "", lifetime: CogLifetime = .context, body: Body)
  where Body.Value == Value, Value: Equatable {
    let ti = Registry.typeIndex(for: Value.self)
    state = KeylessState(
      automatic: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      typeIndex: ti,
      behavior: TypedRowBehavior<SharedEdgePool, Body>(body: body) { behavior, graph, slot in
        let b = unsafeDowncast(behavior, to: TypedRowBehavior<SharedEdgePool, Body>.self)
        let new = b.body.run(CogContext(graph: graph, slot: slot))
        return graph.store(new, at: slot) { $0 == $1 }
      })
  }

  /// An automatic cog with a custom equality; `nil` means every recompute is a change.
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) {
    let ti = Registry.typeIndex(for: Value.self)
    state = KeylessState(
      automatic: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      typeIndex: ti,
      behavior: RowBehavior { _, graph, slot in
        let new = body(CogContext(graph: graph, slot: slot))
        return graph.store(new, at: slot, typeIndex: ti) { old, new in
          if let equals { return equals(old, new) }
          return false
        }
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
  package func resolve(in graph: CogGraph) -> Slot { state.resolve(in: graph, owner: self) }

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

/// An automatic cog's body as a type (see `Cog.init(label:lifetime:body:)`). Sendable, as a
/// closure body is: descriptors are made anywhere and run on the main actor.
@usableFromInline
package protocol CogBody: Sendable {
  associatedtype Value
  @MainActor func run(_ c: CogContext<Value>) -> Value
}

/// A closure as a `CogBody`: what the public initializer stores.
@frozen @usableFromInline
struct ClosureBody<Value>: CogBody {
  @usableFromInline let body: @MainActor (CogContext<Value>) -> Value
  @inlinable nonisolated init(_ body: @escaping @MainActor (CogContext<Value>) -> Value) {
    self.body = body
  }
  @MainActor @inlinable @inline(__always)
  func run(_ c: CogContext<Value>) -> Value { body(c) }
}
