/// How a state is named: what a read hands the core so that every entry point (a body's
/// `c[x]` and `c.peek(x)`, a reaction's reads, the context's subscript, `try read`, a
/// writer's read of an automatic state) goes through one typed read (`Graph.read`) with one
/// fast path. A keyless descriptor names one row per context; a keyed reference (a box and a
/// key) names one row per key. The reference layouts compared by the workbench are conformers.
@MainActor @usableFromInline
package protocol StateName {
  associatedtype Value
  associatedtype Edges: EdgeStore
  /// The typed value column of `Value` (see `Registry.typeIndex`).
  var typeIndex: Int32 { get }
  /// Warm path: whether `candidate`, the row the running body read at this point last run,
  /// is this state's row. Must not hash or allocate.
  func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool
  /// Cold path: this state's row in `graph`, created if it has none. Called after the warm
  /// path failed (or outside any body), so it need not try the candidate again.
  func resolve(in graph: Graph<Edges>) -> Slot
  /// This state's row in `graph`, or `.none`; creates nothing.
  func existing(in graph: Graph<Edges>) -> Slot
  /// This state's row in `graph` when it is known with no call and no hash (a keyless
  /// descriptor's cache), else `.none`, after which `resolve` finds or makes it. Lets
  /// `Graph.readInBody` keep its common cases free of calls.
  func knownSlot(in graph: Graph<Edges>) -> Slot
  /// `resolve`, where `knownSlot` just returned `.none` (so it need not look there again).
  func resolveUnknown(in graph: Graph<Edges>) -> Slot
}

extension StateName {
  /// Keyed states: a key's row is found by hashing, so never known without a call.
  @inlinable @inline(__always)
  package func knownSlot(in graph: Graph<Edges>) -> Slot { .none }

  @inlinable @inline(__always)
  package func resolveUnknown(in graph: Graph<Edges>) -> Slot { resolve(in: graph) }
}

/// What a read does besides returning the value.
@frozen @usableFromInline
package enum ReadMode {
  /// A tracked read: inside a body (or a reaction) it becomes a dependency; outside any, it
  /// is an operation of its own (a cycle goes to the error handler).
  case tracked
  /// An untracked read (`c.peek`).
  case peek
}

/// A state named by an unretained reference to its descriptor (the workbench's handles):
/// each requirement borrows the descriptor for a field load or a call, so a read through it
/// needs no closure around the whole read (one the optimizer did not inline into a case's
/// body). The caller keeps the descriptor alive.
@MainActor @frozen @usableFromInline
package struct Unretained<Name: StateName & AnyObject>: StateName {
  @usableFromInline package typealias Value = Name.Value
  @usableFromInline package typealias Edges = Name.Edges
  // Lifetime: unretained; the caller (the workbench's handle keeper) keeps the descriptor alive.
  @usableFromInline let name: Unmanaged<Name>
  @inlinable @inline(__always) package init(_ name: Unmanaged<Name>) { self.name = name }
  @inlinable package var typeIndex: Int32 {
    @inline(__always) get { withGuaranteed(name) { $0.typeIndex } }
  }
  @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    withGuaranteed(name) { $0.names(candidate, in: graph) }
  }
  @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>) -> Slot {
    withGuaranteed(name) { $0.resolve(in: graph) }
  }
  @inlinable
  package func existing(in graph: Graph<Edges>) -> Slot {
    withGuaranteed(name) { $0.existing(in: graph) }
  }
  @inlinable @inline(__always)
  package func knownSlot(in graph: Graph<Edges>) -> Slot {
    withGuaranteed(name) { $0.knownSlot(in: graph) }
  }
  @inlinable @inline(__always)
  package func resolveUnknown(in graph: Graph<Edges>) -> Slot {
    withGuaranteed(name) { $0.resolveUnknown(in: graph) }
  }
}
