import CogCore

/// One turn of a context's history (`Cogs.history`).
public struct CogTurnRecord: Sendable, Equatable, CustomStringConvertible {
  /// The turn's id: turns are numbered from 1 in each context.
  public let turn: UInt32
  /// The name the turn was started with, or the label of the async cog whose result it
  /// published.
  public let op: String
  /// The labels of the first four states the turn wrote, resolved when the history is read
  /// (a state whose row has been released since shows as "(released)").
  public let touched: [String]

  /// "#3 add [items]".
  public var description: String { "#\(turn) \(op) [\(touched.joined(separator: ", "))]" }
}

extension Cogs {
  /// Whether this context records its turns in `history`. On by default in debug builds of
  /// Cog, off in release builds, where switching it on costs one record per turn.
  public var recordsHistory: Bool {
    get { graph.recordsHistory }
    set { graph.recordsHistory = newValue }
  }

  /// The last 256 turns recorded (see `recordsHistory`), oldest first: each turn's id, name
  /// and the states it wrote. Empty while nothing was recorded.
  public var history: [CogTurnRecord] {
    graph.historyEntries.map { CogTurnRecord(turn: $0.turn, op: $0.op, touched: $0.touched) }
  }

  /// Forgets the recorded turns.
  public func clearHistory() { graph.clearHistory() }
}
