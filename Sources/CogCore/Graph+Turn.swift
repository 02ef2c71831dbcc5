import CCogStack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns (seed 000 §8): a turn's body stages writes; its flush publishes the sources that
/// changed (steps 1–2), settles the watched roots and tells their boundaries and exports
/// (steps 3–5, `Graph+Boundaries.swift`), runs the reactions that depend on them in
/// registration order (step 6), and the turns those reactions scheduled run afterwards, first
/// in first out, each with its own flush.
extension Graph {
  /// Runs one turn from outside (not from a turn, a body or a flush): `body` gets the turn's
  /// id for its writer. Small and inlined; the turn itself (`runTurn`) and the drain are
  /// specialized but never inlined, so that every binding's write path inlines the same way
  /// (inlining the whole turn let the optimizer inline one binding's write closure and not
  /// another's, so bindings of one core measured apart).
  @inlinable package func turn(_ name: StaticString, _ body: (Graph<Edges>, UInt32) -> Void) {
    if _slowPath(!canStartOperation) { misplaced("turn '\(name)' was started") }
    runTurn(name, body)
    drainScheduled()
  }

  /// A body or reaction context's graph `u`, checked before anything of it is read: its
  /// bodies must be running (`cog_body_graph`), so a context used after its body, or after
  /// its `Cogs` went, stops with `CogError.escapedContext` instead of reading freed memory.
  // Safety: compares the address only; nothing of the graph is read before the check passes.
  @inlinable @inline(__always)
  package nonisolated static func inBody(_ u: Unmanaged<Graph>) -> Unmanaged<Graph> {
    if _slowPath(cog_get_body_graph() != UnsafeMutableRawPointer(u.toOpaque())) {
      CogError.escapedContext.stop()
    }
    return u
  }

  /// Whether `u` is the graph whose turn body is running (`cog_turn_graph`): a writer's first
  /// check, made before anything of the graph is read (then `isActiveTurn`).
  // Safety: compares the address only; nothing of the graph is read before the check passes.
  @inlinable @inline(__always)
  package nonisolated static func isTurnGraph(_ u: Unmanaged<Graph>) -> Bool {
    cog_get_turn_graph() == UnsafeMutableRawPointer(u.toOpaque())
  }

  /// Stops the program: a writer of `turn` was used after its turn (cold, out of line, so
  /// that a writer's subscript stays small enough to inline).
  @inline(never) @usableFromInline
  package nonisolated static func escapedWriter(turn: UInt32) -> Never {
    CogError.escapedWriter(turn: "#\(turn)").stop()
  }

  /// Whether `turn` is the turn whose body is running (a writer's check).
  @inlinable @inline(__always)
  package func isActiveTurn(_ turn: UInt32) -> Bool { turnsPointer.pointee.activeTurn == turn }

  @inlinable @inline(never) package func runTurn(
    _ name: StaticString, _ body: (Graph<Edges>, UInt32) -> Void, scheduledBy: SlotRef? = nil
  ) {
    turns.lastTurn &+= 1
    let id = turns.lastTurn
    turns.activeTurn = id
    turns.activeTurnName = name
    let outerTurnGraph = cog_get_turn_graph()
    // Lifetime: `self` runs the turn; the slot is restored after `body` and cleared in deinit.
    cog_set_turn_graph(Unmanaged.passUnretained(self).toOpaque())
    body(self, id)
    cog_set_turn_graph(outerTurnGraph)
    turns.activeTurn = 0
    if let by = scheduledBy,
      turns.drainIndex >= turns.scheduledTurnLimit - TurnState<Edges>.loopWindow
    {
      let wrote = work.touched.withElements { Array($0) }
      turns.loopWindow.append((by, wrote))
    }
    turns.isFlushing = true
    #if COG_NO_DIAGNOSTICS
      flush(turn: id, name: name, hooked: false)
    #else
      if _slowPath(turns.turnHooks != 0) {
        flushHooked(turn: id, name: name)
      } else {
        flush(turn: id, name: name, hooked: false)
      }
    #endif
  }

