/// One dependency: `from` was read by `to`. A heap object with weak references to both ends,
/// as in swift-state-graph; `isPending` means "`from` changed since `to` last ran".
public final class OGEdge: @unchecked Sendable {
  public weak var from: OGNode?
  public weak var to: OGNode?
  let lock = OGAllocatedLock()
  var _isPending = false

  init(from: OGNode, to: OGNode) {
    self.from = from
    self.to = to
  }

  public var isPending: Bool {
    get { lock.withLock { _isPending } }
    set { lock.withLock { _isPending = newValue } }
  }
}
