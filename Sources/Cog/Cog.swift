import CogCore
import CogEdgePool

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
  @usableFromInline package let id: Int32
  @usableFromInline package let typeIndex: Int32
  /// The label given at declaration; empty for the default one.
  let givenLabel: String
  public let lifetime: CogLifetime
  @usableFromInline let initial: Value?
  /// A manual cog's equality (`nil`: every write changes); automatic cogs compare in their
  /// behavior. Called unretained; `equalityOwner` keeps it alive.
  @usableFromInline let equality: Unmanaged<SourceEquality<Value>>?
  let equalityOwner: SourceEquality<Value>?
  @usableFromInline let behavior: RowBehavior<SharedEdgePool>?
  /// This descriptor's row in the context it was last used in.
  @usableFromInline let cache = DescriptorCache.make()

  deinit { cache.free() }

  /// The given label, or `Cog<Value>#id`. The default is formatted here, on the error and
  /// debug paths that read it, never at declaration: a formatted label longer than 15 UTF-8
  /// bytes is a heap string, so formatting it eagerly made declaring a cog allocate once ids
  /// grew past six digits, and counts depended on how many descriptors the process had made.
  public var label: String { givenLabel.isEmpty ? "Cog<\(Value.self)>#\(id)" : givenLabel }
  @usableFromInline package var cachePolicy: (limit: Int, retention: Duration)? {
    lifetime.cachePolicy
  }
  /// Whether this is a manual cog (written in turns) rather than an automatic one.
  public var isManual: Bool { behavior == nil }

  /// A manual cog with an initial value, compared with `==`.
  @inlinable
  public convenience init(_ initial: Value, label: String = "") where Value: Equatable {
    self.init(
      manual: initial, label: label,
      equality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) })
  }

  /// A manual cog with an initial value and a custom equality (`nil`: every write changes).
  @inlinable
  public convenience init(
    _ initial: Value, label: String = "", equals: (@Sendable (Value, Value) -> Bool)?
  ) {
    self.init(manual: initial, label: label, equality: equals.map { SourceEquality($0) })
  }

  @usableFromInline
  init(manual initial: Value, label: String, equality: SourceEquality<Value>?) {
    id = Registry.makeDescriptorID()
    typeIndex = Registry.typeIndex(for: Value.self)
    givenLabel = label
    lifetime = .context
    self.initial = initial
    self.equality = equality.map { Unmanaged.passUnretained($0) }
    equalityOwner = equality
    behavior = nil
  }

  /// An automatic cog. An equal result (`==`) stops its readers from recomputing.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) where Value: Equatable {
    let ti = Registry.typeIndex(for: Value.self)
    self.init(
      automatic: label, lifetime: lifetime, typeIndex: ti,
      behavior: RowBehavior { graph, slot in
        let new = body(CogContext(graph: graph, slot: slot))
        return graph.store(new, at: slot, typeIndex: ti) { $0 == $1 }
      })
  }

  /// An automatic cog with a custom equality; `nil` means every recompute is a change.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?,
    _ body: @escaping @MainActor (CogContext<Value>) -> Value
  ) {
    let ti = Registry.typeIndex(for: Value.self)
    self.init(
      automatic: label, lifetime: lifetime, typeIndex: ti,
      behavior: RowBehavior { graph, slot in
        let new = body(CogContext(graph: graph, slot: slot))
        return graph.store(new, at: slot, typeIndex: ti) { old, new in
          if let equals { return equals(old, new) }
          return false
        }
      })
  }

  @usableFromInline
  init(
    automatic label: String, lifetime: CogLifetime, typeIndex: Int32,
    behavior: RowBehavior<SharedEdgePool>
  ) {
    id = Registry.makeDescriptorID()
    self.typeIndex = typeIndex
    givenLabel = label
    self.lifetime = lifetime
    initial = nil
    equality = nil
    equalityOwner = nil
    self.behavior = behavior
  }
}

extension Cog: StateName {
  @usableFromInline package typealias Edges = SharedEdgePool

  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: CogGraph) -> Bool {
    graph.rows.descriptor[candidate] == id
  }

  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: CogGraph) -> Slot {
    let s = graph.cachedKeylessSlot(id: id, cache: cache)
    if _fastPath(!s.isNone) { return s }
    return resolveSlow(in: graph)
  }

  /// A cache miss: the context's row, or a new one (cold: once per descriptor per context).
  @MainActor @inlinable @inline(never)
  func resolveSlow(in graph: CogGraph) -> Slot {
    let s = graph.keylessSlotSlow(id: id, cache: cache)
    if !s.isNone { return s }
    let made = makeRow(in: graph)
    graph.remember(made, id: id, cache: cache)
    return made
  }

  @MainActor @inlinable
  package func existing(in graph: CogGraph) -> Slot { graph.slot(ofDescriptor: id) }

  @MainActor @usableFromInline
  func makeRow(in graph: CogGraph) -> Slot {
    graph.makeKeylessRow(
      id: id, typeIndex: typeIndex, initial: initial, owner: self, behavior: behavior,
      lifetime: lifetime.row)
  }
}
