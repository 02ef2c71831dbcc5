@_spi(Testing) import Cog
import Testing

/// Exports (seed 000 §8, issue 15): an `AsyncSequence` per subscriber, newest wins, turns
/// never wait, and ending the subscription (cancel, task cancellation, drop) returns its lease.
@MainActor
@Suite("Exports")
struct ExportTests {
  @Test("an export yields the current value, then the value after each turn that changed it")
  func followsTurns() async {
    let count = Cog(0, label: "count")
    let doubled = Cog { c in c[count] * 2 }
    let cogs = Cogs()
    let values = cogs.export(doubled)
    var it = values.makeAsyncIterator()
    #expect(await it.next() == 0)
    cogs.turn("1") { w in w[count] = 1 }
    #expect(await it.next() == 2)
    values.cancel()
    #expect(await it.next() == nil)
  }

  @Test("a slow consumer never holds up a turn and gets the newest value")
  func slowConsumerNewestWins() async {
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    let values = cogs.export(count)
    var it = values.makeAsyncIterator()
    #expect(await it.next() == 0)
    // 1,000 turns while the consumer sleeps: each one completes at once (they run here,
    // synchronously, with nobody draining the buffer); the buffer keeps only the newest.
    for i in 1...1000 { cogs.turn("tick") { w in w[count] = i } }
    #expect(await it.next() == 1000)
    // Equal writes offer nothing new; the next real change arrives.
    cogs.turn("equal") { w in w[count] = 1000 }
    cogs.turn("next") { w in w[count] = 1001 }
    #expect(await it.next() == 1001)
    values.cancel()
  }

  @Test(
    "a consumer that keeps up gets every value, in order; turns that end while it is busy leave the newest"
  )
  func keepingUpGetsEveryValue() async {
    let count = Cog(0)
    let cogs = Cogs()
    let values = cogs.export(count)
    let consumer = BusyConsumer()
    let task = Task { @MainActor in for await v in values { consumer.seen.append(v) } }
    await settle()
    // Each turn ends while the consumer waits in next(): no coalescing (as Observation's
    // `Observations` would do), one value per turn.
    for i in 1...3 {
      cogs.turn("tick") { w in w[count] = i }
      await settle()
    }
    #expect(consumer.seen == [0, 1, 2, 3])
    // Three turns back to back: the first hands 4 to the waiting consumer; 5 and 6 end
    // while it has not run yet, and the buffer keeps the newest.
    for i in 4...6 { cogs.turn("tick") { w in w[count] = i } }
    await settle()
    #expect(consumer.seen == [0, 1, 2, 3, 4, 6])
    values.cancel()
    await task.value
  }

  @Test("each subscriber has its own buffer")
  func subscribersAreIndependent() async {
    let count = Cog(0)
    let cogs = Cogs()
    let fast = cogs.export(count)
    let slow = cogs.export(count)
    var f = fast.makeAsyncIterator()
    var s = slow.makeAsyncIterator()
    #expect(await f.next() == 0)
    cogs.turn("1") { w in w[count] = 1 }
    #expect(await f.next() == 1)
    cogs.turn("2") { w in w[count] = 2 }
    #expect(await f.next() == 2)
    // The slow one missed 0 and 1 being consumed, but gets the newest.
    #expect(await s.next() == 2)
    fast.cancel()
    slow.cancel()
  }

  @Test("cancelling an export returns its lease: a .whileObserved row can go; twice is harmless")
  func cancelTwice() {
    let a = Cog(1)
    let tripled = Cog(lifetime: .whileObserved) { c in c[a] * 3 }
    let cogs = Cogs()
    let values = cogs.export(tripled)
    #expect(cogs.hasRow(tripled))
    #expect(cogs.watcherCount == 1)
    let copy = values
    values.cancel()
    #expect(values.isCancelled && copy.isCancelled)
    #expect(!cogs.hasRow(tripled))
    #expect(cogs.watcherCount == 0)
    values.cancel()
    copy.cancel()
    #expect(!cogs.hasRow(tripled))
    // The same cog can be exported again, afresh.
    let again = cogs.export(tripled)
    #expect(cogs.hasRow(tripled))
    again.cancel()
    #expect(!cogs.hasRow(tripled))
  }

