import Observation

/// The dummy `Observable` the nodes report to Observation under (swift-state-graph's
/// `NodeObservationRoot<Owner>`). Its key path is generic over the node type, so
/// `\OGObservationRoot<OGComputed<Value>>.wrappedValue` cannot be cached: the runtime
/// instantiates it (`swift_getKeyPath`, resolving the mangled generic type and allocating a
/// key path object) on every access and every notification.
public struct OGObservationRoot<Owner>: Observable {
  public var wrappedValue: Owner?
  init() { wrappedValue = nil }
}

// The library calls these from its own, unspecialized generic code; the workbench's adapter
// would otherwise let the optimizer specialize them for `Int` and turn the key path into a
// constant the runtime builds once. `specialize.generic.never` keeps them generic, so the key
// path is built per call as it is in swift-state-graph.

/// `observationRegistrar.access(root, keyPath:)`, on every read of a node.
@inline(never) @_semantics("optimize.sil.specialize.generic.never")
func ogObservationAccess<Owner: OGNode>(_ node: Owner) {
  node.observationRegistrar.access(
    OGObservationRoot<Owner>(), keyPath: \OGObservationRoot<Owner>.wrappedValue)
}

/// `withMainActor { observationRegistrar.willSet(root, keyPath:) }`: before a stored node's
/// value changes, and when a computed node turns potentially dirty.
@inline(never) @_semantics("optimize.sil.specialize.generic.never")
func ogObservationWillSet<Owner: OGNode>(_ node: Owner) {
  ogWithMainActor {
    node.observationRegistrar.willSet(
      OGObservationRoot<Owner>(), keyPath: \OGObservationRoot<Owner>.wrappedValue)
  }
}

/// `withMainActor { observationRegistrar.didSet(root, keyPath:) }`: after a stored node's
/// value changed (deferred to the end of the write).
@inline(never) @_semantics("optimize.sil.specialize.generic.never")
func ogObservationDidSet<Owner: OGNode>(_ node: Owner) {
  ogWithMainActor {
    node.observationRegistrar.didSet(
      OGObservationRoot<Owner>(), keyPath: \OGObservationRoot<Owner>.wrappedValue)
  }
}
