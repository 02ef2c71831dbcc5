import Testing

/// The async test doubles against `settle()`: a task the test resumes through a continuation
/// (a job's work, a feed's iterator) goes back through the global executor before it runs on
/// the main actor again, so `settle()` must wait for it rather than count yields. Here that
/// hop goes through an executor the test holds (the task's executor preference), released only
/// after many more main-actor yields than `settle()` makes.
@MainActor
@Suite("Async test doubles")
struct AsyncSupportTests {
  @Test("settle() waits for resolved work however long its hop back takes")
  func settleWaitsForResolvedWork() async {
    let held = HeldExecutor()
    let job = Job<Int>(input: 0)
    let seen = Seen<Int>()
    let task = Task { @MainActor in
      await withTaskExecutorPreference(held) {
        if let v = try? await job.wait() { seen.values.append(v) }
      }
    }
    await settle()
    job.succeed(7)
    let release = held.release(afterYields: 100)
    await settle()
    #expect(seen.values == [7])
    await release.value
    await task.value
  }

  @Test("settle() waits for a sent element however long its iterator's hop back takes")
  func settleWaitsForSentElement() async {
    let held = HeldExecutor()
    let feed = Feed<Int>(name: 0)
    let seen = Seen<Int>()
    let task = Task { @MainActor in
      await withTaskExecutorPreference(held) {
        for await v in feed.sequence { seen.values.append(v) }
      }
    }
    await settle()
    feed.send(7)
    let release = held.release(afterYields: 100)
    await settle()
    #expect(seen.values == [7])
    await release.value
    feed.end()
    await task.value
  }

  // A task on a `TrackedExecutor` that waits in an `AsyncStream` (as the differential test's
  // export consumers do): its iterator runs off the main actor, so the task hops there when it
  // calls `next()` and back when a value or the end arrives. Every hop here waits 1,000
  // yields (more than the other tests hold theirs: settle() waits for those too).

  @Test("settle() waits for a stream's value on its way to a task on a TrackedExecutor")
  func settleWaitsForStreamValue() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let seen = Seen<Int>()
    let task = Task { @MainActor in
      await withTaskExecutorPreference(TrackedExecutor(holdFor: 1_000)) {
        for await v in stream { seen.values.append(v) }
      }
    }
    await settle()
    continuation.yield(7)
    await settle()
    #expect(seen.values == [7])
    continuation.finish()
    await task.value
  }

  @Test("settle() waits for a task on its way into a stream's next(), so that it can be cancelled")
  func settleWaitsForTheWayIntoNext() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let ended = Seen<Bool>()
    continuation.onTermination = { _ in Task { @MainActor in ended.values.append(true) } }
    let task = Task { @MainActor in
      await withTaskExecutorPreference(TrackedExecutor(holdFor: 1_000)) {
        for await _ in stream {}
      }
    }
    // The task waits in the stream's next() once settled: cancelling it ends the stream at once.
    await settle()
    task.cancel()
    await settle()
    #expect(ended.values == [true])
    await task.value
  }
}
