/// What a context keeps for its tests and tools when they ask for it: the turn history and
/// the run count of each running row. Switched on per context; a context that asks for
/// neither has no object and pays one branch per turn (`turnHooks`) and none per recompute
/// (`recompute` tests one byte for run counts and cycles together, `Tracking.coldRecompute`).
///
/// Kept outside the graph's own storage, in a table by context serial, so that neither the
/// graph object nor its groups grow: the switches sit in bytes that were padding.
@MainActor @usableFromInline
package final class GraphDiagnostics {
  @usableFromInline var history = TurnHistory()
  /// Runs of each counted row, by slot and generation (a released row's count stays behind
  /// under its old generation, unseen: a reused slot starts from zero).
  @usableFromInline package var runCounts: [SlotRef: Int] = [:]
  /// Whether run counts are kept (`Graph.countsRuns`). Runs are noted (`Graph.notesRuns`)
  /// while this or `explainsTurns` is on.
  @usableFromInline package var countingRuns = false
  /// The explained turns (`Graph+Explain.swift`).
  @usableFromInline var explanations = ExplanationLog()
  /// The context's clock when it is the library's test clock (`Cogs.settle` asks it which
  /// work is asleep on it).
  package var testClock: AnyObject?

  /// Every context's diagnostics, by serial (see `Graph.serial`).
  @usableFromInline package static var table: [Int: GraphDiagnostics] = [:]

  package init() {}
}

extension Graph {
  /// This context's diagnostics, made on first use (cold).
  @usableFromInline package var diagnostics: GraphDiagnostics {
    if let d = GraphDiagnostics.table[serial] { return d }
    let d = GraphDiagnostics()
    GraphDiagnostics.table[serial] = d
    maps.hasDiagnostics = true
    return d
  }

  /// The history and run counts go with the context (its `deinit`).
  @usableFromInline func dropDiagnostics() {
    if mapsPointer.pointee.hasDiagnostics { GraphDiagnostics.table[serial] = nil }
  }

  // MARK: Turn history

  /// Whether turns are recorded in the history (see `TurnHistory`). On by default in debug
  /// builds of the core, off in release builds.
  @inlinable package var recordsHistory: Bool {
    get { turns.recordsHistory }
    set { turns.recordsHistory = newValue }
  }

  /// Records turn `id` (cold: called only while `recordsHistory` is on).
  @inlinable @inline(never) package func recordHistory(turn id: UInt32, name: StaticString) {
    let generation = rows.generation
    let d = diagnostics
    work.touched.withElements { buffer in
      d.history.record(
        turn: id, op: name, touched: UnsafeBufferPointer(buffer),
        generation: { generation[$0] })
    }
  }

  /// Names the next recorded turn after descriptor `id` (an async result's turn).
  @inlinable @inline(never) package func nameNextRecordedTurn(after id: Int32) {
    diagnostics.history.nextOpState = id
  }

  // MARK: Run counts

  /// Whether this context counts the runs of its computeds and reactions. Switching it off
  /// clears the counts.
  @inlinable package var countsRuns: Bool {
    get { maps.hasDiagnostics && diagnostics.countingRuns }
    set {
      if newValue == countsRuns { return }
      diagnostics.countingRuns = newValue
      notesRuns = newValue || turns.explainsTurns
      if !newValue { diagnostics.runCounts.removeAll() }
    }
  }

  /// Whether `recompute` calls `countRun`: while runs are counted or turns explained.
  @inlinable package var notesRuns: Bool {
    get { maps.countsRuns }
    set {
      maps.countsRuns = newValue
      track.coldRecompute = newValue || isFailing
    }
  }

  /// Notes a run of `n` whose result `changed` (cold: called from `recompute` while
  /// `notesRuns`): counted, explained, or both.
  @inlinable @inline(never) package func countRun(_ n: Slot, changed: Bool) {
    let d = diagnostics
    if d.countingRuns { d.runCounts[ref(n), default: 0] += 1 }
    if turns.explainsTurns { explainRun(n, changed: changed) }
  }

  /// How many times row `s`'s body has run since counting was switched on (0 for `.none`).
  @inlinable package func runCount(of s: Slot) -> Int {
    if s.isNone || !maps.hasDiagnostics { return 0 }
    return diagnostics.runCounts[ref(s)] ?? 0
  }

  /// Every counted row's runs so far, by row (for a budget's before-and-after comparison).
  @inlinable package var runCountSnapshot: [SlotRef: Int] {
    maps.hasDiagnostics ? diagnostics.runCounts : [:]
  }

  // MARK: Turn history entries

  /// An op's name: the static name a turn was started with, or the label of the state a
  /// turn was named after (resolved now).
  @inlinable package func historyOpName(_ op: UInt16) -> String {
    let history = diagnostics.history
    if op < TurnHistory.stateOpBase { return "\(history.opNames[Int(op)])" }
    let id = history.stateOps[Int(op - TurnHistory.stateOpBase)]
    return label(ofDescriptor: id) ?? "state#\(id)"
  }

  /// The history, oldest turn first: turn id, op name and the labels of up to four touched
  /// states, resolved now; a state whose row was released since shows as "(released)".
  @inlinable package var historyEntries: [(turn: UInt32, op: String, touched: [String])] {
    if !maps.hasDiagnostics { return [] }
    return diagnostics.history.ordered.map { r in
      (
        r.turn, historyOpName(r.op),
        r.touchedRefs.map { ref in
          rows.generation[ref.slot] != ref.generation
            || rows.flags[ref.slot].contains(.released)
            ? "(released)" : describe(ref.slot)
        }
      )
    }
  }

  /// Forgets the recorded turns.
  package func clearHistory() {
    if maps.hasDiagnostics { diagnostics.history = TurnHistory() }
  }
}
