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

  /// Queues a turn; it runs at once if the system is idle, otherwise after the running turn,
  /// flush or reaction finishes, after the turns queued before it.
  public func scheduleTurn(_ name: String, _ body: @escaping (SimpleWriter) -> Void) {
    precondition(
      frames.last?.isReaction ?? true,
      "turn \"\(name)\" scheduled from a computed body; computeds must not write")
    scheduled.append((name, body))
    drainScheduled()
  }

  func drainScheduled() {
    while isIdle && !scheduled.isEmpty {
      let next = scheduled.removeFirst()
      runTurn(next.name, next.body)
    }
  }

  func runTurn(_ name: String, _ body: (SimpleWriter) -> Void) {
    activeTurn = name
    turnSerial += 1
    body(SimpleWriter(cogs: self, serial: turnSerial))
    activeTurn = nil
    flush()
  }

  /// Publishes the staged sources, then runs the reactions whose dependencies changed.
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
      if reaction.isActive && firstChanged(reaction.deps) { reaction.run() }
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
    reactions.append(reaction)
    reaction.run()
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