  /// The flush of turn `id` and the housekeeping after it. `hooked` (a constant at each of
  /// the two callers): the context records its turns or explains them, and the diagnostics'
  /// cold calls run between the steps; the copy with `hooked` false has none of them.
  @inlinable @inline(__always)
  package func flush(turn id: UInt32, name: StaticString, hooked: Bool) {
    let explained = hooked && turns.explainsTurns
    if hooked && turns.recordsHistory { recordHistory(turn: id, name: name) }
    if explained { beginExplanation(turn: id, name: name) }
    let changed = publish()
    if explained { explainMarks() }
    let roots = explained ? explainRootsBefore() : []
    settleRootsIfWatched(changed: changed)
    if explained { explainRootsAfter(roots) }
    runQueuedReactions(retryBlocked: changed)
    turns.isFlushing = false
    collect()
    expireCache()
    sweepIfDue()
    checkInvariants()
    if _slowPath(isFailing) { reportCycle() }
    if explained { endExplanation() }
  }

  /// `flush` for a context that records or explains its turns (cold).
  @inlinable @inline(never)
  func flushHooked(turn id: UInt32, name: StaticString) {
    flush(turn: id, name: name, hooked: true)
  }

  /// Queues a turn scheduled by reaction `by`; it runs after the current flush.
  @inlinable package func schedule(
    _ name: StaticString, by: SlotRef, _ body: @escaping (Graph<Edges>, UInt32) -> Void
  ) {
    turns.scheduled.append(ScheduledTurn(name: name, by: by, body: body))
  }

  /// Runs the turns reactions scheduled, in order; turns they schedule in turn go last. Past
  /// `scheduledTurnLimit` turns in one drain it stops: see `CogError.reactionLoop`.
  @inlinable @inline(__always) package func drainScheduled() {
    if !turns.scheduled.isEmpty && !turns.draining { drainScheduledTurns() }
  }

  /// The drain itself. Out of line behind `drainScheduled`'s test: as one function, its frame
  /// (six saved registers) was set up before the test, 23 instructions a turn and a
  /// registration that scheduled nothing.
  @inlinable @inline(never) package func drainScheduledTurns() {
    turns.draining = true
    turns.drainIndex = 0
    while turns.drainIndex < turns.scheduled.count {
      if turns.drainIndex >= turns.scheduledTurnLimit {
        reportLoop()
        break
      }
      let t = turns.scheduled[turns.drainIndex]
      runTurn(t.name, t.body, scheduledBy: t.by)
      turns.drainIndex += 1
    }
    turns.scheduled.removeAll(keepingCapacity: true)
    turns.loopWindow.removeAll()
    turns.drainIndex = 0
    turns.draining = false
  }

  @inlinable @inline(never) package func reportLoop() {
    var reactions: [SlotRef] = []
    var states: [Slot] = []
    for (by, wrote) in turns.loopWindow {
      if !reactions.contains(by) { reactions.append(by) }
      for s in wrote where !states.contains(s) { states.append(s) }
    }
    reactions.sort { rows.order[$0.slot] < rows.order[$1.slot] }
    let names = reactions.map { r in
      rows.generation[r.slot] == r.generation && !rows.flags[r.slot].contains(.released)
        ? describe(r.slot) : "(cancelled reaction)"
    }
    report(.reactionLoop(reactions: names, states: states.map { describe($0) }))
  }

  // MARK: Errors

  /// Hands `error` to the context's error handler.
  @inlinable package func report(_ error: CogError) { turns.errorHandler(error) }

  /// Takes the current operation's cycle as an error, leaving the graph ready for the next.
  @inlinable package func takeCycleError() -> CogError? {
    guard let slots = takeCycle() else { return nil }
    return .cycle(states: describe(slots))
  }

  /// Reports the current operation's cycle, if any, to the error handler.
  @inlinable @inline(never) package func reportCycle() {
    guard let slots = takeCycle() else { return }
    let states = describe(slots)
    #if !COG_NO_DIAGNOSTICS
      if _slowPath(turns.explainsTurns) { explainCycle(states) }
    #endif
    report(.cycle(states: states))
  }

  /// Misuse that cannot be recovered from where it happened (an escaped writer's subscript, a
  /// turn inside a turn): stops the program with the error's message. `fatalError`, not
  /// `preconditionFailure`, so that release builds print the message too.
  @inlinable @inline(never) package nonisolated func misuse(_ error: CogError) -> Never {
    error.stop()
  }

