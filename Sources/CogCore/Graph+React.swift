extension Graph {
  /// Registers a reaction that runs `behavior` (its body; it returns `false`: a reaction has
  /// no value). The body runs now, then once after every turn in which a state it read
  /// changed, in registration order. The owner made here holds the behavior: cancelling the
  /// reaction releases its row, its edges and its body.
  ///
  /// A registration run that meets a cycle has the cycle reported; the reaction is run again
  /// after every later turn that changes something, until it runs without one.
  @inlinable package func react(_ name: StaticString, _ behavior: RowBehavior<Edges>) -> SlotRef {
    if _slowPath(!canStartOperation) { misplaced("reaction '\(name)' was registered") }
    let id = Registry.makeDescriptorID()
    maps.owners[id] = ReactionOwner(name: name, behavior: behavior)
    let s = allocateRow(
      kind: .reaction, descriptor: id, typeIndex: -1, valueIndex: -1, behavior: behavior,
      lifetime: .context)
    let r = ref(s)
    refresh(s)
    if isFailing { reactionFailed(s) }
    collect()
    drainScheduled()
    return r
  }

  /// Cancels the reaction `r`; harmless if it is already gone.
  @inlinable package func cancelReaction(_ r: SlotRef) {
    if rows.generation[r.slot] != r.generation || rows.flags[r.slot].contains(.released) {
      return
    }
    release(r.slot)
    collect()
  }
}

/// A reaction's per-context record: its name for errors and history, and its behavior (which
/// holds the body). The graph's owner map is the only strong reference.
@usableFromInline
final class ReactionOwner<Edges: EdgeStore>: RowOwner, @unchecked Sendable {
  let name: StaticString
  let behavior: RowBehavior<Edges>
  @usableFromInline var label: String { "\(name)" }
  @usableFromInline var cachePolicy: (limit: Int, retention: Duration)? { nil }
  @usableFromInline init(name: StaticString, behavior: RowBehavior<Edges>) {
    self.name = name
    self.behavior = behavior
  }
}
