/// Creating states. Sources need an equality (`==` when `V: Equatable`); computeds may go
/// without one, and then every recompute counts as a change for their readers.
extension SimpleCogs {
  public func source<V>(_ initial: V, label: String = "", equals: @escaping (V, V) -> Bool)
    -> SimpleNode<V>
  {
    SimpleNode(cogs: self, label: label, value: initial, equals: equals, body: nil)
  }

  public func source<V: Equatable>(_ initial: V, label: String = "") -> SimpleNode<V> {
    source(initial, label: label, equals: ==)
  }

  /// A lazy computed: `body` runs on the first read and again on a read after a dependency
  /// (a tracked read of its last run) changed.
  public func computed<V>(
    label: String = "", equals: ((V, V) -> Bool)? = nil,
    _ body: @escaping (SimpleContext<V>) -> V
  ) -> SimpleNode<V> {
    SimpleNode(cogs: self, label: label, value: nil, equals: equals, body: body)
  }

  public func computed<V: Equatable>(
    label: String = "", _ body: @escaping (SimpleContext<V>) -> V
  ) -> SimpleNode<V> {
    computed(label: label, equals: ==, body)
  }

  /// A keyed box: one body, one computed per key (`box[key]`).
  public func box<K: Hashable, V>(
    label: String = "", equals: ((V, V) -> Bool)? = nil,
    _ body: @escaping (K, SimpleContext<V>) -> V
  ) -> SimpleBox<K, V> {
    SimpleBox(cogs: self, label: label, equals: equals, body: body)
  }

  public func box<K: Hashable, V: Equatable>(
    label: String = "", _ body: @escaping (K, SimpleContext<V>) -> V
  ) -> SimpleBox<K, V> {
    box(label: label, equals: ==, body)
  }
}
