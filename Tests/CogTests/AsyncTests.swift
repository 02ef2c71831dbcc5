@_spi(Testing) import Cog
import Testing

// Async cogs (swift/0004-async-cogs.md): each policy's ordering and cancellation, streams,
// pending and failure as values, async generations. The tests decide when every piece of work
// finishes (`Job`) and when every element arrives (`Feed`); `settle()` lets the main actor run
// what that queued. No sleeps.

@MainActor
@Suite("Async")
struct AsyncTests {
  // MARK: .latest

  @Test(".latest: pending while in flight, then the result publishes in a turn of its own")
  func latestPublishes() async {
    let jobs = Jobs<Int>()
    let zip = Cog(1, label: "zip")
    let forecast = Cog<Int?>.Async(.latest, label: "forecast") { c in
      let job = jobs.start(c[zip])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in
      seen.values.append(c[forecast])
      seen.statuses.append(c.status(of: forecast))
    }
    #expect(seen.values == [nil] && seen.pending == [true])
    #expect(jobs.inputs == [1])
    jobs[0].succeed(10)
    await settle()
    #expect(seen.values == [nil, 10] && seen.pending == [true, false])
    #expect(cogs[forecast] == 10 && !cogs.status(of: forecast).isPending)
    #expect(cogs.asyncTasks(of: forecast).isEmpty)
    #if DEBUG
      // The result's turn is named after the cog, and touched it.
      let last = cogs.history.last!
      #expect(last.op == "forecast" && last.touched.contains("forecast"))
    #endif
  }

  @Test(".latest: a change cancels the work in flight; only the newest work publishes")
  func latestRestarts() async {
    let jobs = Jobs<Int>()
    let zip = Cog(1, label: "zip")
    let forecast = Cog<Int?>.Async(.latest) { c in
      let job = jobs.start(c[zip])
      return .run { try await job.wait() * 10 }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in seen.values.append(c[forecast]) }
    let first = cogs.asyncTasks(of: forecast)
    let generation = cogs.asyncGeneration(of: forecast)!
    cogs.turn("zip") { w in w[zip] = 2 }
    await settle()
    // The change restarted the work: the first job was cancelled, the second runs.
    #expect(jobs.inputs == [1, 2])
    #expect(jobs[0].wasCancelled && !jobs[1].wasCancelled)
    #expect(cogs.asyncGeneration(of: forecast) == generation &+ 1)
    await first[0].value  // the cancelled task is done, and published nothing
    #expect(seen.values == [nil])
    #expect(cogs.status(of: forecast).isPending && cogs.status(of: forecast).failure == nil)
    jobs[1].succeed(2)
    await settle()
    #expect(seen.values == [nil, 20])
  }

  @Test(".latest: a late result of restarted work (ignoring cancellation) is dropped")
  func latestLateResultAfterRestart() async {
    let jobs = Jobs<Int>()
    let zip = Cog(1)
    let forecast = Cog<Int?>.Async(.latest) { c in
      let job = jobs.start(c[zip])
      job.ignoresCancellation = true
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in seen.values.append(c[forecast]) }
    cogs.turn("zip") { w in w[zip] = 2 }
    jobs[1].succeed(2)
    await settle()
    #expect(seen.values == [nil, 2])
    // The first work finishes last, for the old zip: its generation is gone.
    #expect(jobs[0].wasCancelled)
    jobs[0].succeed(1)
    await settle()
    #expect(seen.values == [nil, 2] && cogs[forecast] == 2)
  }

  @Test(".latest: cancellation reaches the work as CancellationError and is not a failure")
  func cancellationIsNotAFailure() async {
    let zip = Cog(1)
    let observed = Seen<String>()
    let forecast = Cog<Int?>.Async(.latest) { c in
      let z = c[zip]
      return .run {
        do {
          try await Job<Int>(input: z).wait()
        } catch is CancellationError {
          observed.values.append("cancelled \(z), isCancelled \(Task.isCancelled)")
          throw CancellationError()
        }
        return z
      }
    }
    let cogs = Cogs()
    cogs.react("view") { c in _ = c[forecast] }
    let first = cogs.asyncTasks(of: forecast)[0]
    cogs.turn("zip") { w in w[zip] = 2 }
    await first.value
    #expect(observed.values == ["cancelled 1, isCancelled true"])
    #expect(cogs.status(of: forecast).failure == nil && cogs.status(of: forecast).isPending)
  }

