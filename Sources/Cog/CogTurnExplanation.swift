import CogCore

/// What one turn of a context did, and why (`Cogs.explainsTurns`): the writes that started
/// it, the states push flagged and from which input, each body that ran with what it read,
/// where an equal result stopped propagation, the boundaries and exports told, the rows a
/// lifetime policy released, and any cycle met. Names and values' descriptions are resolved
/// while the turn runs. `description` prints it as a report; `why(_:)` answers for one state.
public struct CogTurnExplanation: Sendable, Equatable, CustomStringConvertible {
  /// A state the turn's body wrote.
  public struct Write: Sendable, Equatable {
    /// The state's label.
    public let state: String
    /// Its value before the turn, described.
    public let oldValue: String?
    /// The value written, described.
    public let newValue: String?
    /// Whether the written value differed (an equal write publishes nothing).
    public let changed: Bool
  }

  /// A state or reaction push flagged in the turn.
  public struct Mark: Sendable, Equatable {
    /// The flagged state's label.
    public let state: String
    /// The flagged row it was reached from: a written state, or a row it reads that was
    /// flagged before it.
    public let by: String
    /// Whether it was flagged dirty (it reads a written state that changed, so it runs when
    /// read) rather than pending (it checks its dependencies first).
    public let isDirty: Bool
  }

  /// A body that ran: a computed state's recompute or a reaction's run.
  public struct Run: Sendable, Equatable {
    /// The state's or reaction's label.
    public let state: String
    /// Whether it is a reaction.
    public let isReaction: Bool
    /// Whether its result differed from its value before: false for an equal result, which
    /// stopped propagation here (its readers stay clean).
    public let changed: Bool
    /// Its value before the run, described (nil on a first run).
    public let oldValue: String?
    /// Its value after the run, described.
    public let newValue: String?
    /// The states it read in this run, in order.
    public let reads: [String]
    /// States it read this time but not in its run before the turn.
    public let addedDependencies: [String]
    /// States it read before the turn but no longer: their edges were dropped.
    public let droppedDependencies: [String]
    /// Whether it ran on a read after the turn's flush (a state nothing read in the flush,
    /// read later) rather than in the flush.
    public let afterFlush: Bool
    /// Whether its operation met a cycle: its result was discarded.
    public let inCycle: Bool
  }

  /// Why a row was released.
  public enum ReleaseReason: String, Sendable, Equatable {
    /// A `.whileObserved` state lost its last reader.
    case unobserved
    /// A `.cache` state was pushed out by its descriptor's cache limit.
    case cacheLimit = "cache limit"
    /// A cached `.cache` state's retention time ended.
    case retention
    /// The app called `evict`.
    case evicted
    /// The state's descriptor was dropped by the app (its cog or box went away).
    case descriptorDropped = "descriptor dropped"
    /// A reaction was cancelled.
    case cancelled
    /// Released for another reason (a keyed row removed, say).
    case other
  }

  /// A row released in the turn, or after it before the next explained turn.
  public struct Release: Sendable, Equatable {
    /// The state's or reaction's label.
    public let state: String
    /// Why it was released.
    public let reason: ReleaseReason
    /// Whether it was released after the turn (an `evict`, a sweep, an ended lease).
    public let afterFlush: Bool
  }

  /// The turn's id (`Cogs.history` numbers turns the same way).
  public let turn: UInt32
  /// The name the turn was started with ("async result" for an async cog's result).
  public let name: String
  /// The states the turn's body wrote, in write order.
  public let writes: [Write]
  /// The rows push flagged, nearest to the writes first.
  public let marked: [Mark]
  /// The bodies that ran, in order.
  public let runs: [Run]
  /// Flagged states that became clean without running: none of their dependencies changed.
  public let checked: [String]
  /// Flagged states nothing read in the flush: they recompute when next read.
  public let leftStale: [String]
  /// States whose UI boundary (Observation) was told of a change.
  public let boundariesTold: [String]
  /// States whose exports were offered their value.
  public let exportsOffered: [String]
  /// Rows released, with the reason.
  public let released: [Release]
  /// The states of each cycle the turn met.
  public let cycles: [[String]]
  /// The dependencies each flagged state had as the turn began.
  let dependencies: [String: [String]]

