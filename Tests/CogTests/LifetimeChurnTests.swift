@_spi(Testing) import Cog
import Testing

/// Lifetimes under churn (issue 9, findings 5–8 and 12): `.cache` limits count rows, not reads;
/// releasing a row collects what it alone kept alive; peeks do not pin rows; cancelled
/// reactions free what they held; retention runs on an injectable clock.
@MainActor
@Suite("Lifetimes under churn")
struct LifetimeChurnTests {
  @Test(".cache(limit: 1) keeps its row however many times it is read")
  func cacheLimitCountsRowsNotReads() {
    let runs = Runs()
    let source = Cog(3)
    let cached = Cog(lifetime: .cache(limit: 1, retention: .seconds(600))) { c -> Int in
      runs.hit("cached")
      return c[source] * 2
    }
    let cogs = Cogs()
    for _ in 0..<5 { #expect(cogs[cached] == 6) }
    #expect(cogs.hasRow(cached))
    #expect(runs["cached"] == 1)
  }

  @Test("a row released by the cache limit releases the .whileObserved rows only it read")
  func cacheEvictionCollectsDependencies() {
    let source = Cog(1)
    let inner = CogBox(label: "inner", lifetime: .whileObserved) { (k: Int, c) -> Int in
      c[source] + k
    }
    let outer = CogBox(label: "outer", lifetime: .cache(limit: 1, retention: .seconds(600))) {
      (k: Int, c) -> Int in c[inner[k]] * 2
    }
    let cogs = Cogs()
    #expect(cogs[outer[1]] == 4)
    #expect(cogs.hasRow(outer[1]) && cogs.hasRow(inner[1]))
    #expect(cogs[outer[2]] == 6)
    #expect(!cogs.hasRow(outer[1]))
    #expect(!cogs.hasRow(inner[1]))
    #expect(cogs.hasRow(outer[2]) && cogs.hasRow(inner[2]))
  }

  @Test("evict releases the rows the evicted row alone kept alive")
  func evictCollectsDependencies() {
    let source = Cog(1)
    let inner = Cog(lifetime: .whileObserved) { c in c[source] + 1 }
    let box = CogBox { (k: Int, c) -> Int in c[inner] + k }
    let cogs = Cogs()
    #expect(cogs[box[5]] == 7)
    #expect(cogs.hasRow(inner))
    #expect(cogs.evict(box[5]))
    #expect(!cogs.hasRow(box[5]) && !cogs.hasRow(inner))
  }

  @Test("rows first created by c.peek inside a body are collected like any unobserved row")
  func peekedRowsAreCollected() {
    let s = Cog(1)
    let t = Cog(10)
    let watched = Cog(label: "watched", lifetime: .whileObserved) { c in c[t] * 2 }
    let reader = Cog { c in c[s] + c.peek(watched) }
    let cogs = Cogs()
    #expect(cogs[reader] == 21)
    #expect(!cogs.hasRow(watched))
    for v in 2..<5 {
      cogs.turn("s") { w in w[s] = v }
      #expect(cogs[reader] == v + 20)
      #expect(!cogs.hasRow(watched))
    }
    // A .cache box read only by peeks stays within its limit.
    let cached = CogBox(lifetime: .cache(limit: 2, retention: .seconds(600))) { (k: Int, _) in k }
    let peeker = Cog { c in (0..<6).reduce(c[s]) { $0 + c.peek(cached[$1]) } }
    #expect(cogs[peeker] == 4 + 15)
    #expect((0..<6).filter { cogs.hasRow(cached[$0]) } == [4, 5])
  }

  @Test("10,000 reactions registered and cancelled leave nothing behind")
  func cancelledReactionsFreeWhatTheyHeld() {
    let s = Cog(0)
    let cogs = Cogs()
    let live = LiveCount()
    let rowsBefore = cogs.liveRowCount
    let ownersBefore = cogs.registeredOwnerCount
    for _ in 0..<10_000 {
      let token = Token(live)
      let reaction = cogs.react { c in
        _ = c[s]
        _ = token
      }
      reaction.cancel()
    }
    #expect(live.count == 0)
    #expect(cogs.registeredOwnerCount == ownersBefore + 1)  // s, read by the reactions
    #expect(cogs.liveRowCount == rowsBefore + 1)
    cogs.turn("s") { w in w[s] = 1 }
    #expect(live.count == 0)
  }

  @Test("cache retention runs on the context's clock, without waiting")
  func retentionUsesTheInjectedClock() {
    let clock = ManualClock()
    let box = CogBox(lifetime: .cache(limit: 10, retention: .seconds(60))) { (k: Int, _) in k }
    let s = Cog(0)
    let cogs = Cogs(clock: clock)
    #expect(cogs[box[1]] == 1)
    clock.advance(by: .seconds(30))
    #expect(cogs[box[2]] == 2)
    clock.advance(by: .seconds(31))
    cogs.turn("tick") { w in w[s] = 1 }
    #expect(!cogs.hasRow(box[1]))
    #expect(cogs.hasRow(box[2]))
    clock.advance(by: .seconds(30))
    cogs.turn("tick") { w in w[s] = 2 }
    #expect(!cogs.hasRow(box[2]))
  }

  @Test(
    "retention counts to the nanosecond: kept at one nanosecond before its deadline, gone at it")
  func retentionToTheNanosecond() {
    let clock = ManualClock()
    let box = CogBox(lifetime: .cache(limit: 10, retention: .nanoseconds(1500))) { (k: Int, _) in
      k
    }
    let s = Cog(0)
    let cogs = Cogs(clock: clock)
    #expect(cogs[box[1]] == 1)
    clock.advance(by: .nanoseconds(1499))
    cogs.turn("tick") { w in w[s] = 1 }
    #expect(cogs.hasRow(box[1]))
    clock.advance(by: .nanoseconds(1))
    cogs.turn("tick") { w in w[s] = 2 }
    #expect(!cogs.hasRow(box[1]))
  }

  @Test(
    "a retention past what 64-bit nanoseconds hold never ends, and a negative one ends at the next turn",
    arguments: [(Duration.seconds(Int64.max), true), (.seconds(-5), false)])
  func extremeRetention(retention: Duration, kept: Bool) {
    let clock = ManualClock()
    let box = CogBox(lifetime: .cache(limit: 10, retention: retention)) { (k: Int, _) in k }
    let s = Cog(0)
    let cogs = Cogs(clock: clock)
    #expect(cogs[box[1]] == 1)
    clock.advance(by: .seconds(3_000_000_000))  // 95 years
    cogs.turn("tick") { w in w[s] = 1 }
    #expect(cogs.hasRow(box[1]) == kept)
  }

  @Test(
    "retention is applied after turns: a read past the deadline keeps the row (up to date) until the next turn"
  )
  func retentionAtTurnsNotReads() {
    let clock = ManualClock()
    let runs = Runs()
    let s = Cog(0)
    let box = CogBox(lifetime: .cache(limit: 10, retention: .seconds(60))) { (k: Int, c) -> Int in
      runs.hit("item")
      return k + c[s]
    }
    let cogs = Cogs(clock: clock)
    #expect(cogs[box[1]] == 1)
    clock.advance(by: .seconds(61))
    // Past its deadline: reads (of it or of another cached state) do not look at the clock.
    #expect(cogs[box[1]] == 1)
    #expect(cogs[box[2]] == 2)
    #expect(cogs.hasRow(box[1]) && runs["item"] == 2)
    // The next turn expires it, whatever it writes (here nothing either box reads changes:
    // an equal write).
    cogs.turn("equal") { w in w[s] = 0 }
    #expect(!cogs.hasRow(box[1]) && cogs.hasRow(box[2]))
    // Retention bounds memory, not freshness: a kept row's value is never stale.
    cogs.turn("s") { w in w[s] = 10 }
    #expect(cogs[box[2]] == 12 && runs["item"] == 3)
    #expect(cogs[box[1]] == 11 && runs["item"] == 4)  // made afresh
  }
}

/// Counts live `Token`s.
@MainActor
final class LiveCount {
  var count = 0
}

@MainActor
final class Token {
  let live: LiveCount
  init(_ live: LiveCount) {
    self.live = live
    live.count += 1
  }
  isolated deinit { live.count -= 1 }
}

/// A clock that moves only when a test says so.
final class ManualClock: Clock, @unchecked Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
  }
  private(set) var now = Instant(offset: .zero)
  var minimumResolution: Duration { .nanoseconds(1) }
  func advance(by d: Duration) { now = now.advanced(by: d) }
  func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
