import CogCore

extension CogTurnExplanation {
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
