import CogCore
import CogEdgePool

/// The context that owns every state of an app (or of one test or preview): one table of rows
/// over which turns, reads and reactions run. Confined to the main actor: no locks, no
/// atomics in the graph.
///
/// ```swift
/// let cogs = Cogs()
/// cogs.turn("increment") { w in w[countCog] += 1 }
/// print(cogs[doubledCog])
/// ```
@MainActor
public final class Cogs {
  /// The state table. Public for the workbench and tests; apps use the API below.
  public let graph: CogGraph
  @exclusivity(unchecked) @usableFromInline var activeTurn: UInt32 = 0
  @exclusivity(unchecked) @usableFromInline var lastTurn: UInt32 = 0
  /// The name of the turn whose body is running (meaningful while `activeTurn != 0`).
  @exclusivity(unchecked) var activeTurnName: StaticString = ""
  @exclusivity(unchecked) var scheduled: [ScheduledTurn] = []
  @exclusivity(unchecked) @usableFromInline var draining = false
  @exclusivity(unchecked) var isFlushing = false
  /// The index of the scheduled turn that runs in the current drain (see `drainScheduled`).
  @exclusivity(unchecked) var drainIndex = 0
  /// The last turns of a drain that nears `scheduledTurnLimit`: who scheduled each and what
  /// it wrote, to name a reaction loop.
  @exclusivity(unchecked) var loopWindow: [(by: SlotRef, wrote: [Slot])] = []

  /// Receives recoverable errors that no caller can be handed: a cycle met by a read through
  /// the subscript or while a flush runs reactions, and reaction loops. The default prints the
  /// error to standard error.
  public var errorHandler: (CogError) -> Void = { error in
    var stderr = StandardError()
    print(error, to: &stderr)
  }

  /// How many turns scheduled by reactions may run in a row, with no outside turn between
  /// them, before the runtime calls it a reaction loop: it drops the remaining scheduled turns
  /// and reports `CogError.reactionLoop` to `errorHandler`. A reaction that writes what it
  /// reads would otherwise run forever.
  public var scheduledTurnLimit = 10_000

  /// - Parameter rows: rows to reserve up front, so that building a graph of known size does
  ///   not grow the columns mid-benchmark.
  public init(reservingRows rows: Int = 64) {
    graph = CogGraph(reservingRows: rows)
  }

  /// A context whose `.cache` retention runs on `clock` (tests pass a manual clock).
  public init<C: Clock>(reservingRows rows: Int = 64, clock: C) where C.Duration == Duration {
    let origin = clock.now
    graph = CogGraph(reservingRows: rows, now: { origin.duration(to: clock.now) })
  }

  /// Bumped by every value change: compare two readings to learn whether anything changed.
  public var revision: UInt32 { graph.revision }

  /// Whether any state changed since `revision` was read.
  public func hasChanged(since revision: UInt32) -> Bool { graph.revision != revision }

  // MARK: Reads

  /// The current value of `cog`, computing what it needs. Inside a running body or reaction
  /// the read is tracked, as `c[cog]` is. A cycle met on the way goes to `errorHandler`, and
  /// the read serves `cog`'s last value (its placeholder if it never had one).
  @inlinable public subscript<T>(cog: Cog<T>) -> T {
    // Inside a body that read `cog` at this position last run: no call, no frame to save
    // registers in (the general path below is out of line), and no idle check (a body runs).
    let g = graph
    let d = g.readByCursor(descriptor: cog.id)
    if _fastPath(!d.isNone) {
      return g.valuePointer(cog.typeIndex, g.valueIndex[d], as: T.self).pointee.unsafelyUnwrapped
    }
    return read(general: cog)
  }

  /// A read the cursor cannot confirm: resolve the row, refresh it, track it; after an
  /// outermost read, hand unobserved rows to the collector and report a cycle.
  @inlinable @inline(never)
  func read<T>(general cog: Cog<T>) -> T {
    let (v, s) = graph.valueAndSlot(of: cog, tracked: true)
    if graph.isIdle {
      endRead(s)
      if _slowPath(graph.cycle != nil) { reportCycle() }
    }
    return v
  }

  /// The current value of the keyed state `ref`.
  @inlinable public subscript<T>(ref: CogRef<T>) -> T {
    let (v, s) = graph.value(of: ref, tracked: true)
    if graph.isIdle {
      endRead(s)
      if _slowPath(graph.cycle != nil) { reportCycle() }
    }
    return v
  }

  /// Like the subscript, but a cycle met on the way is thrown instead of reported (whether or
  /// not the states in it ever had a value). Inside a body, the read is tracked and a cycle is
  /// reported by the outermost operation, as for the subscript.
  @inlinable public func read<T>(_ cog: Cog<T>) throws(CogError) -> T {
    if !graph.isIdle { return graph.value(of: cog, tracked: true) }
    let s = cog.slot(in: graph)
    let ok = graph.readTracked(s)
    endRead(s)
    if let error = takeCycleError() { throw error }
    _ = ok
    return graph.valuePointer(cog.typeIndex, graph.valueIndex[s], as: T.self).pointee
      .unsafelyUnwrapped
  }

