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
}
