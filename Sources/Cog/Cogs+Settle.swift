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
  /// not resolved) keeps it waiting. An export's consumer on the main actor that waited in
  /// `next()` when a turn offered it a value has that value when `settle()` returns (its task
  /// comes back to the main actor through the global executor, after any number of yields:
  /// settle waits for it), and one whose task was cancelled while in `next()` has ended its
  /// subscription (even on its way into the stream's `next()`, which runs off the main actor).
  /// Consumers on other actors than the main one are not waited for.
  ///
  /// A followed sequence (`CogWork.stream`) may never end and is not awaited: the elements
  /// whose turns are already queued on the main actor are delivered, but settle cannot see an
  /// element on its way through another executor (an `AsyncStream` iterator that an element
  /// resumed takes that path), which may publish after it returns. A test waits for such an
  /// element's value itself.
  public func settle() async {
    let clock = graph.maps.hasDiagnostics ? graph.diagnostics.testClock as? CogTestClock : nil
    // Yields after the last work: each lets the main actor run one round of what is queued
    // (a resumed consumer, the turn of an element it was handed).
    var quietRounds = 0
    while quietRounds < 8 {
      let tasks = graph.turns.asyncRows.values.flatMap(\.finiteTasks)
      if graph.isDeliveringExports {
        // A consumer's value on its way back to the main actor: not quiet yet.
        quietRounds = 0
        await Task.yield()
      } else if tasks.count <= (clock?.sleeperCount ?? 0) {
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