  @Test("cancelling the consuming task ends the subscription and returns the lease")
  func taskCancellation() async {
    let a = Cog(1)
    let tripled = Cog(lifetime: .whileObserved) { c in c[a] * 3 }
    let cogs = Cogs()
    let values = cogs.export(tripled)
    let consumer = Task {
      var seen: [Int] = []
      for await v in values { seen.append(v) }
      return seen
    }
    cogs.turn("a") { w in w[a] = 2 }
    consumer.cancel()
    consumer.cancel()
    let seen = await consumer.value
    #expect(seen.last.map { $0 == 3 || $0 == 6 } ?? true)
    // The loop's last call to next() ended the subscription before it returned nil.
    #expect(!cogs.hasRow(tripled))
    #expect(values.isCancelled)
    values.cancel()
  }

  @Test(
    "a consuming task cancelled while its loop body is busy ends the subscription at its next call to next()"
  )
  func taskCancelledWhileBusy() async {
    let a = Cog(1)
    let tripled = Cog(lifetime: .whileObserved) { c in c[a] * 3 }
    let cogs = Cogs()
    let values = cogs.export(tripled)
    let consumer = BusyConsumer()
    let task = Task { @MainActor in
      for await v in values {
        consumer.seen.append(v)
        if consumer.seen.count == 1 { await withCheckedContinuation { consumer.busy = $0 } }
      }
      consumer.loopEnded = (values.isCancelled, cogs.hasRow(tripled))
    }
    for _ in 0..<100 where consumer.busy == nil { await Task.yield() }
    #expect(consumer.seen == [3])
    task.cancel()
    cogs.turn("a") { w in w[a] = 2 }  // buffered for the busy consumer
    await settle()
    // Nothing of the export's runs in the consumer's task while its body is busy, and Swift
    // has no cancellation hook outside such a scope: the subscription (and its lease) holds.
    #expect(!values.isCancelled && cogs.hasRow(tripled))
    consumer.busy!.resume()
    await task.value
    // Its next call to next() returned nil, without the buffered 6, and ended the
    // subscription before returning: the loop ended with the lease already given back.
    #expect(consumer.seen == [3])
    #expect(consumer.loopEnded.map { $0 == (true, false) } == true)
    #expect(values.isCancelled && !cogs.hasRow(tripled) && cogs.watcherCount == 0)
  }

  @Test("dropping the sequence (and its iterator) ends the subscription")
  func dropping() async {
    let a = Cog(1)
    let tripled = Cog(lifetime: .whileObserved) { c in c[a] * 3 }
    let cogs = Cogs()
    do {
      let values = cogs.export(tripled)
      _ = values.makeAsyncIterator()
      #expect(cogs.hasRow(tripled))
    }
    // The subscription's last reference went on the main actor; its isolated deinit runs as
    // the main actor's next job.
    for _ in 0..<100 where cogs.hasRow(tripled) { await Task.yield() }
    #expect(!cogs.hasRow(tripled))
    #expect(cogs.watcherCount == 0)
  }

  @Test("an export's sequence finishes when its context goes away")
  func contextEnds() async {
    let a = Cog(1)
    var cogs: Cogs? = Cogs()
    let values = cogs!.export(a)
    var it = values.makeAsyncIterator()
    #expect(await it.next() == 1)
    cogs = nil
    #expect(await it.next() == nil)
    values.cancel()
  }

  @Test("exports of keyed states")
  func keyed() async {
    let base = Cog(1)
    let box = CogBox(lifetime: .whileObserved) { (k: Int, c) in c[base] * k }
    let cogs = Cogs()
    let values = cogs.export(box[5])
    var it = values.makeAsyncIterator()
    #expect(await it.next() == 5)
    cogs.turn("base") { w in w[base] = 2 }
    #expect(await it.next() == 10)
    values.cancel()
    #expect(!cogs.hasRow(box[5]))
  }
}

/// A consumer whose loop body waits until the test lets it go.
@MainActor
private final class BusyConsumer {
  var busy: CheckedContinuation<Void, Never>?
  var seen: [Int] = []
  /// `isCancelled` and whether the row lived, as the loop saw them when it ended.
  var loopEnded: (Bool, Bool)?
}
