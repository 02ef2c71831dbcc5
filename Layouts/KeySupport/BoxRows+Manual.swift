import CogCore

extension BoxRows {
  /// Makes the manual row of `key` for a writable family (`CogFamily`), holding `initial`
  /// (cold: once per key per context while it lives). `.entries` tags only. A source row,
  /// keyed and tagged as `makeRow` keys a box's computed row, so that lookups, lifetimes,
  /// release (`forgetKey`) and dropping treat both alike.
  @inlinable
  package func makeManualRow<Value, Edges: EdgeStore>(
    _ key: Key, initial: Value, box: KeyedState<Value, Edges>, in graph: Graph<Edges>
  ) -> Slot {
    let tag = freeTags.count > 0 ? freeTags.removeLast() : UInt32(keys.count)
    let pair = graph.allocateValuePair(box.typeIndex, initial: Optional(initial))
    let s = graph.allocateRow(
      kind: .source, descriptor: box.id, typeIndex: box.typeIndex, valueIndex: pair,
      behavior: BehaviorRef(nil), lifetime: box.lifetime, tag: tag)
    let t = Int(tag)
    keys.extend(to: t + 1, with: nil)
    keys[t] = key
    slots[key] = s.raw
    return s
  }
}
