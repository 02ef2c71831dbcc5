/// The writer a turn body receives. Reads see the values staged in this turn (so `w[x] += 1`
/// works); writes stage a new value for a source, published when the turn ends.
///
/// A writer is valid only while its turn body runs; using an escaped writer later is a
/// precondition failure.
@MainActor
public struct SimpleWriter {
  let cogs: SimpleCogs
  let serial: Int

  public subscript<V>(_ node: SimpleNode<V>) -> V {
    get {
      check(node)
      return node.isStaged ? node.staged! : cogs.read(node)
    }
    nonmutating set {
      check(node)
      precondition(
        !node.isComputed, "\(cogs.describe(node)) is computed; only sources can be written")
      if !node.isStaged {
        node.isStaged = true
        cogs.touched.append(node)
      }
      node.staged = newValue
    }
  }

  func check(_ node: SimpleAnyNode) {
    precondition(
      cogs.activeTurn != nil && cogs.turnSerial == serial,
      "a writer was used after its turn ended (\(cogs.describe(node)))")
  }
}
