/// What one explained turn did (`Graph.explainsTurns`), with names and values' descriptions
/// resolved while it ran: the rows may be released or reused by the time it is read.
@usableFromInline
package struct TurnExplanation: Sendable {
  /// A state the turn's body wrote: its value before and the staged one (`changed`: they
  /// differed, so the write published).
  package struct Write: Sendable, Equatable {
    package var label: String
    package var old: String?
    package var new: String?
    package var changed: Bool
  }

  /// A row push flagged: `dirty` when `by` (a written state) is one of its dependencies,
  /// pending (to be checked) when `by` is a flagged row it reads.
  package struct Mark: Sendable, Equatable {
    package var label: String
    package var by: String
    package var dirty: Bool
  }

  /// A body that ran: its value before and after (`changed`: the result differed, so its
  /// readers saw a change; an equal result stopped propagation here), what it read, and the
  /// dependencies its run added or no longer read.
  package struct Run: Sendable, Equatable {
    package var label: String
    package var isReaction: Bool
    package var changed: Bool
    package var old: String?
    package var new: String?
    package var reads: [String]
    package var added: [String]
    package var dropped: [String]
    /// It ran on a read after the turn's flush (a lazy state read later).
    package var afterFlush: Bool
    /// The operation it ran in met a cycle: its result was discarded.
    package var inCycle: Bool
  }

  /// Why a lifetime policy or the app released a row.
  package enum ReleaseReason: Sendable, Equatable {
    case unobserved, cacheLimit, retention, evicted, descriptorDropped, cancelled, other
  }

  /// A row released during the turn or after it (before the next explained turn).
  package struct Release: Sendable, Equatable {
    package var label: String
    package var reason: ReleaseReason
    package var afterFlush: Bool
  }

  package var turn: UInt32
  package var name: String
  package var writes: [Write] = []
  package var marked: [Mark] = []
  package var runs: [Run] = []
  /// Flagged rows that became clean without running: no dependency of theirs changed.
  package var checked: [String] = []
  /// Flagged rows nothing read in the flush: they recompute when read.
  package var leftStale: [String] = []
  /// Rows whose UI boundary was told of a change.
  package var boundaries: [String] = []
  /// Rows whose exports were offered the value.
  package var exports: [String] = []
  package var released: [Release] = []
  /// The states of each cycle the turn met.
  package var cycles: [[String]] = []
  /// The dependencies of each flagged row as the turn began, by label (for "why not").
  package var dependencies: [String: [String]] = [:]

  package init(turn: UInt32, name: String) {
    self.turn = turn
    self.name = name
  }
}

/// The explaining side of `GraphDiagnostics`: the explained turns kept, and the turn being
/// explained.
@usableFromInline
struct ExplanationLog {
  /// How many explained turns are kept (oldest dropped first).
  static let capacity = 64
  var turns: [TurnExplanation] = []
  /// The turn whose flush is running, while it is explained.
  var current: TurnExplanation?
  /// What the flagged cone looked like before the flush: by row, whether it was stale, its
  /// value's description and its dependencies.
  var before: [Int32: (stale: Bool, value: String?, deps: [Slot])] = [:]
  /// The written states that changed, and the rows push flagged, in the turn being explained.
  var written: [Slot] = []
  var marked: [Slot] = []
  /// The rows that ran since the turn began.
  var ran: Set<Int32> = []
  /// Set by `evict` for the release it makes.
  var evicting = false

  init() {}

  /// Keeps `e`, dropping the oldest past `capacity`.
  mutating func keep(_ e: TurnExplanation) {
    if turns.count == Self.capacity { turns.removeFirst() }
    turns.append(e)
  }

  /// Changes the turn being explained or, outside a flush, the last one kept.
  mutating func update(_ change: (inout TurnExplanation, _ afterFlush: Bool) -> Void) {
    if current != nil {
      change(&current!, false)
    } else if !turns.isEmpty {
      change(&turns[turns.count - 1], true)
    }
  }
}
