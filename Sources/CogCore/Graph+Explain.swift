/// Explained turns (`explainsTurns`): what each flush of a context that asks for it did, kept
/// as a `TurnExplanation`. Everything here is cold: `flush` calls it only in its hooked copy,
/// `recompute` through `countRun` (runs are noted while explaining: `notesRuns`), `release`
/// and `reportCycle` behind a test of a switch they sit beside. Values are described and
/// names resolved here, never on the hot paths.
extension Graph {
  /// Whether this context explains its turns. Switching it on flags every running row, so
  /// that each run is noted; switching it off keeps the explanations made.
  @usableFromInline package var explainsTurns: Bool {
    get { turns.explainsTurns }
    set {
      if newValue == turns.explainsTurns { return }
      turns.explainsTurns = newValue
      if newValue { _ = diagnostics }
      notesRuns = newValue || countsRuns
      if !newValue { diagnostics.explanations.before = [:] }
    }
  }

  /// Marks the release `evict` makes (cold: a context with diagnostics only).
  @usableFromInline @inline(never)
  func noteEvicting(_ on: Bool) {
    diagnostics.explanations.evicting = on
  }

  /// The explained turns kept, oldest first.
  package var explanations: [TurnExplanation] {
    maps.hasDiagnostics ? diagnostics.explanations.turns : []
  }

  /// Forgets the explained turns.
  package func clearExplanations() {
    if maps.hasDiagnostics { diagnostics.explanations = ExplanationLog() }
  }

  /// The description of row `s`'s current value (nil for a reaction or no value yet).
  package func describeValue(_ s: Slot, entry: Int32? = nil) -> String? {
    let ti = Int(rows.typeIndex[s])
    guard ti >= 0, ti < maps.columns.count, let column = maps.columns[ti] else { return nil }
    // An entry named by the caller is a staged one, which holds a value.
    if entry == nil && !rows.flags[s].contains(.hasValue) { return nil }
    return column.describe(entry: entry ?? rows.valueIndex[s])
  }

  /// The rows `s` reads, in read order.
  func dependencySlots(of s: Slot) -> [Slot] {
    var out: [Slot] = []
    var p = edges.firstDep(of: s)
    while !p.isNone {
      out.append(edges.dep(of: s, at: p))
      p = edges.nextDep(of: s, after: p)
    }
    return out
  }

  /// The rows that read `s`.
  func subscriberSlots(of s: Slot) -> [Slot] {
    var out: [Slot] = []
    var p = edges.firstSub(of: s)
    while !p.isNone {
      out.append(edges.sub(of: s, at: p))
      p = edges.nextSub(of: s, after: p)
    }
    return out
  }

  /// A row's name, or "(released)" for a row released since.
  func explainedName(_ s: Slot) -> String {
    rows.flags[s].contains(.released) ? "(released)" : describe(s)
  }

  /// Before the flush of turn `id`: the writes, and the rows downstream of them as they are
  /// (stale or not, value, dependencies), to compare with after.
  @usableFromInline @inline(never)
  func beginExplanation(turn id: UInt32, name: StaticString) {
    let d = diagnostics
    var e = TurnExplanation(turn: id, name: "\(name)")
    var before: [Int32: (stale: Bool, value: String?, deps: [Slot])] = [:]
    var queue: [Slot] = []
    for s in work.touched.withElements({ Array($0) }) {
      let changed = rows.flags[s].contains(.staged)
      let old = describeValue(s)
      e.writes.append(
        .init(
          label: describe(s), old: old,
          new: changed ? describeValue(s, entry: rows.valueIndex[s] ^ 1) : old, changed: changed))
      if changed { queue.append(s) }
    }
    d.explanations.written = queue
    var i = 0
    while i < queue.count {
      for n in subscriberSlots(of: queue[i]) where before[n.raw] == nil {
        before[n.raw] = (
          !rows.flags[n].isDisjoint(with: .stale), describeValue(n), dependencySlots(of: n)
        )
        queue.append(n)
      }
      i += 1
    }
    d.explanations.before = before
    d.explanations.ran = []
    d.explanations.current = e
  }

