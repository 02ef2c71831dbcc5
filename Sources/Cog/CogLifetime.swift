import CogCore

/// How long an automatic cog's row lives in a context.
public enum CogLifetime: Sendable, Equatable {
  /// As long as the context. The default for automatic cogs; manual cogs always live this long.
  case context
  /// Released when its last subscriber (a cog or reaction reading it) or lease goes; its
  /// value and edges are dropped and the same value reference later creates a fresh row.
  case whileObserved
  /// Kept while unobserved, at most `limit` rows per descriptor, each for at most `retention`.
  case cache(limit: Int, retention: Duration)

  @usableFromInline var row: RowLifetime {
    switch self {
    case .context: return .context
    case .whileObserved: return .whileObserved
    case .cache: return .cache
    }
  }

  @usableFromInline var cachePolicy: (limit: Int, retention: Duration)? {
    if case .cache(let limit, let retention) = self { return (limit, retention) }
    return nil
  }
}

/// How a manual cog compares a staged value with its current one: the closure in a final class
/// that the descriptor stores unretained and calls through `withGuaranteed`, as the graph does
/// with behaviors. Calling a stored closure directly cost a retain/release of its context per
/// write, and a method on an overridable class a retain/release of the object (profiled on
/// kairo/avoidable, see impl/perf-notes.md).
@usableFromInline
final class CogEquality<Value>: @unchecked Sendable {
  @usableFromInline let equal: @Sendable (Value, Value) -> Bool
  @inlinable init(_ equal: @escaping @Sendable (Value, Value) -> Bool) { self.equal = equal }
}

/// `==` as a stored equality. A named generic function rather than a closure literal, so that
/// inlining an initializer into a main-actor context captures no metatype.
@inlinable @Sendable
func equatableEquals<V: Equatable>(_ a: V, _ b: V) -> Bool { a == b }
