@_spi(Testing) import Cog
import Testing

// The public test API, used as an app's tests would: no `@_spi(Testing)` here.

@MainActor
@Suite("Test API: settle and the test clock")
struct TestAPISettleTests {
  @Test("settle awaits async work, including work that slept on the test clock")
  func settleAwaitsWork() async {
    let clock = CogTestClock()
    let query = Cog("a", label: "query")
    let results = Cog<String?>.Async(.latest, label: "results") { c in
      let q = c[query]
      return .run {
        try await clock.sleep(for: .seconds(1))
        return q.uppercased()
      }
    }
    let cogs = Cogs(clock: clock)
    #expect(cogs[results] == nil)
    // Work asleep on the context's test clock counts as settled (it waits for the test).
    await cogs.settle()
    #expect(clock.sleeperCount == 1 && cogs.status(of: results).isPending)
    clock.advance(by: .seconds(1))
    await cogs.settle()
    #expect(cogs[results] == "A")
    #expect(!cogs.status(of: results).isPending)
  }

  @Test("settle runs a queue's waiting work to the end")
  func settleDrainsQueue() async {
    let source = Cog(0, label: "source")
    let log = Cog<[Int]?>.Async(.queue, label: "log") { c in
      let n = c[source]
      let seen = c.curr ?? nil
      return .run {
        await Task.yield()
        return (seen ?? []) + [n]
      }
    }
    let cogs = Cogs()
    _ = cogs.react("reader") { c in _ = c[log] }
    cogs.turn("one") { w in w[source] = 1 }
    cogs.turn("two") { w in w[source] = 2 }
    await cogs.settle()
    #expect(cogs[log]?.last == 2)
    #expect(!cogs.status(of: log).isPending)
  }

  @Test("settle lets an export's consumer on the main actor receive the turn's value")
  func settleDeliversExports() async {
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    let values = cogs.export(count)
    var seen: [Int] = []
    let consumer = Task { @MainActor in
      for await v in values { seen.append(v) }
    }
    await cogs.settle()
    cogs.turn("increment") { w in w[count] = 1 }
    await cogs.settle()
    #expect(seen == [0, 1])
    values.cancel()
    await consumer.value
  }

  @Test("settle waits for the value of a consumer on the main actor however long its hop takes")
  func settleWaitsForExportHop() async {
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    let values = cogs.export(count)
    // The consumer's task comes back through this executor: held, after its first value, for
    // 100 yields.
    let held = HeldExecutor(holding: false)
    var seen: [Int] = []
    let consumer = Task { @MainActor in
      await withTaskExecutorPreference(held) {
        for await v in values { seen.append(v) }
      }
    }
    await cogs.settle()
    held.hold()
    cogs.turn("increment") { w in w[count] = 1 }
    let release = held.release(afterYields: 100)
    await cogs.settle()
    #expect(seen == [0, 1])
    await release.value
    values.cancel()
    await consumer.value
  }

  @Test("a consumer cancelled on its way into next() has ended its export when settle returns")
  func settleEndsConsumerCancelledOnItsWayIntoNext() async {
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    let values = cogs.export(count)
    // The stream's next() runs off the main actor: after its first value the consumer's way
    // there goes through this executor, held for 100 yields.
    let held = HeldExecutor(holding: false)
    var seen: [Int] = []
    let consumer = Task { @MainActor in
      await withTaskExecutorPreference(held) {
        for await v in values {
          seen.append(v)
          held.hold()
        }
      }
    }
    await cogs.settle()
    #expect(seen == [0])
    consumer.cancel()
    let release = held.release(afterYields: 100)
    await cogs.settle()
    #expect(values.isCancelled)
    await release.value
    await consumer.value
    #expect(values.isCancelled)
  }

  @Test("the test clock wakes sleepers in deadline order, at once when due, and on cancellation")
  func clock() async throws {
    let clock = CogTestClock()
    #expect(clock.now == CogTestClock.Instant(offset: .zero))
    var woke: [Int] = []
    let late = Task { @MainActor in
      try await clock.sleep(for: .seconds(2))
      woke.append(2)
    }
    let early = Task { @MainActor in
      try await clock.sleep(for: .seconds(1))
      woke.append(1)
    }
    while clock.sleeperCount < 2 { await Task.yield() }
    clock.advance(by: .milliseconds(500))
    #expect(clock.sleeperCount == 2)
    clock.advance(by: .seconds(5))
    try await late.value
    try await early.value
    #expect(woke.sorted() == [1, 2])
    #expect(clock.now.offset == .milliseconds(5500))
    // A deadline already reached returns at once.
    try await clock.sleep(until: clock.now, tolerance: nil)
    // Cancelling a sleeper throws CancellationError and forgets it.
    let cancelled = Task { @MainActor in try await clock.sleep(for: .seconds(1)) }
    while clock.sleeperCount < 1 { await Task.yield() }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test("cache retention runs on the test clock")
  func retention() {
    let clock = CogTestClock()
    let source = Cog(1, label: "source")
    let box = CogBox(label: "cached", lifetime: .cache(limit: 4, retention: .seconds(60))) {
      (k: Int, c) -> Int in c[source] + k
    }
    let cogs = Cogs(clock: clock)
    #expect(cogs[box[1]] == 2)
    cogs.turn("tick") { w in w[source] = 2 }
    #expect(cogs.hasRow(box[1]))
    clock.advance(by: .seconds(61))
    cogs.turn("tick") { w in w[source] = 3 }
    #expect(!cogs.hasRow(box[1]))
  }
}

@MainActor
@Suite("Test API: run counts and recompute budgets")
struct RunBudgetTests {
  /// A diamond whose left arm cuts off (parity) and a reaction at the bottom.
  struct Diamond {
    let source = Cog(1, label: "source")
    let parity: Cog<Bool>
    let doubled: Cog<Int>
    let sink: Cog<String>
    init() {
      parity = Cog(label: "parity") { [source] c in c[source] % 2 == 0 }
      doubled = Cog(label: "doubled") { [source] c in c[source] * 2 }
      sink = Cog(label: "sink") { [parity, doubled] c in "\(c[parity]) \(c[doubled])" }
    }
  }

