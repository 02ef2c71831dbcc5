import CogCore

extension Cogs {
  /// Waits until this context has nothing left in flight: every async cog's work has
  /// finished and its outcome published (in its own turn), work that outcome started in turn
  /// too (`.queue`'s next, a reaction's read of a restarted cog), and the main actor has run
  /// what those turns queued, such as export consumers waiting for the new values.
  ///
  /// ```swift
  /// cogs.turn("search") { w in w[queryCog] = "cog" }
  /// _ = cogs[resultsCog]  // starts the work
  /// await cogs.settle()
  /// #expect(cogs[resultsCog] == ["cog"])
  /// ```
  ///
  /// Work asleep on the context's `CogTestClock` (`Cogs(clock:)`) counts as settled: it
  /// wakes only when the test advances the clock, so settle, advance, settle.
  ///
  /// Other work is awaited, so work that waits on something the test has not done yet (a fake
  /// not resolved) keeps it waiting. A followed sequence (`CogWork.stream`) may never end and
  /// is not awaited: its elements already available are delivered. Consumers on other actors
  /// than the main one are not waited for.
  public func settle() async {
    let clock = graph.maps.hasDiagnostics ? graph.diagnostics.testClock as? CogTestClock : nil
    // Yields after the last work: each lets the main actor run one round of what is queued
    // (a resumed consumer, the turn of an element it was handed).
    var quietRounds = 0
    while quietRounds < 8 {
      let tasks = graph.turns.asyncRows.values.flatMap(\.finiteTasks)
      if tasks.count <= (clock?.sleeperCount ?? 0) {
        quietRounds += 1
        await Task.yield()
      } else if clock != nil {
        // A task may not have reached its sleep yet: awaiting it could wait forever.
        quietRounds = 0
        await Task.yield()
      } else {
        quietRounds = 0
        for t in tasks { await t.value }
      }
    }
  }
}
