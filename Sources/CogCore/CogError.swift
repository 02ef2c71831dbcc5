/// Errors of the runtime. Each message names what went wrong in terms of the app's own states
/// (labels and keys), formatted only on the error path, and says what to do.
///
/// Recoverable ones (`cycle`, `reactionLoop`, a writer's `set` after its turn) are thrown or
/// handed to `Cogs.errorHandler`; misuse that cannot be recovered from where it happens stops
/// the program with the same message, in release builds too.
public enum CogError: Error, Equatable, CustomStringConvertible, Sendable {
  /// A read reached a state that was still computing. `states` lists the cycle in read order,
  /// starting at the state the closing read reached.
  case cycle(states: [String])
  /// A writer was used after the turn that created it ended.
  case escapedWriter(turn: String)
  /// A body's or reaction's context was used outside its body: after the body returned, or
  /// after its `Cogs` was released.
  case escapedContext
  /// A write targeted a state that is not a manual cog.
  case notWritable(state: String)
  /// Reactions kept scheduling turns, more turns in a row than `Cogs.scheduledTurnLimit`
  /// allows with no outside turn between them. `reactions` are the reactions that scheduled
  /// the last of those turns (in registration order), `states` what those turns wrote (in
  /// the order first written).
  case reactionLoop(reactions: [String], states: [String])
  /// An operation was started where it cannot run: `what` ("turn 'x' was started") and
  /// `context` ("inside turn 'y'", "while 'z' was running").
  case misplaced(what: String, context: String)
  /// `Cogs.app` was used before `Cogs.setUpApp()` ran.
  case appNotSetUp
  /// `Cogs.setUpApp()` ran a second time.
  case appSetUpTwice

  /// The error as a message that names the states, turn or call involved.
  public var description: String {
    switch self {
    case .cycle(let states):
      return "Cog: cycle between states: \((states + states.prefix(1)).joined(separator: " → "))"
    case .escapedWriter(let turn):
      return "Cog: a writer of turn '\(turn)' was used after that turn ended; "
        + "write inside the turn's body, or start a new turn"
    case .escapedContext:
      return "Cog: a body's context was used outside its body (after the body returned, or "
        + "after its Cogs was released); read through the context only while the body runs"
    case .notWritable(let state):
      return "Cog: '\(state)' is computed by the graph and cannot be written; "
        + "write the manual cogs it reads instead"
    case .reactionLoop(let reactions, let states):
      return "Cog: reaction loop: "
        + reactions.map { "'\($0)'" }.joined(separator: ", ")
        + " kept scheduling turns that wrote "
        + states.map { "'\($0)'" }.joined(separator: ", ")
        + "; the remaining scheduled turns were dropped. A reaction that writes what it reads "
        + "must stop writing once the value settles (raise Cogs.scheduledTurnLimit for long "
        + "legitimate chains)"
    case .misplaced(let what, let context):
      return "Cog: \(what) \(context); turns, reaction registrations, exports and evictions run "
        + "outside turns and bodies (a reaction schedules a later turn with c.turn)"
    case .appNotSetUp:
      return "Cog: the app context (Cogs.app) was used before Cogs.setUpApp(); call "
        + "Cogs.setUpApp() once at launch, before any view or service reads it (tests and "
        + "previews make their own isolated context with Cogs())"
    case .appSetUpTwice:
      return "Cog: Cogs.setUpApp() was called a second time; an app has one context, set up "
        + "once at launch, so a second graph would split its state (tests and previews make "
        + "isolated contexts with Cogs())"
    }
  }

  /// Misuse that cannot be recovered from where it happened: stops the program with this
  /// message. `fatalError`, not `preconditionFailure`, so that release builds print it too.
  @inline(never) @usableFromInline package func stop() -> Never { fatalError(description) }
}

/// A value the runtime may serve for a state of this type that is read inside a cycle before
/// it ever had a value.
///
/// A read inside a body cannot throw, so the read that closes a cycle must return something:
/// the state's last value, or, for a state that never had one, a placeholder: `nil`, `false`,
/// `0`, `""`, `[]` and `[:]` for types written with those literals, or `cyclePlaceholder` for
/// types that conform here. The operation's results are discarded either way and the cycle is
/// reported (thrown by `try cogs.read`). A type with neither stops the program with the cycle
/// named, since there is no value to return.
public protocol CogCyclePlaceholder {
  static var cyclePlaceholder: Self { get }
}

/// The placeholder of `T`, if it has one (see `CogCyclePlaceholder`). Cold: the cycle path.
@usableFromInline
func cyclePlaceholder<T>(_: T.Type) -> T? {
  func opened<U: CogCyclePlaceholder>(_: U.Type) -> U { U.cyclePlaceholder }
  func none<U: ExpressibleByNilLiteral>(_: U.Type) -> U { nil }
  func no<U: ExpressibleByBooleanLiteral>(_: U.Type) -> U { false }
  func zero<U: AdditiveArithmetic>(_: U.Type) -> U { .zero }
  func empty<U: ExpressibleByStringLiteral>(_: U.Type) -> U { "" }
  func emptyList<U: ExpressibleByArrayLiteral>(_: U.Type) -> U { [] }
  func emptyMap<U: ExpressibleByDictionaryLiteral>(_: U.Type) -> U { [:] }
  if let t = T.self as? any CogCyclePlaceholder.Type { return opened(t) as? T }
  if let t = T.self as? any ExpressibleByNilLiteral.Type { return none(t) as? T }
  if let t = T.self as? any ExpressibleByBooleanLiteral.Type { return no(t) as? T }
  if let t = T.self as? any AdditiveArithmetic.Type { return zero(t) as? T }
  if let t = T.self as? any ExpressibleByStringLiteral.Type { return empty(t) as? T }
  if let t = T.self as? any ExpressibleByArrayLiteral.Type { return emptyList(t) as? T }
  if let t = T.self as? any ExpressibleByDictionaryLiteral.Type { return emptyMap(t) as? T }
  return nil
}
