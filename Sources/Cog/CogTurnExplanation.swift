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
}
