import CogCore

extension BoxRows {
  /// A manual row for `key` holding `initial` (a writable family's: `CogFamily`): a source
  /// row, tagged and keyed like a box's computed row (`makeRow`), so that lookups, lifetimes,
  /// release and dropping treat both alike.
  @inlinable
  package func makeManualRow<Value, Edges: EdgeStore>(
    _ key: Key, initial: Value, anyKey: AnyHashable? = nil, box: KeyedState<Value, Edges>,
    in graph: Graph<Edges>
  ) -> Slot {
    let tag = freeTags.count > 0 ? freeTags.removeLast() : UInt32(keys.count)
    let pair = graph.allocateValuePair(box.typeIndex, initial: Optional(initial))
    let s = graph.allocateRow(
      kind: .source, descriptor: box.id, typeIndex: box.typeIndex, valueIndex: pair,
      behavior: nil, lifetime: box.lifetime, tag: tag)
    let t = Int(tag)
    keys.extend(to: t + 1, with: nil)
    keys[t] = key
    slots[key] = s.raw
    if storesAnyKeys {
      if anyKeys.count <= t { anyKeys.extend(to: t + 1, with: freedAnyKey) }
      anyKeys[t] = anyKey ?? AnyHashable(key)
    }
    return s
  }
}
