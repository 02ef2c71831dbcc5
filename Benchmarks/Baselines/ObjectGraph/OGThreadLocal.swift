import Foundation

/// The thread-locals of swift-state-graph's `ThreadLocal`, kept in
/// `Thread.current.threadDictionary` under `String` keys: the running computation (the node
/// whose dependencies are being recorded) and the running tracking registration. Every read
/// of a node looks both up, each a dictionary lookup with a string key and an `as?` cast.
enum OGThreadLocal {
  static let currentNodeKey = "org.cog.objectgraph.currentNode"
  static let currentRegistrationKey = "org.cog.objectgraph.currentRegistration"

  static var currentNode: OGNode? {
    Thread.current.threadDictionary[currentNodeKey] as? OGNode
  }

  static var currentRegistration: OGTrackingRegistration? {
    Thread.current.threadDictionary[currentRegistrationKey] as? OGTrackingRegistration
  }

  /// Runs `body` with `node` as the current node, then restores the previous one.
  static func withCurrentNode<R>(_ node: OGNode, _ body: () -> R) -> R {
    withValue(node, forKey: currentNodeKey, body)
  }

  /// Runs `body` with `registration` as the current tracking registration, then restores the
  /// previous one.
  static func withCurrentRegistration<R>(
    _ registration: OGTrackingRegistration, _ body: () -> R
  ) -> R {
    withValue(registration, forKey: currentRegistrationKey, body)
  }

  /// Sets the entry, runs `body`, then restores the previous entry or removes it, as
  /// `ThreadLocalValue.withValue` does.
  private static func withValue<R>(_ value: AnyObject, forKey key: String, _ body: () -> R) -> R {
    let dictionary = Thread.current.threadDictionary
    let previous = dictionary[key]
    dictionary[key] = value
    defer {
      if let previous {
        dictionary[key] = previous
      } else {
        dictionary.removeObject(forKey: key)
      }
    }
    return body()
  }
}