  /// Like the subscript, but a cycle met on the way is thrown instead of reported.
  @inlinable public func read<T>(_ ref: CogRef<T>) throws(CogError) -> T {
    if !graph.isIdle { return graph.value(of: ref, tracked: true).0 }
    let s = ref.box.slot(for: ref.key, in: graph)
    _ = graph.readTracked(s)
    endRead(s)
    if let error = takeCycleError() { throw error }
    return graph.valuePointer(ref.box.typeIndex, graph.valueIndex[s], as: T.self).pointee
      .unsafelyUnwrapped
  }

  /// After an outermost read: a row with a lifetime that nothing observes is handed to the
  /// collector, and deferred work runs.
  @inlinable @inline(__always)
  func endRead(_ s: Slot) {
    if !s.isNone { graph.noteUnobservedRead(s) }
    graph.collect()
  }

  @usableFromInline func takeCycleError() -> CogError? {
    guard let slots = graph.takeCycle() else { return nil }
    return .cycle(states: graph.describe(slots))
  }

  @inline(never) @usableFromInline func reportCycle() {
    if let error = takeCycleError() { errorHandler(error) }
  }

  func report(cycle path: [Slot]) {
    errorHandler(.cycle(states: graph.describe(path)))
  }

  /// Misuse that cannot be recovered from where it happened (an escaped writer's subscript, a
  /// turn inside a turn): stops the program with the error's message. `fatalError`, not
  /// `preconditionFailure`, so that release builds print the message too.
  @inline(never) @usableFromInline func misuse(_ error: CogError) -> Never {
    fatalError(error.description)
  }

  /// Where an operation named `what` was started, if it cannot run there: inside a turn's
  /// body, inside a running body, or while a flush runs (an `errorHandler` call).
  func misplacement(of what: @autoclosure () -> String) -> CogError? {
    if activeTurn != 0 {
      return .misplaced(what: what(), context: "inside turn '\(activeTurnName)'")
    }
    if !graph.isIdle {
      let running = graph.activeSub.isNone ? "a refresh" : "'\(graph.describe(graph.activeSub))'"
      return .misplaced(what: what(), context: "while \(running) was running")
    }
    if isFlushing { return .misplaced(what: what(), context: "while a flush was running") }
    return nil
  }

  // MARK: Turns

  /// Runs one turn: `body` stages writes through the writer; then the flush publishes the
  /// sources that really changed, settles the reactions that depend on them (in registration
  /// order), and runs the turns those reactions scheduled, first in first out.
  ///
  /// A turn cannot start inside another turn, a body or a reaction: a reaction schedules its
  /// writes with `c.turn`.
  public func turn(_ name: StaticString, _ body: (CogWriter) -> Void) {
    if let error = misplacement(of: "turn '\(name)' was started") { misuse(error) }
    runTurn(name, body)
    drainScheduled()
  }

  @usableFromInline
  func runTurn(_ name: StaticString, _ body: (CogWriter) -> Void, scheduledBy: SlotRef? = nil) {
    lastTurn &+= 1
    activeTurn = lastTurn
    activeTurnName = name
    body(CogWriter(cogs: self, turn: lastTurn))
    activeTurn = 0
    if let by = scheduledBy, drainIndex >= scheduledTurnLimit - Cogs.loopWindowSize {
      graph.touched.withElements { loopWindow.append((by, Array($0))) }
    }
    isFlushing = true
    #if DEBUG
      graph.touched.withElements { buffer in
        graph.history.record(
          turn: lastTurn, op: name, touched: UnsafeBufferPointer(buffer),
          generation: { graph.generation[$0] })
      }
    #endif
    let changed = graph.publish()
    graph.runQueuedReactions(retryBlocked: changed) { report(cycle: $0) }
    isFlushing = false
    graph.collect()
    graph.expireCache()
    graph.checkInvariants()
    if _slowPath(graph.cycle != nil) { reportCycle() }
  }

  /// How many of a drain's last turns name a reaction loop.
  static let loopWindowSize = 64

  /// Runs the turns reactions scheduled, in order; turns they schedule in turn go last. Past
  /// `scheduledTurnLimit` turns in one drain it stops: see `CogError.reactionLoop`.
  func drainScheduled() {
    if draining || scheduled.isEmpty { return }
    draining = true
    drainIndex = 0
    while drainIndex < scheduled.count {
      if drainIndex >= scheduledTurnLimit {
        reportLoop()
        break
      }
      let t = scheduled[drainIndex]
      runTurn(t.name, t.body, scheduledBy: t.by)
      drainIndex += 1
    }
    scheduled.removeAll(keepingCapacity: true)
    loopWindow.removeAll()
    drainIndex = 0
    draining = false
  }

  @inline(never) func reportLoop() {
    var reactions: [SlotRef] = []
    var states: [Slot] = []
    for (by, wrote) in loopWindow {
      if !reactions.contains(by) { reactions.append(by) }
      for s in wrote where !states.contains(s) { states.append(s) }
    }
    reactions.sort { graph.order[$0.slot] < graph.order[$1.slot] }
    let names = reactions.map { r in
      graph.generation[r.slot] == r.generation && !graph.flags[r.slot].contains(.released)
        ? graph.describe(r.slot) : "(cancelled reaction)"
    }
    errorHandler(.reactionLoop(reactions: names, states: states.map { graph.describe($0) }))
  }

