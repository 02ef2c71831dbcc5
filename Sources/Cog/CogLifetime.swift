import CogCore

/// How long an automatic cog's row lives in a context.
public enum CogLifetime: Sendable, Equatable {
  /// As long as the context. The default for automatic cogs; manual cogs always live this long.
  case context
  /// Released when its last subscriber (a cog or reaction reading it) or lease goes; its
  /// value and edges are dropped and the same value reference later creates a fresh row.
  case whileObserved
  /// Kept while unobserved, at most `limit` rows per descriptor, each for at most `retention`
  /// on the context's clock. Retention is applied at the end of each turn (reads do not look
  /// at the clock); a kept row is brought up to date when read, like any other.
  case cache(limit: Int, retention: Duration)

  /// The lifetime a row was made with.
  init(_ row: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?) {
    switch row {
    case .context: self = .context
    case .whileObserved: self = .whileObserved
    case .cache:
      self = .cache(limit: cachePolicy?.limit ?? 0, retention: cachePolicy?.retention ?? .zero)
    }
  }

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