  /// After publish: the rows push flagged, each with the row it was reached from (a breadth
  /// first walk from the written states, so a row is named after its nearest changed input).
  @usableFromInline @inline(never)
  func explainMarks() {
    let d = diagnostics
    let before = d.explanations.before
    var marked = Set<Int32>()
    var queue = d.explanations.written
    var i = 0
    while i < queue.count {
      let from = queue[i]
      for n in subscriberSlots(of: from) where !marked.contains(n.raw) {
        let f = rows.flags[n]
        if f.isDisjoint(with: .stale) || (before[n.raw]?.stale ?? true) { continue }
        marked.insert(n.raw)
        let label = describe(n)
        d.explanations.current?.marked.append(
          .init(label: label, by: describe(from), dirty: f.contains(.dirty)))
        d.explanations.current?.dependencies[label] = (before[n.raw]?.deps ?? []).map(explainedName)
        queue.append(n)
      }
      i += 1
    }
    d.explanations.marked = Array(queue.dropFirst(d.explanations.written.count))
  }

  /// Before the flush's boundaries are told: each watched root and its boundary's last
  /// notified version.
  @usableFromInline @inline(never)
  func explainRootsBefore() -> [(Slot, UInt32)] {
    maps.roots.map { s in
      rows.flags[s].contains(.observed)
        ? (s, boundary(of: s).notifiedAt) : (s, 0)
    }
  }

  /// After: the boundaries told (their notified version moved) and the exports offered.
  @usableFromInline @inline(never)
  func explainRootsAfter(_ roots: [(Slot, UInt32)]) {
    let d = diagnostics
    for (s, at) in roots {
      let f = rows.flags[s]
      if f.contains(.released) { continue }
      if f.contains(.observed), boundary(of: s).notifiedAt != at {
        d.explanations.current?.boundaries.append(describe(s))
      }
      if f.contains(.exported) { d.explanations.current?.exports.append(describe(s)) }
    }
  }

  /// A run of `n` whose result `changed`: during the flush, or on a read after it (then
  /// added to the last explained turn).
  @usableFromInline @inline(never)
  func explainRun(_ n: Slot, changed: Bool) {
    let d = diagnostics
    let f = rows.flags[n]
    let deps = dependencySlots(of: n)
    let value = describeValue(n)
    let earlier = d.explanations.before[n.raw]
    var run = TurnExplanation.Run(
      label: describe(n), isReaction: f.contains(.reaction), changed: changed && !isFailing,
      old: earlier?.value, new: value, reads: deps.map(explainedName), added: [], dropped: [],
      afterFlush: false, inCycle: isFailing)
    if let earlier {
      run.added = deps.filter { !earlier.deps.contains($0) }.map(explainedName)
      run.dropped = earlier.deps.filter { !deps.contains($0) }.map(explainedName)
      d.explanations.before[n.raw] = (earlier.stale, value, deps)
    }
    d.explanations.ran.insert(n.raw)
    d.explanations.update { e, after in
      run.afterFlush = after
      e.runs.append(run)
    }
  }

  /// Row `s` (flags `f`) is being released: why, from where the release came.
  @usableFromInline @inline(never)
  func explainRelease(_ s: Slot, _ f: StateFlags) {
    if !turns.explainsTurns { return }
    let d = diagnostics
    let reason: TurnExplanation.ReleaseReason
    if f.contains(.reaction) {
      reason = .cancelled
    } else if work.orphaned.sweeping, isDropped(s) {
      reason = .descriptorDropped
    } else if d.explanations.evicting {
      reason = .evicted
    } else if f.contains(.cached) {
      let t = now()
      let expired = work.cacheEntries.withElements { entries in
        entries.contains { $0.ref.slot == s && $0.deadline <= t }
      }
      reason = expired ? .retention : .cacheLimit
    } else if rows.lifetime[s] == .cache {
      reason = .cacheLimit
    } else if rows.lifetime[s] == .whileObserved {
      reason = .unobserved
    } else {
      reason = .other
    }
    let label = describe(s)
    d.explanations.update { e, after in
      e.released.append(.init(label: label, reason: reason, afterFlush: after))
    }
  }

  /// A cycle the explained turn met.
  @usableFromInline @inline(never)
  func explainCycle(_ states: [String]) {
    diagnostics.explanations.update { e, _ in e.cycles.append(states) }
  }

  /// After the flush and its housekeeping: the flagged rows that did not run, checked clean
  /// or left stale; the explanation is kept.
  @usableFromInline @inline(never)
  func endExplanation() {
    let d = diagnostics
    guard var e = d.explanations.current else { return }
    for n in d.explanations.marked where !d.explanations.ran.contains(n.raw) {
      let f = rows.flags[n]
      if f.contains(.released) { continue }
      if f.isDisjoint(with: .stale) {
        e.checked.append(describe(n))
      } else {
        e.leftStale.append(describe(n))
      }
    }
    d.explanations.current = nil
    d.explanations.keep(e)
  }
}
