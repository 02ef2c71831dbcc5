/// A keyed family of computeds sharing one body: `box[key]` names the computed for `key`,
/// created on first use and returned again (the same object) for the same key.
///
/// The simple core never evicts keyed nodes: a box keeps every node it created.
@MainActor
public final class SimpleBox<K: Hashable, V> {
  public let label: String
  unowned let cogs: SimpleCogs
  let equals: ((V, V) -> Bool)?
  let body: (K, SimpleContext<V>) -> V
  var nodes: [K: SimpleNode<V>] = [:]

  init(
    cogs: SimpleCogs, label: String, equals: ((V, V) -> Bool)?,
    body: @escaping (K, SimpleContext<V>) -> V
  ) {
    self.cogs = cogs
    self.label = label
    self.equals = equals
    self.body = body
  }

  /// The computed for `key`. Naming it does not read it and creates no dependency.
  public subscript(key: K) -> SimpleNode<V> {
    if let node = nodes[key] { return node }
    let body = self.body
    let node = SimpleNode<V>(
      cogs: cogs, label: "\(label)[\(key)]", value: nil, equals: equals,
      body: { c in body(key, c) })
    nodes[key] = node
    return node
  }

  /// How many keys have a node.
  public var count: Int { nodes.count }
}
