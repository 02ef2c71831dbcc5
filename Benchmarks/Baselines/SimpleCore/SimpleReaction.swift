/// A registered reaction: runs once at registration, then once after each turn in which one of
/// its dependencies changed, until cancelled.
@MainActor
public final class SimpleReaction {
  public let name: String
  /// How many times the body ran.
  public internal(set) var runCount = 0
  /// False once cancelled.
  public internal(set) var isActive = true

  unowned let cogs: SimpleCogs
  let body: (SimpleReactionContext) -> Void
  var deps: [Dependency] = []
  /// Its place in registration order.
  var registration = 0
  /// Set when its last run met a cycle: it runs again at the next flush that changes anything.
  var mustRun = false

  init(cogs: SimpleCogs, name: String, body: @escaping (SimpleReactionContext) -> Void) {
    self.cogs = cogs
    self.name = name
    self.body = body
  }

  /// The nodes read (tracked) by the last run, in read order.
  public var dependencies: [SimpleAnyNode] { deps.map(\.node) }

  /// Stops the reaction: it never runs again and drops its dependencies.
  public func cancel() {
    guard isActive else { return }
    isActive = false
    deps = []
    cogs.didCancel(self)
  }

  func run() {
    cogs.frames.append(Frame(owner: ObjectIdentifier(self), isReaction: true, reaction: self))
    cogs.reactionDepth += 1
    body(SimpleReactionContext(reaction: self))
    cogs.reactionDepth -= 1
    let frame = cogs.frames.removeLast()
    precondition(frame.owner == ObjectIdentifier(self), "tracking frames out of order")
    runCount += 1
    mustRun = cogs.cycle != nil
    // A reaction that cancelled itself while running stays without dependencies.
    if isActive { deps = frame.deps }
  }
}

/// What a reaction's body receives: tracked reads, untracked reads, and turn scheduling.
@MainActor
public struct SimpleReactionContext {
  let reaction: SimpleReaction

  /// Reads `node` and records it as a dependency of this reaction.
  public subscript<U>(_ node: SimpleNode<U>) -> U {
    reaction.cogs.readTracked(node, by: ObjectIdentifier(reaction))
  }

  /// Reads `node` without recording a dependency.
  public func peek<U>(_ node: SimpleNode<U>) -> U {
    reaction.cogs.serve(node, track: false)
  }

  /// Schedules a turn that runs after the current flush (or registration run) finishes, after
  /// the turns scheduled before it, with its own flush.
  public func turn(_ name: String, _ body: @escaping (SimpleWriter) -> Void) {
    reaction.cogs.scheduleTurn(name, body)
  }
}
