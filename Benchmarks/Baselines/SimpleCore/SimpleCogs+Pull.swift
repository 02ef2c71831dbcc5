/// Reading: bring a node up to date (pull), then record the read in the running computation.
///
/// Cycles follow the runtime's rules (swift/0002-cycles-and-depth.md), so that the differential
/// tests can hold the runtime to them: a read that reaches a node being verified or computed
/// closes a cycle and serves that node's last value (its placeholder if it never had one);
/// from then on the operation is failing: no body runs, a node is served as current only if
/// none of its dependencies changed, a body that completes discards its result and must run
/// again, and the cycle is reported when the operation ends.
extension SimpleCogs {
  /// The current value of `node`. Tracked when a computation (computed or reaction) is running,
  /// whether or not the read goes through its context (SEMANTICS §6). Inside a turn body this
  /// is the committed value; read through the writer to see staged values. A read outside any
  /// computation is an operation of its own: a cycle met on the way goes to `failureHandler`.
  public func read<V>(_ node: SimpleNode<V>) -> V {
    if frames.isEmpty { return operation { serve(node, track: false) } }
    return serve(node, track: true)
  }

  /// The current value of `node`, never tracked.
  public func peek<V>(_ node: SimpleNode<V>) -> V {
    if frames.isEmpty { return operation { serve(node, track: false) } }
    return serve(node, track: false)
  }

  /// A read through the context of the computation `owner`, which must be the one running.
  func readTracked<V>(_ node: SimpleNode<V>, by owner: ObjectIdentifier) -> V {
    precondition(
      frames.last?.owner == owner,
      "a context was used outside its own run (reading \(describe(node)))")
    return serve(node, track: true)
  }

  /// Runs `body` as one operation: a cycle noted in it is reported when it ends.
  func operation<R>(_ body: () -> R) -> R {
    let result = body()
    endOperation()
    return result
  }

  func endOperation() {
    guard let path = cycle else { return }
    cycle = nil
    failureHandler(.cycle(path.map(describe)))
  }

  /// Brings `node` up to date and returns its value, or, when a cycle kept it from being
  /// brought up to date, its last value (or placeholder). Tracks it only in the first case.
  func serve<V>(_ node: SimpleNode<V>, track tracked: Bool) -> V {
    precondition(node.cogs === self, "\(describe(node)) belongs to another SimpleCogs")
    if refresh(node) {
      if tracked { track(node) }
      return node.value!
    }
    if let v = node.value { return v }
    guard let p = simplePlaceholder(V.self) else {
      fatalError("cycle through \(describe(node)), which never had a value")
    }
    return p
  }

  /// Records a read of an up-to-date `node` in the innermost frame. A node read twice in a row
  /// is recorded once; other repeats are kept (harmless: the second check finds it verified).
  func track(_ node: SimpleAnyNode) {
    let top = frames.count - 1
    if let last = frames[top].deps.last, last.node === node { return }
    frames[top].deps.append(Dependency(node: node, seen: node.changedAt))
  }

  /// Brings a computed up to date at the current revision; sources always are. False when a
  /// cycle kept it from being brought up to date.
  @discardableResult
  func refresh(_ node: SimpleAnyNode) -> Bool {
    guard node.isComputed else { return true }
    if node.isComputing || node.isVerifying {
      noteCycle(at: node)
      return false
    }
    if !node.mustRun && node.verifiedAt == revision { return true }
    if cycle != nil { return unchangedSinceLastRun(node) }
    if !node.mustRun && node.verifiedAt > 0 {
      node.isVerifying = true
      active.append(node)
      let check = firstChanged(node.deps)
      active.removeLast()
      node.isVerifying = false
      switch check {
      case .unchanged:
        node.verifiedAt = revision
        return true
      case .abandoned: return false
      case .changed: break
      }
    }
    node.recompute()
    return cycle == nil
  }

  /// While an operation is failing: whether `node` is current without running anything (no
  /// dependency changed since its last run, recursively). Notes no new cycle.
  func unchangedSinceLastRun(_ node: SimpleAnyNode) -> Bool {
    guard node.isComputed else { return true }
    if !node.mustRun && node.verifiedAt == revision { return true }
    if node.mustRun || node.verifiedAt == 0 || node.isComputing || node.isVerifying {
      return false
    }
    node.isVerifying = true
    defer { node.isVerifying = false }
    for dep in node.deps {
      if !unchangedSinceLastRun(dep.node) || dep.node.changedAt != dep.seen { return false }
    }
    node.verifiedAt = revision
    return true
  }

  enum Check { case unchanged, changed, abandoned }

  /// Checks dependencies in read order, bringing each up to date first; stops at the first one
  /// whose `changedAt` differs from the one seen by the last run, or that a cycle kept stale.
  func firstChanged(_ deps: [Dependency]) -> Check {
    for dep in deps {
      if !refresh(dep.node) { return .abandoned }
      if dep.node.changedAt != dep.seen { return .changed }
    }
    return .unchanged
  }

  /// Records the cycle closed by reaching `node`: the nodes being verified or computed, from
  /// `node` to the innermost (the reader). Only the first cycle of an operation is kept.
  func noteCycle(at node: SimpleAnyNode) {
    guard cycle == nil else { return }
    guard let start = active.firstIndex(where: { $0 === node }) else {
      cycle = [node]
      return
    }
    var path: [SimpleAnyNode] = []
    for n in active[start...] where !path.contains(where: { $0 === n }) { path.append(n) }
    cycle = path
  }

  func describe(_ node: SimpleAnyNode) -> String {
    node.label.isEmpty ? "an unlabeled \(node.isComputed ? "computed" : "source")" : node.label
  }
}

/// What a read closing a cycle serves for a node that never had a value: as in the runtime,
/// the value written with an empty literal (`nil`, `false`, `0`, `""`, `[]`, `[:]`).
func simplePlaceholder<T>(_: T.Type) -> T? {
  func none<U: ExpressibleByNilLiteral>(_: U.Type) -> U { nil }
  func no<U: ExpressibleByBooleanLiteral>(_: U.Type) -> U { false }
  func zero<U: AdditiveArithmetic>(_: U.Type) -> U { .zero }
  func empty<U: ExpressibleByStringLiteral>(_: U.Type) -> U { "" }
  func emptyList<U: ExpressibleByArrayLiteral>(_: U.Type) -> U { [] }
  func emptyMap<U: ExpressibleByDictionaryLiteral>(_: U.Type) -> U { [:] }
  if let t = T.self as? any ExpressibleByNilLiteral.Type { return none(t) as? T }
  if let t = T.self as? any ExpressibleByBooleanLiteral.Type { return no(t) as? T }
  if let t = T.self as? any AdditiveArithmetic.Type { return zero(t) as? T }
  if let t = T.self as? any ExpressibleByStringLiteral.Type { return empty(t) as? T }
  if let t = T.self as? any ExpressibleByArrayLiteral.Type { return emptyList(t) as? T }
  if let t = T.self as? any ExpressibleByDictionaryLiteral.Type { return emptyMap(t) as? T }
  return nil
}
