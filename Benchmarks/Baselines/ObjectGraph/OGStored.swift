/// A writable node (swift-state-graph's `Stored`). A write with an unequal value marks the
/// outgoing edges pending and pushes `potentiallyDirty` downstream; nothing is recomputed.
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
      value = newValue
      let edges = outgoingEdges
      lock.unlock()
      for edge in edges {
        edge.isPending = true
        edge.to?.markPotentiallyDirty()
      }
    }
  }
}

extension OGStored where Value: Equatable {
  public convenience init(label: String = "", wrappedValue: Value) {
    self.init(label: label, wrappedValue: wrappedValue, equals: ==)
  }
}
