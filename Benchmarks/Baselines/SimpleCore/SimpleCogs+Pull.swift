/// Reading: bring a node up to date (pull), then record the read in the running computation.
extension SimpleCogs {
  /// The current value of `node`. Tracked when a computation (computed or reaction) is running,
  /// whether or not the read goes through its context (SEMANTICS §6). Inside a turn body this
  /// is the committed value; read through the writer to see staged values.
  public func read<V>(_ node: SimpleNode<V>) -> V {
    let value = pull(node)
    if !frames.isEmpty { track(node) }
    return value
  }

  /// The current value of `node`, never tracked.
  public func peek<V>(_ node: SimpleNode<V>) -> V {
    pull(node)
  }

  /// A read through the context of the computation `owner`, which must be the one running.
  func readTracked<V>(_ node: SimpleNode<V>, by owner: ObjectIdentifier) -> V {
    precondition(
      frames.last?.owner == owner,
      "a context was used outside its own run (reading \(describe(node)))")
    let value = pull(node)
    track(node)
    return value
  }

  func pull<V>(_ node: SimpleNode<V>) -> V {
    precondition(node.cogs === self, "\(describe(node)) belongs to another SimpleCogs")
    refresh(node)
    return node.value!
  }

  /// Records a read of an up-to-date `node` in the innermost frame. A node read twice in a row
  /// is recorded once; other repeats are kept (harmless: the second check finds it verified).
  func track(_ node: SimpleAnyNode) {
    let top = frames.count - 1
    if let last = frames[top].deps.last, last.node === node { return }
    frames[top].deps.append(Dependency(node: node, seen: node.changedAt))
  }

  /// Brings a computed up to date at the current revision; sources always are.
  func refresh(_ node: SimpleAnyNode) {
    precondition(
      !node.isComputing, "cycle: \(describe(node)) was read while its own body was running")
    guard node.isComputed, node.verifiedAt != revision else { return }
    if node.verifiedAt > 0 && !firstChanged(node.deps) {
      node.verifiedAt = revision
    } else {
      node.recompute()
    }
  }

  /// Checks dependencies in read order, bringing each up to date first; stops at the first one
  /// whose `changedAt` differs from the one seen by the last run.
  func firstChanged(_ deps: [Dependency]) -> Bool {
    for dep in deps {
      refresh(dep.node)
      if dep.node.changedAt != dep.seen { return true }
    }
    return false
  }

  func describe(_ node: SimpleAnyNode) -> String {
    node.label.isEmpty ? "an unlabeled \(node.isComputed ? "computed" : "source")" : node.label
  }
}