  @Test("run counts per state and per reaction, from when counting was switched on")
  func counts() {
    let d = Diamond()
    let cogs = Cogs()
    cogs.countsRuns = true
    var seen: [String] = []
    let reaction = cogs.react("show") { c in seen.append(c[d.sink]) }
    #expect(cogs.runCount(of: d.sink) == 1 && cogs.runCount(of: reaction) == 1)
    cogs.turn("to 3") { w in w[d.source] = 3 }  // parity stays false; doubled changes
    #expect(cogs.runCount(of: d.parity) == 2)
    #expect(cogs.runCount(of: d.doubled) == 2)
    #expect(cogs.runCount(of: d.sink) == 2)
    #expect(cogs.runCount(of: reaction) == 2)
    #expect(cogs.runCount(of: d.source) == 0, "a manual state never runs")
    cogs.countsRuns = false
    cogs.countsRuns = true
    #expect(cogs.runCount(of: d.sink) == 0, "switching off forgets the counts")
    reaction.cancel()
    #expect(cogs.runCount(of: reaction) == 0)
  }

  @Test("rows made before counting was switched on are counted too; keyed states count per key")
  func countsRowsMadeBefore() {
    let source = Cog(1, label: "source")
    let box = CogBox(label: "times") { (k: Int, c) -> Int in c[source] * k }
    let cogs = Cogs()
    #expect(cogs[box[2]] == 2)
    cogs.countsRuns = true
    cogs.turn("set") { w in w[source] = 5 }
    #expect(cogs[box[2]] == 10 && cogs[box[3]] == 15)
    #expect(cogs.runCount(of: box[2]) == 1 && cogs.runCount(of: box[3]) == 1)
  }

  @Test("run counts go on after a cycle; a cycle while counting is off counts nothing")
  func countsAcrossACycle() {
    let close = Cog(false, label: "close")
    let seed = Cog(1, label: "seed")
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[close] ? c[late.value] + 1 : c[seed] }
    let b = Cog(label: "b") { c in c[a] * 10 }
    late.value = b
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    cogs.countsRuns = true
    var seen: [Int] = []
    cogs.react("show") { c in seen.append(c[b]) }
    cogs.turn("close") { w in w[close] = true }
    #expect(errors.count == 1)
    cogs.turn("open") { w in w[close] = false }
    let before = (cogs.runCount(of: a), cogs.runCount(of: b))
    cogs.turn("seed") { w in w[seed] = 4 }
    #expect(cogs.runCount(of: a) == before.0 + 1, "counted after the failing operation ended")
    #expect(cogs.runCount(of: b) == before.1 + 1)
    cogs.countsRuns = false
    cogs.turn("close again") { w in w[close] = true }
    cogs.turn("open again") { w in w[close] = false }
    cogs.countsRuns = true
    cogs.turn("seed again") { w in w[seed] = 5 }
    #expect(errors.count == 2)
    #expect(cogs.runCount(of: a) == 1 && cogs.runCount(of: b) == 1)
    #expect(seen.last == 50 && cogs[b] == 50)
  }

  @Test("a turn within its budget passes; the budget names the states that may run")
  func withinBudget() throws {
    let d = Diamond()
    let cogs = Cogs()
    let show = cogs.react("show") { c in _ = c[d.sink] }
    let reaction = cogs.react("also") { c in _ = c[d.parity] }
    // `also` reads parity, which stays false: it may run but does not.
    try cogs.expectRecomputes(atMost: [d.parity, d.doubled, d.sink, show, reaction]) {
      cogs.turn("to 3") { w in w[d.source] = 3 }
    }
    #expect(!cogs.countsRuns, "the budget counts only while it runs")
    let (_, ran) = cogs.recomputed { cogs.turn("to 5") { w in w[d.source] = 5 } }
    #expect(ran == ["doubled", "parity", "show", "sink"])
  }

  @Test("a turn beyond its budget throws an error naming the extra states")
  func beyondBudget() {
    let d = Diamond()
    let cogs = Cogs()
    _ = cogs.react("show") { c in _ = c[d.sink] }
    let error = #expect(throws: CogRecomputeBudgetExceeded.self) {
      try cogs.expectRecomputes(atMost: [d.doubled]) {
        cogs.turn("to 3") { w in w[d.source] = 3 }
      }
    }
    #expect(error?.extra == ["parity", "show", "sink"])
    #expect(
      error?.description == "recomputed 3 states beyond the budget [doubled]: parity, show, sink")
  }
}

@MainActor
@Suite("Test API: turn history")
struct TestAPIHistoryTests {
  @Test("the history records turns when switched on, in every build, and nothing when off")
  func history() {
    let a = Cog(0, label: "alpha")
    let cogs = Cogs()
    cogs.recordsHistory = false
    cogs.turn("unrecorded") { w in w[a] = 1 }
    #expect(cogs.history.isEmpty)
    cogs.recordsHistory = true
    cogs.turn("first") { w in w[a] = 2 }
    #expect(cogs.history.map(\.description) == ["#2 first [alpha]"])
    cogs.clearHistory()
    #expect(cogs.history.isEmpty)
  }
}
