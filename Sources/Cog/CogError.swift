/// Misuse of the runtime that the caller can recover from. Each message names what went
/// wrong in terms of the app's own states (labels and keys), formatted only on the error path.
public enum CogError: Error, Equatable, CustomStringConvertible, Sendable {
  /// A read reached a state that was still computing. `states` lists the cycle in read order,
  /// starting at the state the closing read reached.
  case cycle(states: [String])
  /// A writer was used after the turn that created it ended.
  case escapedWriter(turn: String)
  /// A write targeted a state that is not a manual cog.
  case notWritable(state: String)

  public var description: String {
    switch self {
    case .cycle(let states):
      return "Cog: cycle between states: \((states + states.prefix(1)).joined(separator: " → "))"
    case .escapedWriter(let turn):
      return "Cog: a writer of turn '\(turn)' was used after that turn ended"
    case .notWritable(let state):
      return "Cog: '\(state)' is computed by the graph and cannot be written"
    }
  }
}