  init(_ e: TurnExplanation) {
    turn = e.turn
    name = e.name
    writes = e.writes.map {
      Write(state: $0.label, oldValue: $0.old, newValue: $0.new, changed: $0.changed)
    }
    marked = e.marked.map { Mark(state: $0.label, by: $0.by, isDirty: $0.dirty) }
    runs = e.runs.map {
      Run(
        state: $0.label, isReaction: $0.isReaction, changed: $0.changed, oldValue: $0.old,
        newValue: $0.new, reads: $0.reads, addedDependencies: $0.added,
        droppedDependencies: $0.dropped, afterFlush: $0.afterFlush, inCycle: $0.inCycle)
    }
    checked = e.checked
    leftStale = e.leftStale
    boundariesTold = e.boundaries
    exportsOffered = e.exports
    released = e.released.map { r in
      let reason: ReleaseReason
      switch r.reason {
      case .unobserved: reason = .unobserved
      case .cacheLimit: reason = .cacheLimit
      case .retention: reason = .retention
      case .evicted: reason = .evicted
      case .descriptorDropped: reason = .descriptorDropped
      case .cancelled: reason = .cancelled
      case .other: reason = .other
      }
      return Release(state: r.label, reason: reason, afterFlush: r.afterFlush)
    }
    cycles = e.cycles
    dependencies = e.dependencies
  }

  /// The computed states whose equal result stopped propagation: they ran, and their readers
  /// saw no change.
  public var cutoffs: [Run] { runs.filter { !$0.changed && !$0.isReaction && !$0.inCycle } }

  /// The labels of the reactions that ran.
  public var reactions: [String] { runs.filter(\.isReaction).map(\.state) }

  /// Why the state labelled `state` did or did not recompute in this turn, in one sentence.
  public func why(_ state: String) -> String {
    let t = "turn #\(turn)"
    if let w = writes.last(where: { $0.state == state }) {
      return w.changed
        ? "\(state) was written in \(t): \(v(w.oldValue)) -> \(v(w.newValue))"
        : "\(state) was written in \(t) with an equal value (\(v(w.newValue))): nothing was published"
    }
    let mark = marked.first { $0.state == state }
    if let r = runs.last(where: { $0.state == state }) {
      let cause =
        mark.map {
          $0.isDirty ? "it reads \($0.by), which changed" : "it reads \($0.by), which was flagged"
        }
        ?? (r.oldValue == nil ? "it was read for the first time" : "it was read")
      let when = r.afterFlush ? " (on a read after the flush)" : ""
      if r.inCycle {
        return
          "\(state) ran in \(t)\(when) because \(cause), inside a cycle: its result was discarded"
      }
      if r.isReaction { return "\(state) ran in \(t)\(when) because \(cause)" }
      if r.changed {
        return
          "\(state) recomputed in \(t)\(when) because \(cause): \(v(r.oldValue)) -> \(v(r.newValue))"
      }
      return "\(state) recomputed in \(t)\(when) because \(cause), and its result was equal "
        + "(\(v(r.oldValue)) -> \(v(r.newValue))): propagation stopped there"
    }
    if let r = released.last(where: { $0.state == state }) {
      return "\(state) was released \(r.afterFlush ? "after" : "in") \(t): \(r.reason.rawValue)"
    }
    if let mark, checked.contains(state) {
      let deps = dependencies[state] ?? []
      let stoppers = cutoffs.map(\.state).filter { deps.contains($0) }
      let unchanged = checked.filter { deps.contains($0) }
      var because = ""
      if !stoppers.isEmpty {
        because = ": \(stoppers.joined(separator: ", ")) recomputed to an equal value"
      } else if !unchanged.isEmpty {
        because = ": \(unchanged.joined(separator: ", ")) did not change"
      }
      return "\(state) did not recompute in \(t): it was flagged via \(mark.by), but none of its "
        + "dependencies changed\(because)"
    }
    if let mark, leftStale.contains(state) {
      return "\(state) did not recompute in \(t): it was flagged via \(mark.by), but nothing read "
        + "it; it recomputes when read"
    }
    let wrote = writes.filter(\.changed).map(\.state)
    return "\(state) did not recompute in \(t): it does not depend on what the turn changed"
      + (wrote.isEmpty ? " (nothing)" : " (\(wrote.joined(separator: ", ")))")
  }

