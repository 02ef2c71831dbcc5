/// A derived node (swift-state-graph's `Computed`): lazy, recomputed on read when an incoming
/// edge is pending, with its dependencies torn down and rebuilt on every recompute. A read
/// reports to Observation (a generic key path per read); turning potentially dirty notifies
/// Observation through a main-actor task.
public final class OGComputed<Value>: OGNode, @unchecked Sendable {
  var value: Value?
  let equals: (Value, Value) -> Bool
  let rule: () -> Value
  /// How many times the rule ran.
  public private(set) var runCount = 0

  public init(
    label: String = "", equals: @escaping (Value, Value) -> Bool, rule: @escaping () -> Value
  ) {
    self.equals = equals
    self.rule = rule
    super.init(label: label)
  }

  public var wrappedValue: Value {
    ogObservationAccess(self)
    lock.lock()
    defer { lock.unlock() }
    recomputeIfNeeded()
    registerRead()
    return value!
  }

  override func didBecomePotentiallyDirty() {
    ogObservationWillSet(self)
  }

  override func recomputeIfNeeded() {
    lock.lock()
    defer { lock.unlock() }
    if value == nil {
      recompute()
      return
    }
    guard potentiallyDirty else { return }
    if hasPendingDependency() {
      recompute()
    } else {
      potentiallyDirty = false
    }
  }

  func recompute() {
    tearDownIncomingEdges()
    let new = OGThreadLocal.withCurrentNode(self, rule)
    runCount += 1
    potentiallyDirty = false
    if let old = value, equals(old, new) { return }
    value = new
    markOutgoingEdgesPending()
  }
}

extension OGComputed where Value: Equatable {
  public convenience init(label: String = "", rule: @escaping () -> Value) {
    self.init(label: label, equals: ==, rule: rule)
  }
}