  // MARK: .queue

  @Test(".queue: one at a time, in the order of the changes; every result publishes in order")
  func queueOrder() async {
    let jobs = Jobs<Int>()
    let n = Cog(1, label: "n")
    let q = Cog<Int?>.Async(.queue) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in
      seen.values.append(c[q])
      seen.statuses.append(c.status(of: q))
    }
    cogs.turn("n") { w in w[n] = 2 }
    cogs.turn("n") { w in w[n] = 3 }
    // Three bodies ran (three pieces of work queued); only the first has started.
    #expect(jobs.inputs == [1, 2, 3])
    #expect(cogs.asyncTasks(of: q).count == 1)
    jobs[0].succeed(100)
    await settle()
    #expect(seen.values.last == 100 && seen.statuses.last!.isPending)
    #expect(cogs.asyncTasks(of: q).count == 1)
    jobs[1].succeed(200)
    await settle()
    jobs[2].succeed(300)
    await settle()
    #expect(seen.values.compactMap { $0 } == [100, 200, 300])
    #expect(!cogs.status(of: q).isPending)
    #expect(jobs.all.allSatisfy { !$0.wasCancelled })
  }

  @Test(".queue: a failure publishes as the status; the queue goes on; a success clears it")
  func queueFailure() async {
    let jobs = Jobs<Int>()
    let n = Cog(1)
    let q = Cog<Int?>.Async(.queue) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in
      seen.values.append(c[q])
      seen.statuses.append(c.status(of: q))
    }
    jobs[0].succeed(1)
    await settle()
    cogs.turn("n") { w in w[n] = 2 }
    cogs.turn("n") { w in w[n] = 3 }
    jobs[1].fail(TestFailure(code: 2))
    await settle()
    // The value keeps the last good result; the failure is a value of its own.
    #expect(cogs[q] == 1)
    #expect((cogs.status(of: q).failure as? TestFailure) == TestFailure(code: 2))
    #expect(cogs.status(of: q).isPending)  // the third work runs
    jobs[2].succeed(3)
    await settle()
    #expect(cogs[q] == 3 && cogs.status(of: q).failure == nil && !cogs.status(of: q).isPending)
    #expect(seen.values.last == 3)
  }

  @Test(
    "a success clears the failure while other work is still pending (.queue, .merged, .exhaustLatest)",
    arguments: [CogRunPolicy.queue, .merged, .exhaustLatest])
  func successClearsFailureWhilePending(policy: CogRunPolicy) async {
    let jobs = Jobs<Int>()
    let n = Cog(1)
    let q = Cog<Int?>.Async(policy) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in seen.statuses.append(c.status(of: q)) }
    cogs.turn("a") { w in w[n] = 2 }
    cogs.turn("b") { w in w[n] = 3 }
    jobs[0].fail(TestFailure(code: 1))
    await settle()
    #expect(cogs.status(of: q).isPending && cogs.status(of: q).failure != nil)
    #expect(seen.statuses.last!.failure != nil)
    cogs.turn("c") { w in w[n] = 4 }
    // Work for 1, 2, 3, 4. In flight now: .queue the work for 2; .merged all three left;
    // .exhaustLatest the work for 3 (started when 1 failed; 2's was replaced), 4's waiting.
    let next = policy == .exhaustLatest ? 2 : 1
    jobs[next].succeed(20)
    await settle()
    #expect(cogs[q] == 20)
    #expect(cogs.status(of: q).isPending && cogs.status(of: q).failure == nil)
    // The reaction saw the cleared failure.
    #expect(seen.statuses.last!.failure == nil && seen.statuses.last!.isPending)
  }

  // MARK: .merged

  @Test(".merged: work overlaps; results in order all publish")
  func mergedInOrder() async {
    let jobs = Jobs<Int>()
    let n = Cog(1)
    let m = Cog<Int?>.Async(.merged) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in seen.values.append(c[m]) }
    cogs.turn("n") { w in w[n] = 2 }
    cogs.turn("n") { w in w[n] = 3 }
    #expect(cogs.asyncTasks(of: m).count == 3)  // all three in flight at once
    for i in 0..<3 {
      jobs[i].succeed(i + 1)
      await settle()
    }
    #expect(seen.values == [nil, 1, 2, 3])
    #expect(!cogs.status(of: m).isPending)
  }

  @Test(".merged: a result finishing after a newer one is dropped (no going back)")
  func mergedOutOfOrder() async {
    let jobs = Jobs<Int>()
    let n = Cog(1)
    let m = Cog<Int?>.Async(.merged) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in
      seen.values.append(c[m])
      seen.statuses.append(c.status(of: m))
    }
    cogs.turn("n") { w in w[n] = 2 }
    cogs.turn("n") { w in w[n] = 3 }
    jobs[1].succeed(2)  // the second finishes first: publishes
    await settle()
    #expect(seen.values.last == 2 && seen.statuses.last!.isPending)
    jobs[0].succeed(1)  // older than the published one: dropped
    await settle()
    #expect(cogs[m] == 2 && seen.values.compactMap { $0 } == [2])
    #expect(cogs.status(of: m).isPending)  // the third is still in flight
    jobs[2].succeed(3)
    await settle()
    #expect(seen.values.compactMap { $0 } == [2, 3] && !cogs.status(of: m).isPending)
    #expect(jobs.all.allSatisfy { !$0.wasCancelled })
  }

  // MARK: .exhaustLatest

  @Test(".exhaustLatest: changes in flight start nothing; afterwards one run with the newest")
  func exhaustLatest() async {
    let jobs = Jobs<Int>()
    let n = Cog(1)
    let e = Cog<Int?>.Async(.exhaustLatest) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in seen.values.append(c[e]) }
    cogs.turn("n") { w in w[n] = 2 }
    cogs.turn("n") { w in w[n] = 3 }
    #expect(cogs.asyncTasks(of: e).count == 1)  // only the first runs
    jobs[0].succeed(10)
    await settle()
    // The first result published; then one more run, with the newest state (3).
    #expect(seen.values == [nil, 10])
    #expect(cogs.asyncTasks(of: e).count == 1 && cogs.status(of: e).isPending)
    jobs[2].succeed(30)
    await settle()
    #expect(seen.values == [nil, 10, 30] && !cogs.status(of: e).isPending)
    // The work built for 2 never ran: it was replaced by the one for 3.
    #expect(!jobs[1].isDone && !jobs[1].wasCancelled)
  }

  @Test(".exhaustLatest: no change while in flight, no second run")
  func exhaustLatestNoRerun() async {
    let jobs = Jobs<Int>()
    let n = Cog(1)
    let e = Cog<Int?>.Async(.exhaustLatest) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    cogs.react("view") { c in _ = c[e] }
    jobs[0].succeed(10)
    await settle()
    #expect(jobs.count == 1 && cogs.asyncTasks(of: e).isEmpty && cogs[e] == 10)
  }

  // MARK: Lazy inputs

  @Test("an unobserved async cog catches up when its result arrives: outdated work is dropped")
  func unobservedCatchesUp() async {
    let jobs = Jobs<Int>()
    let zip = Cog(1)
    let forecast = Cog<Int?>.Async(.latest) { c in
      let job = jobs.start(c[zip])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    #expect(cogs[forecast] == nil)  // a read starts the work
    cogs.turn("zip") { w in w[zip] = 2 }  // nobody reads it: no restart yet
    #expect(jobs.count == 1)
    jobs[0].succeed(1)
    await settle()
    // The result's turn ran the body first: the new zip restarted the work, and the result
    // for the old zip was dropped.
    #expect(jobs.inputs == [1, 2] && cogs.peekValue(forecast) == nil)
    jobs[1].succeed(2)
    await settle()
    #expect(cogs[forecast] == 2)
  }

  // MARK: Failures

  @Test(".latest: a thrown error is a failure; the value keeps the last good result")
  func latestFailure() async {
    let jobs = Jobs<Int>()
    let zip = Cog(1)
    let forecast = Cog.Async(.latest, initial: 0) { c in
      let job = jobs.start(c[zip])
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let seen = Seen<Int>()
    cogs.react("view") { c in
      seen.values.append(c[forecast])
      seen.statuses.append(c.status(of: forecast))
    }
    jobs[0].succeed(5)
    await settle()
    cogs.turn("zip") { w in w[zip] = 2 }
    jobs[1].fail(TestFailure(code: 7))
    await settle()
    #expect(seen.values == [0, 5, 5, 5])
    #expect(seen.pending == [true, false, true, false])
    #expect((seen.statuses.last!.failure as? TestFailure) == TestFailure(code: 7))
    // The same failure again is a new failure: the status changes.
    cogs.turn("zip") { w in w[zip] = 3 }
    jobs[2].fail(TestFailure(code: 7))
    await settle()
    #expect(seen.statuses.count == 6 && seen.statuses.last!.failure != nil)
    cogs.turn("zip") { w in w[zip] = 4 }
    jobs[3].succeed(8)
    await settle()
    #expect(seen.values.last == 8 && seen.statuses.last!.failure == nil)
  }

  @Test("a cog that is not async reads as idle")
  func syncStatus() {
    let a = Cog(1)
    let b = Cog { c in c[a] + 1 }
    let cogs = Cogs()
    #expect(!cogs.status(of: a).isPending && cogs.status(of: b).failure == nil)
  }

  // MARK: Streams

  @Test(".stream: each changed element publishes in its own turn; equal elements do nothing")
  func streamElements() async {
    let feeds: [Feed<Int>] = [Feed(name: 0)]
    let source = Cog(0)
    let location = Cog<Int?>.Async(.latest, label: "location") { c in
      .stream(feeds[c[source]].sequence)
    }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in
      seen.values.append(c[location])
      seen.statuses.append(c.status(of: location))
    }
    await settle()
    #expect(seen.values == [nil] && seen.pending == [true])
    #if DEBUG
      let turns = cogs.history.count
    #endif
    feeds[0].send(1)
    await settle()
    feeds[0].send(1)  // equal: nothing changes, the reaction does not run
    await settle()
    feeds[0].send(2)
    await settle()
    #expect(seen.values == [nil, 1, 2])
    #expect(seen.pending == [true, false, false])
    #if DEBUG
      // Three elements, three turns, each named after the cog.
      let entries = cogs.history.suffix(cogs.history.count - turns)
      #expect(entries.map(\.op) == ["location", "location", "location"])
    #endif
    feeds[0].end()
    await settle()
    #expect(cogs.asyncTasks(of: location).isEmpty && cogs[location] == 2)
  }

  @Test(".stream: a dependency change cancels the old sequence and starts the new one")
  func streamRestart() async {
    let feeds = [Feed<Int>(name: 0), Feed<Int>(name: 1)]
    let accuracy = Cog(0, label: "accuracy")
    let location = Cog<Int?>.Async(.latest) { c in .stream(feeds[c[accuracy]].sequence) }
    let cogs = Cogs()
    let seen = Seen<Int?>()
    cogs.react("view") { c in
      seen.values.append(c[location])
      seen.statuses.append(c.status(of: location))
    }
    await settle()
    feeds[0].send(1)
    await settle()
    let old = cogs.asyncTasks(of: location)
    cogs.turn("accuracy") { w in w[accuracy] = 1 }
    await old[0].value
    await settle()
    #expect(feeds[0].wasCancelled && feeds[1].iterators == 1)
    // Until the new sequence's first element, the state keeps the last one and is pending.
    #expect(cogs[location] == 1 && cogs.status(of: location).isPending)
    feeds[0].send(99)  // the old sequence is gone: nothing
    feeds[1].send(5)
    await settle()
    #expect(seen.values == [nil, 1, 1, 5])
    #expect(!cogs.status(of: location).isPending)
  }

  @Test(".stream: a failure is the status; the value keeps the last element")
  func streamFailure() async {
    let zip = Cog(0)
    let failing = Cog<Int?>.Async(.latest) { c in
      let z = c[zip]
      return .stream(
        AsyncThrowingStream<Int, any Error> { continuation in
          continuation.yield(z + 1)
          continuation.finish(throwing: TestFailure(code: z))
        })
    }
    let cogs = Cogs()
    cogs.react("view") { c in _ = c[failing] }
    while !cogs.asyncTasks(of: failing).isEmpty { await cogs.asyncTasks(of: failing)[0].value }
    #expect(cogs[failing] == 1)
    #expect((cogs.status(of: failing).failure as? TestFailure) == TestFailure(code: 0))
    #expect(!cogs.status(of: failing).isPending)
  }

  // MARK: Generations and lifetimes

  @Test("releasing a .whileObserved async row cancels its task first; a late result lands nowhere")
  func lateResultAfterRelease() async {
    let jobs = Jobs<Int>()
    let zip = Cog(1)
    let forecast = Cog<Int?>.Async(.latest, lifetime: .whileObserved) { c in
      let job = jobs.start(c[zip])
      job.ignoresCancellation = true
      return .run { try await job.wait() }
    }
    let cogs = Cogs()
    let reaction = cogs.react("view") { c in _ = c[forecast] }
    let slot = cogs.slotIndex(of: forecast)!
    let task = cogs.asyncTasks(of: forecast)[0]
    reaction.cancel()
    #expect(!cogs.hasRow(forecast) && task.isCancelled)
    await settle()
    #expect(jobs[0].wasCancelled)
    // The slot is reused by another row; the late result must not touch it.
    let other = Cog(lifetime: .whileObserved) { c in c[zip] * 1000 }
    let lease = cogs.lease(other)
    #expect(cogs[other] == 1000)
    let reused = cogs.slotIndex(of: other)
    jobs[0].succeed(42)
    await task.value
    #expect(cogs[other] == 1000)
    #expect(reused == slot)
    // The cog comes back with a fresh row, and starts over.
    let again = cogs.react("again") { c in _ = c[forecast] }
    #expect(jobs.count == 2 && cogs.peekValue(forecast) == nil)
    again.cancel()
    lease.end()
  }

  @Test("a context that goes away cancels the work in flight")
  func contextGoesAway() async {
    let jobs = Jobs<Int>()
    let forecast = Cog<Int?>.Async(.latest) { _ in
      let job = jobs.start(0)
      return .run { try await job.wait() }
    }
    var cogs: Cogs? = Cogs()
    _ = cogs![forecast]
    let task = cogs!.asyncTasks(of: forecast)[0]
    cogs = nil
    await task.value
    #expect(jobs[0].wasCancelled)
  }

  @Test("status readers rerun when work starts and ends, in consistent turns")
  func statusOnly() async {
    let jobs = Jobs<Int>()
    let n = Cog(1)
    let a = Cog<Int?>.Async(.latest) { c in
      let job = jobs.start(c[n])
      return .run { try await job.wait() }
    }
    let label = Cog { c -> String in
      let s = c.status(of: a)
      return s.isPending ? "loading" : "\(c[a] ?? 0)"
    }
    let cogs = Cogs()
    var seen: [String] = []
    cogs.react("view") { c in seen.append(c[label]) }
    #expect(seen == ["loading"])
    jobs[0].succeed(1)
    await settle()
    cogs.turn("n") { w in w[n] = 2 }
    #expect(seen == ["loading", "1", "loading"])
    jobs[1].succeed(2)
    await settle()
    #expect(seen == ["loading", "1", "loading", "2"])
  }
}