  /// The turn as a report, one line per event.
  public var description: String {
    var lines = ["turn #\(turn) \(name)"]
    for w in writes {
      lines.append(
        w.changed
          ? "  wrote \(w.state): \(v(w.oldValue)) -> \(v(w.newValue))"
          : "  wrote \(w.state): \(v(w.newValue)), equal: not published")
    }
    for m in marked {
      lines.append("  \(m.isDirty ? "dirty" : "pending") \(m.state) (reads \(m.by))")
    }
    for r in runs {
      let when = r.afterFlush ? " after the flush" : ""
      var line: String
      if r.isReaction {
        line = "  ran reaction \(r.state)\(when)"
      } else if r.inCycle {
        line = "  recomputed \(r.state)\(when) in a cycle: result discarded"
      } else if r.changed {
        line = "  recomputed \(r.state)\(when): \(v(r.oldValue)) -> \(v(r.newValue))"
      } else {
        line =
          "  recomputed \(r.state)\(when): \(v(r.oldValue)) -> \(v(r.newValue)), equal: stopped here"
      }
      if !r.reads.isEmpty { line += "; read \(r.reads.joined(separator: ", "))" }
      if !r.droppedDependencies.isEmpty {
        line += "; no longer reads \(r.droppedDependencies.joined(separator: ", "))"
      }
      if !r.addedDependencies.isEmpty {
        line += "; newly reads \(r.addedDependencies.joined(separator: ", "))"
      }
      lines.append(line)
    }
    for c in checked { lines.append("  checked \(c): no dependency changed") }
    for s in leftStale { lines.append("  left stale \(s): nothing read it") }
    for b in boundariesTold { lines.append("  told the UI boundary of \(b)") }
    for e in exportsOffered { lines.append("  offered \(e) to its exports") }
    for r in released {
      lines.append(
        "  released \(r.state)\(r.afterFlush ? " after the flush" : ""): \(r.reason.rawValue)")
    }
    for c in cycles { lines.append("  cycle: \(c.joined(separator: ", "))") }
    return lines.joined(separator: "\n")
  }
}

/// A value's description, or "nil" for none.
private func v(_ s: String?) -> String { s ?? "nil" }

extension Cogs {
  /// Whether this context explains its turns (`explanations`, `why(_:inTurn:)`). Off by
  /// default in every build; a context that does not explain pays nothing for it. While on,
  /// each turn's flush notes what it does and describes the values involved.
  public var explainsTurns: Bool {
    get { graph.explainsTurns }
    set {
      if _slowPath(!graph.canStartOperation) { graph.misplaced("explainsTurns was switched") }
      graph.explainsTurns = newValue
    }
  }

  /// The last 64 explained turns, oldest first (empty while `explainsTurns` was never on).
  public var explanations: [CogTurnExplanation] { graph.explanations.map(CogTurnExplanation.init) }

  /// The explanation of turn `turn`, if it was explained and is still kept.
  public func explanation(ofTurn turn: UInt32) -> CogTurnExplanation? {
    graph.explanations.last { $0.turn == turn }.map(CogTurnExplanation.init)
  }

  /// The explanation of the last explained turn.
  public var lastExplanation: CogTurnExplanation? {
    graph.explanations.last.map(CogTurnExplanation.init)
  }

  /// Why `node` did or did not recompute in turn `turn` (the last explained turn when nil),
  /// in one sentence; nil when that turn was not explained.
  ///
  /// ```swift
  /// cogs.explainsTurns = true
  /// cogs.turn("set price") { w in w[priceCog] = 12 }
  /// print(cogs.why(totalCog)!)  // "total recomputed in turn #2 because it reads ..."
  /// ```
  public func why(_ node: some CogNode, inTurn turn: UInt32? = nil) -> String? {
    guard let e = turn.map({ explanation(ofTurn: $0) }) ?? lastExplanation else { return nil }
    let s = slot(of: node)
    if !s.isNone && !graph.rows.flags[s].contains(.released) { return e.why(graph.describe(s)) }
    // No row now (released, say): asked by the label the turn recorded it under.
    if let c = node as? any CogLabelled { return e.why(c.label) }
    return "the state has no row in this context and no label to look it up by"
  }

  /// Forgets the explained turns.
  public func clearExplanations() { graph.clearExplanations() }
}

/// A node whose label is known without its row (`Cogs.why` of a released state).
protocol CogLabelled { var label: String { get } }
extension Cog: CogLabelled {}
extension CogRef: CogLabelled {}
