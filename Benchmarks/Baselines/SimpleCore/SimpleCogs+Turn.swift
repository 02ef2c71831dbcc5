/// Turns and the flush that ends them (SEMANTICS §4–5).
///
/// A turn stages writes on the sources themselves; at its end each staged source whose value
/// differs (by its equality) takes it in one new revision, then every active reaction, in
/// registration order, runs once if one of its dependencies changed. Turns scheduled while
/// something runs wait in a FIFO queue and each gets its own flush once the system is idle.
extension SimpleCogs {
  /// Runs `body` as one turn, then its flush, then any turns that reactions scheduled.
  public func turn(_ name: String, _ body: (SimpleWriter) -> Void) {
    if let outer = activeTurn {
      preconditionFailure(
        "nested turn \"\(name)\" inside turn \"\(outer)\": a turn body cannot start another "
          + "turn; write through the writer it was given")
    }
    precondition(
      frames.isEmpty && reactionDepth == 0 && !isFlushing,
      "turn \"\(name)\" started while a computed or reaction runs; a reaction schedules turns "
        + "with its context's turn(_:_:), a computed must not write")
    runTurn(name, body)
    drainScheduled()
  }

  /// Queues a turn; it runs at once if the system is idle (an outside turn), otherwise after
  /// the running turn, flush or reaction finishes, after the turns queued before it.
  public func scheduleTurn(_ name: String, _ body: @escaping (SimpleWriter) -> Void) {
    precondition(
      frames.last?.isReaction ?? true,
      "turn \"\(name)\" scheduled from a computed body; computeds must not write")
    if isIdle && !draining {
      turn(name, body)
      return
    }
    scheduled.append((name, reactionRunning, body))
  }

  /// The innermost running reaction, if any.
  var reactionRunning: SimpleReaction? {
    guard let frame = frames.last, frame.isReaction else { return nil }
    return frame.reaction
  }

  /// Runs the queued turns, first in first out. Past `scheduledTurnLimit` turns in a row it
  /// drops the rest and reports a reaction loop naming the reactions that scheduled the last
  /// 64 turns (in registration order) and what those turns wrote (in the order first written).
  func drainScheduled() {
    guard isIdle, !draining, !scheduled.isEmpty else { return }
    draining = true
    defer { draining = false }
    var count = 0
    var window: [(by: SimpleReaction?, wrote: [SimpleAnyNode])] = []
    while !scheduled.isEmpty {
      if count >= scheduledTurnLimit {
        reportLoop(window)
        scheduled.removeAll()
        break
      }
      let next = scheduled.removeFirst()
      let record = count >= scheduledTurnLimit - 64
      runTurn(next.name, next.body) { wrote in
        if record { window.append((next.by, wrote)) }
      }
      count += 1
    }
  }

  func reportLoop(_ window: [(by: SimpleReaction?, wrote: [SimpleAnyNode])]) {
    var reactions: [SimpleReaction] = []
    var states: [SimpleAnyNode] = []
    for (by, wrote) in window {
      if let by, !reactions.contains(where: { $0 === by }) { reactions.append(by) }
      for n in wrote where !states.contains(where: { $0 === n }) { states.append(n) }
    }
    reactions.sort { $0.registration < $1.registration }
    failureHandler(
      .reactionLoop(
        reactions: reactions.map { $0.isActive ? $0.name : "(cancelled reaction)" },
        states: states.map(describe)))
  }

  func runTurn(
    _ name: String, _ body: (SimpleWriter) -> Void,
    wrote: ([SimpleAnyNode]) -> Void = { _ in }
  ) {
    activeTurn = name
    turnSerial += 1
    body(SimpleWriter(cogs: self, serial: turnSerial))
    activeTurn = nil
    wrote(touched)
    flush()
  }

  /// Publishes the staged sources, then runs the reactions whose dependencies changed. Each
  /// reaction's check and run is an operation of its own (a cycle is reported at its end).
  func flush() {
    isFlushing = true
    defer { isFlushing = false }
    let next = revision + 1
    var changed = false
    for node in touched {
      if node.commitStaged(at: next) { changed = true }
    }
    touched.removeAll(keepingCapacity: true)
    guard changed else { return }
    revision = next
    // By index: a reaction registered by a running reaction is appended and visited too (it
    // has just run, so it finds nothing changed).
    var index = 0
    while index < reactions.count {
      let reaction = reactions[index]
      index += 1
      guard reaction.isActive else { continue }
      operation {
        if reaction.mustRun || firstChanged(reaction.deps) == .changed { reaction.run() }
      }
    }
    compactReactions()
  }

  func compactReactions() {
    guard cancelledReactions > 0 else { return }
    reactions.removeAll { !$0.isActive }
    cancelledReactions = 0
  }

  /// Registers a reaction and runs it once (collecting its dependencies).
  @discardableResult
  public func react(_ name: String, _ body: @escaping (SimpleReactionContext) -> Void)
    -> SimpleReaction
  {
    precondition(
      frames.allSatisfy(\.isReaction),
      "reaction \"\(name)\" registered from a computed body; computeds must not have effects")
    let reaction = SimpleReaction(cogs: self, name: name, body: body)
    registrations += 1
    reaction.registration = registrations
    reactions.append(reaction)
    operation { reaction.run() }
    drainScheduled()
    return reaction
  }

  func didCancel(_ reaction: SimpleReaction) {
    cancelledReactions += 1
    // Compact only outside a flush (the flush iterates by index) and only when the cancelled
    // entries are the majority, so cancelling n reactions costs O(n) in total.
    if !isFlushing && cancelledReactions * 2 > reactions.count { compactReactions() }
  }
}
