/// A writable node (swift-state-graph's `Stored`). A read reports to Observation (a generic key
/// path per read) and records its edge; a write with an unequal value notifies Observation
/// before and after it (a main-actor task each), marks the outgoing edges pending, pushes
/// `potentiallyDirty` downstream and fires the tracking registrations; nothing is recomputed.
public final class OGStored<Value>: OGNode, @unchecked Sendable {
  var value: Value
  let equals: (Value, Value) -> Bool

  public init(label: String = "", wrappedValue: Value, equals: @escaping (Value, Value) -> Bool) {
    self.value = wrappedValue
    self.equals = equals
    super.init(label: label)
  }

  public var wrappedValue: Value {
    get {
      ogObservationAccess(self)
      lock.lock()
      defer { lock.unlock() }
      registerRead()
      return value
    }
    set {
      lock.lock()
      if equals(value, newValue) {
        lock.unlock()
        return
      }
      ogObservationWillSet(self)
      defer { ogObservationDidSet(self) }
      value = newValue
      let edges = outgoingEdges
      let registrations = trackingRegistrations
      lock.unlock()
      for edge in edges {
        edge.isPending = true
        edge.to?.markPotentiallyDirty()
      }
      for registration in registrations { registration.fire() }
    }
  }
}

extension OGStored where Value: Equatable {
  public convenience init(label: String = "", wrappedValue: Value) {
    self.init(label: label, wrappedValue: wrappedValue, equals: ==)
  }
}
