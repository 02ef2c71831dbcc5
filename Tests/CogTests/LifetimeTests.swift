@_spi(Testing) import Cog
import CogCore
import Testing

@MainActor
@Suite("Lifetime")
struct LifetimeTests {
  @Test(
    ".whileObserved rows go with their last subscriber and come back through the same reference")
  func whileObserved() {
    let runs = Runs()
    let source = Cog(2, label: "source")
    let squares = CogBox(label: "square", lifetime: .whileObserved) { (k: Int, c) -> Int in
      runs.hit("square \(k)")
      return c[source] * k * k
    }
    let cogs = Cogs()
    var seen: [Int] = []
    let reaction = cogs.react("watch") { c in seen.append(c[squares[3]]) }
    #expect(seen == [18])
    #expect(cogs.hasRow(squares[3]))
    let generation = cogs.generation(of: squares[3])

    reaction.cancel()
    #expect(!cogs.hasRow(squares[3]))

    // The same value reference makes a fresh row: the body runs again.
    #expect(cogs[squares[3]] == 18)
    #expect(runs["square 3"] == 2)
    // Read from outside with nothing observing it, the row is released again after the read.
    #expect(!cogs.hasRow(squares[3]))
    _ = generation
  }

  @Test("a released slot is reused with a bumped generation")
  func generationBump() {
    let source = Cog(1)
    let box = CogBox(lifetime: .whileObserved) { (k: Int, c) -> Int in c[source] + k }
    let cogs = Cogs()
    let lease = cogs.lease(box[1])
    #expect(cogs[box[1]] == 2)
    let first = cogs.generation(of: box[1])!
    let slot = cogs.slotIndex(of: box[1])!
    lease.end()
    #expect(!cogs.hasRow(box[1]))
    // The next row takes the freed slot, one generation later.
    let lease2 = cogs.lease(box[7])
    #expect(cogs.slotIndex(of: box[7]) == slot)
    #expect(cogs.generation(of: box[7]) == first &+ 1)
    lease2.end()
  }

  @Test("a lease keeps a .whileObserved cog alive between reads")
  func lease() {
    let runs = Runs()
    let source = Cog(1)
    let derived = Cog(lifetime: .whileObserved) { c -> Int in
      runs.hit("derived")
      return c[source] + 1
    }
    let cogs = Cogs()
    let lease = cogs.lease(derived)
    #expect(cogs[derived] == 2)
    #expect(cogs[derived] == 2)
    #expect(runs["derived"] == 1)
    lease.end()
    #expect(!cogs.hasRow(derived))
  }

  @Test(".cache keeps at most `limit` unobserved rows")
  func cacheLimit() {
    let box = CogBox(lifetime: .cache(limit: 2, retention: .seconds(600))) { (k: Int, _) -> Int in
      k * 2
    }
    let cogs = Cogs()
    for k in 0..<5 { #expect(cogs[box[k]] == k * 2) }
    let kept = (0..<5).filter { cogs.hasRow(box[$0]) }
    #expect(kept == [3, 4])
  }

  @Test("manual and default automatic cogs live as long as the context")
  func contextLifetime() {
    let a = Cog(1)
    let b = Cog { c in c[a] + 1 }
    let cogs = Cogs()
    _ = cogs[b]
    #expect(cogs.hasRow(a) && cogs.hasRow(b))
  }

  @Test("the collector's queue holds only rows it may release or cache, in a sweep every row")
  func orphanQueueKeepsCollectableRows() {
    let plain = Cog(1, label: "plain")
    let automatic = Cog(label: "automatic") { c in c[plain] + 1 }
    let observed = Cog(label: "observed", lifetime: .whileObserved) { c in c[plain] + 2 }
    let cached = Cog(label: "cached", lifetime: .cache(limit: 4, retention: .seconds(60))) { c in
      c[plain] + 3
    }
    let reader = Cog(label: "reader") { c in c[automatic] + c[observed] + c[cached] + c[plain] }
    let cogs = Cogs()
    #expect(cogs[reader] == 2 + 3 + 4 + 1)
    let g = cogs.graph
    let rows = [plain, automatic, observed, cached, reader].map { $0.existing(in: g) }
    #expect(!rows.contains(.none))
    #expect(g.work.orphaned.count == 0)

    // `reader` was the last subscriber of three; two of them have a lifetime.
    g.release(rows[4])
    #expect((0..<g.work.orphaned.count).map { g.work.orphaned[$0] } == [rows[2], rows[3]])
    g.collect()
    #expect(g.work.orphaned.count == 0)
    #expect(cogs.hasRow(plain) && cogs.hasRow(automatic))
    #expect(!cogs.hasRow(observed) && cogs.hasRow(cached))

    // A lease's end queues a row with a lifetime only.
    g.addLease(rows[1])
    g.removeLease(rows[1])
    #expect(g.work.orphaned.count == 0)

    // In a sweep, every row (a dropped descriptor's goes whatever its lifetime).
    g.work.orphaned.sweeping = true
    g.addLease(rows[1])
    g.removeLease(rows[1])
    #expect(g.work.orphaned.count == 1)
    g.collect()
    g.work.orphaned.sweeping = false
    #expect(cogs.hasRow(automatic))  // not dropped: it stays
    #expect(cogs[plain] == 1 && cogs[automatic] == 2 && cogs[cached] == 4)
  }
}

@MainActor
@Suite("Stale slots")
struct StaleSlotTests {
  #if DEBUG
    @Test("using a row reference after its row was released and reused stops the program")
    func staleSlotIsCaught() async {
      await #expect(processExitsWith: .failure) {
        await MainActor.run {
          let box = CogBox(lifetime: .whileObserved) { (k: Int, _) -> Int in k }
          let cogs = Cogs()
          let lease = cogs.lease(box[1])
          let stale = cogs.rowToken(of: box[1])!
          lease.end()
          let again = cogs.lease(box[2])
          cogs.checkLive(stale)
          again.end()
        }
      }
    }
  #endif
}
