import CogCore
import CogEdgePool
import CogTypedKey

/// A state or reaction that a context can report on: a `Cog`, a `CogRef` or a `CogReaction`.
/// Run counts (`Cogs.runCount(of:)`) and recompute budgets (`Cogs.expectRecomputes`) take
/// any of them, so one list can mix them:
///
/// ```swift
/// try cogs.expectRecomputes(atMost: [totalCog, itemsBox[id], badgeReaction]) { … }
/// ```
///
/// Apps do not conform their own types: the requirement is the runtime's.
public protocol CogNode {
  /// The slot of this node's row in `cogs`, or -1 when it has none there. An implementation
  /// detail of the runtime: do not call it.
  @MainActor func _slotIndex(in cogs: Cogs) -> Int32
}

extension Cog: CogNode {
  /// The slot of this cog's row in `cogs`, or -1 (implementation detail; see `CogNode`).
  @MainActor public func _slotIndex(in cogs: Cogs) -> Int32 { existing(in: cogs.graph).raw }
}

extension CogRef: CogNode {
  /// The slot of this keyed state's row in `cogs`, or -1 (implementation detail; see
  /// `CogNode`).
  @MainActor public func _slotIndex(in cogs: Cogs) -> Int32 { name.existing(in: cogs.graph).raw }
}

extension CogReaction: CogNode {
  /// The slot of this reaction's row in `cogs`, or -1 when it was cancelled or belongs to
  /// another context (implementation detail; see `CogNode`).
  @MainActor public func _slotIndex(in cogs: Cogs) -> Int32 {
    guard let g = withGuaranteed(graph, { $0.graph }), g.toOpaque() == cogs.graphAddress,
      withGuaranteed(g, { $0.isLiveReaction(ref, id: id) })
    else { return -1 }
    return ref.slot.raw
  }
}

extension Cogs {
  /// The graph's address, to tell a reaction of this context from another's.
  var graphAddress: UnsafeMutableRawPointer {
    // Lifetime: an address to compare, never dereferenced; `self` keeps the graph alive meanwhile.
    Unmanaged.passUnretained(graph).toOpaque()
  }

  /// `node`'s row here, or `.none`.
  func slot(of node: some CogNode) -> Slot { Slot(node._slotIndex(in: self)) }
}
