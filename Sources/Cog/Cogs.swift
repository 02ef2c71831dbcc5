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
  @exclusivity(unchecked) var scheduled: [(name: StaticString, body: (CogWriter) -> Void)] = []
  @exclusivity(unchecked) @usableFromInline var draining = false
  /// Reaction bodies by slot; a reused slot replaces its old entry.
  var reactionBodies: [Int32: RowBehavior<SharedEdgePool>] = [:]

  /// Receives recoverable errors that no caller can be handed (a cycle met while a flush runs
  /// reactions). The default prints the error to standard error.
  public var errorHandler: (CogError) -> Void = { error in
    var stderr = StandardError()
    print(error, to: &stderr)
  }

  /// - Parameter rows: rows to reserve up front, so that building a graph of known size does
  ///   not grow the columns mid-benchmark.
  public init(reservingRows rows: Int = 64) {
    graph = CogGraph(reservingRows: rows)
  }

  /// Bumped by every value change: compare two readings to learn whether anything changed.
  public var revision: UInt32 { graph.revision }

  /// Whether any state changed since `revision` was read.
  public func hasChanged(since revision: UInt32) -> Bool { graph.revision != revision }

  // MARK: Reads

  /// The current value of `cog`, computing what it needs. Inside a running body or reaction
  /// the read is tracked, as `c[cog]` is. A cycle met on the way goes to `errorHandler`.
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

  /// Like the subscript, but a cycle met on the way is thrown instead of reported.
  @inlinable public func read<T>(_ cog: Cog<T>) throws(CogError) -> T {
    let (v, s) = graph.valueAndSlot(of: cog, tracked: true)
    if graph.isIdle {
      endRead(s)
      if let error = takeCycleError() { throw error }
    }
    return v
  }

  /// Like the subscript, but a cycle met on the way is thrown instead of reported.
  @inlinable public func read<T>(_ ref: CogRef<T>) throws(CogError) -> T {
    let (v, s) = graph.value(of: ref, tracked: true)
    if graph.isIdle {
      endRead(s)
      if let error = takeCycleError() { throw error }
    }
    return v
  }

  /// After an outermost read: a row with a lifetime that nothing observes is handed to the
  /// collector, and deferred work runs.
  @inlinable @inline(__always)
  func endRead(_ s: Slot) {
    if !s.isNone && graph.lifetime[s] != .context && !graph.edges.hasSubscribers(s)
      && graph.leases[s] == 0
    {
      graph.orphaned.append(s)
    }
    graph.collect()
  }

  @usableFromInline func takeCycleError() -> CogError? {
    guard let slots = graph.takeCycle() else { return nil }
    return .cycle(states: graph.describe(slots))
  }

  @inline(never) @usableFromInline func reportCycle() {
    if let error = takeCycleError() { errorHandler(error) }
  }

  /// Misuse that cannot be recovered from where it happened (an escaped writer's subscript).
  @inline(never) @usableFromInline func misuse(_ error: CogError) -> Never {
    preconditionFailure(error.description)
  }

  // MARK: Turns

  /// Runs one turn: `body` stages writes through the writer; then the flush publishes the
  /// sources that really changed, settles the reactions that depend on them (in registration
  /// order), and runs the turns those reactions scheduled, first in first out.
  ///
  /// A turn cannot start inside another turn, a body or a reaction: a reaction schedules its
  /// writes with `c.turn`.
  public func turn(_ name: StaticString, _ body: (CogWriter) -> Void) {
    if activeTurn != 0 || !graph.isIdle || draining && isFlushing {
      preconditionFailure(
        "Cog: turn '\(name)' started inside another turn or a body; schedule it from a reaction with c.turn"
      )
    }
    runTurn(name, body)
    drainScheduled()
  }

  @exclusivity(unchecked) var isFlushing = false

  @usableFromInline
  func runTurn(_ name: StaticString, _ body: (CogWriter) -> Void) {
    lastTurn &+= 1
    activeTurn = lastTurn
    body(CogWriter(cogs: self, turn: lastTurn))
    activeTurn = 0
    isFlushing = true
    #if DEBUG
      graph.touched.withElements { buffer in
        graph.history.record(turn: lastTurn, op: name, touched: UnsafeBufferPointer(buffer))
      }
    #endif
    graph.publish()
    graph.runQueuedReactions()
    isFlushing = false
    graph.collect()
    graph.expireCache()
    graph.checkInvariants()
    if _slowPath(graph.cycle != nil) { reportCycle() }
  }

  /// Runs the turns reactions scheduled, in order; turns they schedule in turn go last.
  func drainScheduled() {
    if draining || scheduled.isEmpty { return }
    draining = true
    var i = 0
    while i < scheduled.count {
      let t = scheduled[i]
      runTurn(t.name, t.body)
      i += 1
    }
    scheduled.removeAll(keepingCapacity: true)
    draining = false
  }

  func schedule(_ name: StaticString, _ body: @escaping (CogWriter) -> Void) {
    scheduled.append((name, body))
  }

  // MARK: Reactions

  /// Registers a reaction: `body` runs now, then once after every turn in which a state it
  /// read changed. Reactions run in registration order. The reaction lives until `cancel()`
  /// or the end of the context.
  @discardableResult
  public func react(
    _ name: StaticString = "reaction", _ body: @escaping @MainActor (CogReactionContext) -> Void
  ) -> CogReaction {
    precondition(
      activeTurn == 0 && graph.isIdle, "Cog: reaction '\(name)' registered inside a turn or a body")
    let behavior = RowBehavior<SharedEdgePool> { [unowned(unsafe) self] _, slot in
      body(CogReactionContext(cogs: self, slot: slot))
      return false
    }
    let owner = ReactionOwner(label: "\(name)")
    let id = Registry.makeDescriptorID()
    graph.setOwner(owner, for: id)
    let s = graph.allocateRow(
      kind: .reaction, descriptor: id, typeIndex: -1, valueIndex: -1, behavior: behavior,
      lifetime: .context, key: nil)
    reactionBodies[s.raw] = behavior
    let handle = CogReaction(cogs: self, ref: graph.ref(s))
    graph.refresh(s)
    graph.collect()
    if _slowPath(graph.cycle != nil) { reportCycle() }
    drainScheduled()
    return handle
  }

  // MARK: Leases

  /// Keeps a `.whileObserved` or `.cache` state alive (and its row) until the lease ends.
  public func lease<T>(_ cog: Cog<T>) -> CogLease {
    let s = cog.slot(in: graph)
    graph.addLease(s)
    return CogLease(cogs: self, ref: graph.ref(s))
  }

  /// Keeps the keyed state `ref` alive until the lease ends.
  public func lease<T>(_ ref: CogRef<T>) -> CogLease {
    let s = ref.box.lookup(ref.key, in: graph)
    graph.addLease(s)
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
    /// touched states (labels resolved now, not when the turn ran).
    public var history: [(turn: UInt32, op: String, touched: [String])] {
      graph.history.ordered.map { r in
        let slots = [r.touched.0, r.touched.1, r.touched.2, r.touched.3].prefix(
          Int(r.touchedCount)
        ).filter { $0 >= 0 }.map { Slot($0) }
        return (
          r.turn, "\(graph.history.opNames[Int(r.op)])",
          slots.map { graph.flags[$0].contains(.released) ? "(released)" : graph.describe($0) }
        )
      }
    }
  #endif
}

/// Names a reaction's row in errors and history.
final class ReactionOwner: RowOwner, @unchecked Sendable {
  let label: String
  var cachePolicy: (limit: Int, retention: Duration)? { nil }
  init(label: String) { self.label = label }
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
    precondition(graph.isIdle && activeTurn == 0, "Cog: evict inside a turn or a body")
    let s = ref.box.existing(ref.key, in: graph)
    if s.isNone || graph.edges.hasSubscribers(s) || graph.leases[s] > 0 { return false }
    graph.release(s)
    graph.collect()
    return true
  }
}