extension Cogs {
  /// The current value of `cog` without starting anything new when it is up to date (a read
  /// outside any body; for the tests' expectations).
  func peekValue<T>(_ cog: Cog<T>) -> T { self[cog] }
}

// MARK: - The README's taste of the API, compiled and run

private func fetchForecast(_ n: Int) async throws -> Int { n * 10 }

private func ticks(every n: Int) -> AsyncStream<Int> {
  AsyncStream { continuation in
    continuation.yield(n)
    continuation.finish()
  }
}

@MainActor
@Suite("Async README")
struct AsyncReadmeTests {
  @Test("the README's async cogs compile and publish")
  func readmeTaste() async {
    let countCog = Cog(0, label: "count")
    let forecastCog = Cog<Int?>.Async(.latest) { c in
      let n = c[countCog]
      return .run { try await fetchForecast(n) }
    }
    let tickCog = Cog<Int?>.Async(.latest) { c in
      .stream(ticks(every: c[countCog]))
    }
    let cogs = Cogs()
    var lines: [String] = []
    cogs.react("forecast") { c in
      let s = c.status(of: forecastCog)
      lines.append(s.isPending ? "loading" : "\(c[forecastCog] ?? 0)")
    }
    _ = cogs[tickCog]
    cogs.turn("increment") { w in w[countCog] += 1 }
    for cog in [forecastCog, tickCog] {
      while let t = cogs.asyncTasks(of: cog).first { await t.value }
    }
    #expect(lines.last == "10" && cogs[forecastCog] == 10)
    #expect(cogs[tickCog] == 1)
  }
}
