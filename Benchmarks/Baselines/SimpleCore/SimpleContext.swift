/// What a computed's body receives: tracked reads, untracked reads, and its own previous value.
///
/// Valid only while that body runs (a tracked read from anywhere else is a precondition
/// failure, since it would record a dependency on the wrong computation).
@MainActor
public struct SimpleContext<V> {
  let node: SimpleNode<V>

  /// Reads `other` and records it as a dependency of this computed.
  public subscript<U>(_ other: SimpleNode<U>) -> U {
    node.cogs.readTracked(other, by: ObjectIdentifier(node))
  }

  /// Reads `other` without recording a dependency.
  public func peek<U>(_ other: SimpleNode<U>) -> U {
    node.cogs.serve(other, track: false)
  }

  /// The value of the previous run (nil on the first run).
  public var curr: V? { node.value }
}
