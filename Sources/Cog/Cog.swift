import CogCore
import CogEdgePool

/// The graph type the public API binds: the core over the shared linked edge pool.
public typealias CogGraph = Graph<SharedEdgePool>

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
  public let id: Int32
  public let typeIndex: Int32
  /// The label given at declaration; empty for the default one.
  let givenLabel: String
  public let lifetime: CogLifetime
  @usableFromInline let initial: Value?
  /// A manual cog's equality (`nil`: every write changes); automatic cogs compare in their
  /// behavior.
  /// Called unretained (`withGuaranteed`); `equalityOwner` keeps it alive.
  @usableFromInline let equality: Unmanaged<CogEquality<Value>>?
  let equalityOwner: CogEquality<Value>?
  @usableFromInline let behavior: RowBehavior<SharedEdgePool>?
  /// This descriptor's row in the context it was last used in.
  @usableFromInline let cache = DescriptorCache.make()

  deinit { cache.free() }

  public var cachePolicy: (limit: Int, retention: Duration)? { lifetime.cachePolicy }
  public var isManual: Bool { behavior == nil }

  /// The given label, or `Cog<Value>#id`. The default is formatted here, on the error and
  /// debug paths that read it, never at declaration: a formatted label longer than 15 UTF-8
  /// bytes is a heap string, so formatting it eagerly made declaring a cog allocate once ids
  /// grew past six digits, and counts depended on how many descriptors the process had made.
  public var label: String { givenLabel.isEmpty ? "Cog<\(Value.self)>#\(id)" : givenLabel }

  /// A manual cog with an initial value, compared with `==`.
  @inlinable
  public convenience init(_ initial: Value, label: String = "") where Value: Equatable {
    self.init(
      manual: initial, label: label,
      equality: Registry.shared(for: Value.self) { CogEquality<Value>(equatableEquals) })
  }

  /// A manual cog with an initial value and a custom equality (`nil`: every write changes).
  @inlinable
  public convenience init(
    _ initial: Value, label: String = "", equals: (@Sendable (Value, Value) -> Bool)?
  ) {
    self.init(manual: initial, label: label, equality: equals.map { CogEquality($0) })
  }

  @usableFromInline
  init(manual initial: Value, label: String, equality: CogEquality<Value>?) {
    id = Registry.makeDescriptorID()
    typeIndex = Registry.typeIndex(for: Value.self)
    self.givenLabel = label
    self.lifetime = .context
    self.initial = initial
    self.equality = equality.map { Unmanaged.passUnretained($0) }
    self.equalityOwner = equality
    self.behavior = nil
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
        // The column may have grown while the body ran: locate the entry afterwards.
        let entry = graph.valuePointer(ti, graph.valueIndex[slot], as: Value.self)
        if let old = entry.pointee, old == new { return false }
        entry.pointee = new
        return true
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
        let entry = graph.valuePointer(ti, graph.valueIndex[slot], as: Value.self)
        if let equals, let old = entry.pointee, equals(old, new) { return false }
        entry.pointee = new
        return true
      })
  }

  @usableFromInline
  init(
    automatic label: String, lifetime: CogLifetime, typeIndex: Int32,
    behavior: RowBehavior<SharedEdgePool>
  ) {
    id = Registry.makeDescriptorID()
    self.typeIndex = typeIndex
    self.givenLabel = label
    self.lifetime = lifetime
    self.initial = nil
    self.equality = nil
    self.equalityOwner = nil
    self.behavior = behavior
  }

  /// This descriptor's row in `graph`, created on first use.
  @MainActor @inlinable @inline(__always)
  func slot(in graph: CogGraph) -> Slot {
    if cache.pointee.context == graph.identity {
      let s = Slot(cache.pointee.slot)
      if graph.descriptor[s] == id { return s }
    }
    return slowSlot(in: graph)
  }

  /// The row from the context's map, or a new one; remembered in the cache (cold).
  @MainActor @inline(never) @usableFromInline
  func slowSlot(in graph: CogGraph) -> Slot {
    var s = graph.slot(ofDescriptor: id)
    if s.isNone { s = makeRow(in: graph) }
    cache.pointee.context = graph.identity
    cache.pointee.slot = s.raw
    return s
  }

  /// The row if it exists, without creating one.
  @MainActor func existingSlot(in graph: CogGraph) -> Slot { graph.slot(ofDescriptor: id) }

  @MainActor @usableFromInline
  func makeRow(in graph: CogGraph) -> Slot {
    let pair = graph.allocateValuePair(typeIndex, initial: initial)
    graph.setOwner(self, for: id)
    let s = graph.allocateRow(
      kind: behavior == nil ? .source : .computed, descriptor: id, typeIndex: typeIndex,
      valueIndex: pair, behavior: behavior, lifetime: lifetime.row, key: nil)
    graph.setSlot(s, ofDescriptor: id)
    return s
  }
}