  /// Whether an operation that must run outside turns and bodies (a turn, a reaction's
  /// registration, an eviction) may start now: not inside a turn's body, a running body, or a
  /// flush (an `errorHandler` call). Inline and cheap; the message is built only on misuse.
  @inlinable @inline(__always)
  package var canStartOperation: Bool {
    turnsPointer.pointee.activeTurn == 0 && isIdle && !turnsPointer.pointee.isFlushing
  }

  /// Stops the program: `what` ("turn 'x' was started") cannot run where it was called.
  @inline(never) @usableFromInline
  package func misplaced(_ what: String) -> Never {
    let context: String
    if turns.activeTurn != 0 {
      context = "inside turn '\(turns.activeTurnName)'"
    } else if !isIdle {
      context = "while \(activeSub.isNone ? "a refresh" : "'\(describe(activeSub))'") was running"
    } else {
      context = "while a flush was running"
    }
    misuse(.misplaced(what: what, context: context))
  }
}

/// A turn scheduled by a reaction: its name and body, and the reaction (to name a loop).
@usableFromInline
package struct ScheduledTurn<Edges: EdgeStore> {
  @usableFromInline var name: StaticString
  @usableFromInline var by: SlotRef
  @usableFromInline var body: (Graph<Edges>, UInt32) -> Void
  @usableFromInline init(
    name: StaticString, by: SlotRef, body: @escaping (Graph<Edges>, UInt32) -> Void
  ) {
    self.name = name
    self.by = by
    self.body = body
  }
}

/// The turn machinery's state.
@usableFromInline
package struct TurnState<Edges: EdgeStore> {
  /// The id of the turn whose body is running (0: none).
  @usableFromInline package var activeTurn: UInt32 = 0
  @usableFromInline package var lastTurn: UInt32 = 0
  /// The name of the turn whose body is running (meaningful while `activeTurn != 0`).
  @usableFromInline package var activeTurnName: StaticString = ""
  @usableFromInline package var scheduled: [ScheduledTurn<Edges>] = []
  @usableFromInline package var draining = false
  @usableFromInline package var isFlushing = false
  /// What a flush records for diagnostics (`Graph+Diagnostics.swift`), one bit each: the
  /// turn history (`historyHook`, on by default in debug builds) and explanations
  /// (`explainHook`). One byte, so that a flush tests one load for both; in what was padding
  /// after `isFlushing`: the struct keeps its size.
  #if DEBUG
    @usableFromInline package var turnHooks: UInt8 = TurnState.historyHook
  #else
    @usableFromInline package var turnHooks: UInt8 = 0
  #endif
  @inlinable package static var historyHook: UInt8 { 1 }
  @inlinable package static var explainHook: UInt8 { 2 }
  /// Whether turns are recorded in the history.
  @inlinable package var recordsHistory: Bool {
    get { turnHooks & Self.historyHook != 0 }
    set { turnHooks = newValue ? turnHooks | Self.historyHook : turnHooks & ~Self.historyHook }
  }
  /// Whether turns are explained.
  @inlinable package var explainsTurns: Bool {
    get { turnHooks & Self.explainHook != 0 }
    set { turnHooks = newValue ? turnHooks | Self.explainHook : turnHooks & ~Self.explainHook }
  }
  /// The index of the scheduled turn that runs in the current drain.
  @usableFromInline package var drainIndex = 0
  /// The last turns of a drain that nears `scheduledTurnLimit`: who scheduled each and what
  /// it wrote, to name a reaction loop.
  @usableFromInline package var loopWindow: [(by: SlotRef, wrote: [Slot])] = []
  /// How many turns scheduled by reactions may run in a row with no outside turn between
  /// them (see `CogError.reactionLoop`).
  @usableFromInline package var scheduledTurnLimit = 10_000
  /// Receives recoverable errors no caller can be handed. The default prints to stderr.
  @usableFromInline package var errorHandler: (CogError) -> Void = { error in
    let text = "\(error)\n"
    var s = text
    s.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
  }

  /// The async machinery of each async row, by slot (see `Graph+Async.swift`): their outcomes
  /// are turns. Kept here rather than in `ContextMaps`, whose allocation it would have moved to
  /// the next size class (96 → 112 bytes: 16 more graph bytes in every case); this one stays
  /// within its class (88 → 96).
  @usableFromInline package var asyncRows: [Int32: any AsyncRowControl] = [:]

  /// How many of a drain's last turns name a reaction loop.
  @inlinable static var loopWindow: Int { 64 }

  @usableFromInline package init() {}
}
