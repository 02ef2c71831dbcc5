import Foundation

/// The running computation, kept in `Thread.current.threadDictionary` under a `String` key as
/// swift-state-graph's `ThreadLocal` does: every tracked read pays a dictionary lookup with a
/// string key and an `as?` cast.
enum OGThreadLocal {
  static let currentNodeKey = "org.cog.objectgraph.currentNode"

  static var currentNode: OGNode? {
    Thread.current.threadDictionary[currentNodeKey] as? OGNode
  }

  /// Runs `body` with `node` as the current node, then restores the previous one (or removes
  /// the entry), as `ThreadLocalValue.withValue` does.
  static func withCurrentNode<R>(_ node: OGNode, _ body: () -> R) -> R {
    let dictionary = Thread.current.threadDictionary
    let previous = dictionary[currentNodeKey]
    dictionary[currentNodeKey] = node
    defer {
      if let previous {
        dictionary[currentNodeKey] = previous
      } else {
        dictionary.removeObject(forKey: currentNodeKey)
      }
    }
    return body()
  }
}