  func schedule(_ name: StaticString, by: SlotRef, _ body: @escaping (CogWriter) -> Void) {
    scheduled.append(ScheduledTurn(name: name, by: by, body: body))
  }

  // MARK: Reactions

  /// Registers a reaction: `body` runs now, then once after every turn in which a state it
  /// read changed. Reactions run in registration order. The reaction lives until `cancel()`
  /// or the end of the context.
  ///
  /// A reaction whose run meets a cycle has the cycle reported and is run again after every
  /// later turn that changes something, until it runs without one.
  @discardableResult
  public func react(
    _ name: StaticString = "reaction", _ body: @escaping @MainActor (CogReactionContext) -> Void
  ) -> CogReaction {
    if let error = misplacement(of: "reaction '\(name)' was registered") { misuse(error) }
    let behavior = RowBehavior<SharedEdgePool> { [unowned(unsafe) self] _, slot in
      body(CogReactionContext(cogs: self, slot: slot))
      return false
    }
    let id = Registry.makeDescriptorID()
    graph.setOwner(ReactionOwner(name: name, behavior: behavior), for: id)
    let s = graph.allocateRow(
      kind: .reaction, descriptor: id, typeIndex: -1, valueIndex: -1, behavior: behavior,
      lifetime: .context, key: nil)
    let handle = CogReaction(cogs: self, ref: graph.ref(s))
    graph.registerReaction(s) { report(cycle: $0) }
    graph.collect()
    drainScheduled()
    return handle
  }

  // MARK: Leases

  /// Keeps a `.whileObserved` or `.cache` state alive (and its row) until the lease ends.
  public func lease<T>(_ cog: Cog<T>) -> CogLease {
    let s = cog.slot(in: graph)
    graph.addLease(s)
    graph.collect()
    return CogLease(cogs: self, ref: graph.ref(s))
  }

  /// Keeps the keyed state `ref` alive until the lease ends.
  public func lease<T>(_ ref: CogRef<T>) -> CogLease {
    let s = ref.box.lookup(ref.key, in: graph)
    graph.addLease(s)
    graph.collect()
    return CogLease(cogs: self, ref: graph.ref(s))
  }

  // MARK: Inspection

  /// How many rows are live in this context.
  public var liveRowCount: Int { graph.liveRows }

  /// Whether `ref`'s keyed state currently has a row in this context.
  public func hasRow<T>(_ ref: CogRef<T>) -> Bool { !ref.box.existing(ref.key, in: graph).isNone }

  /// Whether `cog` currently has a row in this context.
  public func hasRow<T>(_ cog: Cog<T>) -> Bool { !cog.existingSlot(in: graph).isNone }

  #if DEBUG
    /// The debug history, oldest turn first: turn id, op name and the labels of up to four
    /// touched states (labels resolved now, not when the turn ran; a state whose row has been
    /// released since shows as "(released)").
    public var history: [(turn: UInt32, op: String, touched: [String])] {
      graph.history.ordered.map { r in
        (
          r.turn, "\(graph.history.opNames[Int(r.op)])",
          r.touchedRefs.map { ref in
            graph.generation[ref.slot] != ref.generation
              || graph.flags[ref.slot].contains(.released)
              ? "(released)" : graph.describe(ref.slot)
          }
        )
      }
    }
  #endif
}

/// A turn a reaction scheduled: its name and body, and the reaction (to name a loop).
struct ScheduledTurn {
  var name: StaticString
  var by: SlotRef
  var body: (CogWriter) -> Void
}

/// A reaction's per-context record: its name for errors and history, and its behavior
/// (which holds the body). The graph's owner map is the only strong reference, so releasing
/// the reaction's row (cancel) frees both.
final class ReactionOwner: RowOwner, @unchecked Sendable {
  let name: StaticString
  let behavior: RowBehavior<SharedEdgePool>
  var label: String { "\(name)" }
  var cachePolicy: (limit: Int, retention: Duration)? { nil }
  init(name: StaticString, behavior: RowBehavior<SharedEdgePool>) {
    self.name = name
    self.behavior = behavior
  }
}

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    FileHandleShim.writeStandardError(string)
  }
}

extension Cogs {
  /// Releases the row of keyed state `ref` now if nothing observes it (no subscriber, no
  /// lease), whatever its lifetime: for apps that know a key is gone. Returns whether a row
  /// was released. The same reference can create a fresh row later.
  @discardableResult
  public func evict<T>(_ ref: CogRef<T>) -> Bool {
    if let error = misplacement(of: "evict was called") { misuse(error) }
    let s = ref.box.existing(ref.key, in: graph)
    defer { graph.collect() }
    if s.isNone || graph.edges.hasSubscribers(s) || graph.leases[s] > 0 { return false }
    graph.release(s)
    return true
  }
}
