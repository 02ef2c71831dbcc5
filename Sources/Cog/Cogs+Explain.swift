import CogCore

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
