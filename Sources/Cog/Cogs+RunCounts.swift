import CogCore

extension Cogs {
  /// Whether this context counts how many times each computed's body and each reaction ran
  /// (`runCount(of:)`). Off by default: a context that does not count pays nothing for it.
  /// Switch it on before the runs to count; switching it off forgets the counts.
  public var countsRuns: Bool {
    get { graph.countsRuns }
    set {
      if _slowPath(!graph.canStartOperation) { graph.misplaced("countsRuns was switched") }
      graph.countsRuns = newValue
    }
  }

  /// How many times `node`'s body ran (an automatic cog's or keyed state's recompute, or a
  /// reaction's run) since `countsRuns` was switched on. A manual state never runs, and a
  /// state with no row here has not run: both are 0. A row that was released and made again
  /// counts from zero.
  ///
  /// ```swift
  /// cogs.countsRuns = true
  /// cogs.turn("add") { w in w[itemsCog].append(item) }
  /// #expect(cogs.runCount(of: totalCog) == 1)
  /// ```
  public func runCount(of node: some CogNode) -> Int {
    if _slowPath(!graph.countsRuns) {
      fatalError("Cog: runCount(of:) needs `countsRuns = true` on the context, set before the runs")
    }
    return graph.runCount(of: slot(of: node))
  }

  /// Runs `body` (turns, reads) and returns the labels of the states and reactions whose
  /// bodies ran during it, sorted. Counts runs for the duration if `countsRuns` is off.
  public func recomputed<R>(during body: () throws -> R) rethrows -> (result: R, ran: [String]) {
    let (result, rows) = try rowsRun(during: body)
    return (result, rows.map { graph.describe($0.slot) }.sorted())
  }

  /// The rows whose bodies ran during `body`, still live after it.
  func rowsRun<R>(during body: () throws -> R) rethrows -> (R, [SlotRef]) {
    let wasCounting = countsRuns
    countsRuns = true
    defer { if !wasCounting { countsRuns = false } }
    let before = graph.runCountSnapshot
    let result = try body()
    let ran = graph.runCountSnapshot.filter { ref, n in
      n > (before[ref] ?? 0) && graph.rows.generation[ref.slot] == ref.generation
        && !graph.rows.flags[ref.slot].contains(.released)
    }.keys
    return (result, Array(ran))
  }

  /// Runs `body` (typically one turn) and throws `CogRecomputeBudgetExceeded` if a state or
  /// reaction outside `budget` ran during it: "this turn recomputes at most these". The error
  /// names the extra ones. States in the budget need not run.
  ///
  /// ```swift
  /// @Test func addingAnItemRecomputesOnlyTheTotal() throws {
  ///   try cogs.expectRecomputes(atMost: [totalCog]) {
  ///     cogs.turn("add") { w in w[itemsCog].append(item) }
  ///   }
  /// }
  /// ```
  /// A thrown error fails a Swift Testing test (or an XCTest one) with the error's message:
  /// "recomputed 1 state beyond the budget [total]: filtered".
  @discardableResult
  public func expectRecomputes<R>(
    atMost budget: [any CogNode], during body: () throws -> R
  ) throws -> R {
    let (result, ran) = try rowsRun(during: body)
    // Resolved after `body`: a state in the budget may have got its row during it.
    let allowed = Set(budget.map { slot(of: $0) })
    let extra = ran.filter { !allowed.contains($0.slot) }
    if !extra.isEmpty {
      throw CogRecomputeBudgetExceeded(
        budget: budget.map { n in
          let s = slot(of: n)
          return s.isNone ? "(no row)" : graph.describe(s)
        }, ran: ran.map { graph.describe($0.slot) }.sorted(),
        extra: extra.map { graph.describe($0.slot) }.sorted())
    }
    return result
  }
}

/// A recompute budget was exceeded (`Cogs.expectRecomputes(atMost:during:)`): the states and
/// reactions that ran beyond it. Labels are sorted.
public struct CogRecomputeBudgetExceeded: Error, Equatable, CustomStringConvertible {
  /// The labels of the budget's states and reactions.
  public let budget: [String]
  /// The labels of every state and reaction that ran.
  public let ran: [String]
  /// The labels of those that ran but were not in the budget.
  public let extra: [String]

  /// "recomputed 2 states beyond the budget [total]: filtered, sorted".
  public var description: String {
    let states = extra.count == 1 ? "1 state" : "\(extra.count) states"
    return "recomputed \(states) beyond the budget [\(budget.joined(separator: ", "))]: "
      + extra.joined(separator: ", ")
  }
}
