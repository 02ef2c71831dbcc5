import Cog
import Testing

@MainActor
@Suite("Turns and reactions")
struct TurnTests {
  @Test("reactions run in registration order, once per turn that changed what they read")
  func reactionOrder() {
    let a = Cog(0, label: "a")
    let b = Cog(0, label: "b")
    var log: [String] = []
    let cogs = Cogs()
    cogs.react("second-reads-b") { c in log.append("B\(c[b])") }
    cogs.react("reads-a-and-b") { c in log.append("AB\(c[a])\(c[b])") }
    cogs.react("reads-a") { c in log.append("A\(c[a])") }
    #expect(log == ["B0", "AB00", "A0"])
    log.removeAll()
    cogs.turn("both") { w in
      w[a] = 1
      w[b] = 1
    }
    #expect(log == ["B1", "AB11", "A1"])
    log.removeAll()
    cogs.turn("only a") { w in w[a] = 2 }
    #expect(log == ["AB21", "A2"])
    log.removeAll()
    cogs.turn("nothing") { w in w[a] = 2 }
    #expect(log.isEmpty)
  }

  @Test("a manual cog's equality decides whether a write is a change")
  func manualEquality() {
    let plain = Cog(1, label: "plain")
    let always = Cog(1, label: "always", equals: nil)
    let byTens = Cog(10, label: "byTens", equals: { $0 / 10 == $1 / 10 })
    var log: [String] = []
    let cogs = Cogs()
    cogs.react("plain") { c in log.append("plain=\(c[plain])") }
    cogs.react("always") { c in log.append("always=\(c[always])") }
    cogs.react("byTens") { c in log.append("byTens=\(c[byTens])") }
    log.removeAll()
    cogs.turn("same values") { w in
      w[plain] = 1
      w[always] = 1
      w[byTens] = 15
    }
    #expect(log == ["always=1"])
    // An equal write is not published: readers keep seeing the committed value.
    #expect(cogs[byTens] == 10)
    log.removeAll()
    cogs.turn("new values") { w in
      w[plain] = 2
      w[byTens] = 21
    }
    #expect(log == ["plain=2", "byTens=21"])
  }

  @Test("writes made by reactions become later turns, first in first out")
  func reactionWritesAreLaterTurns() {
    let count = Cog(0, label: "count")
    let echoA = Cog(0, label: "echoA")
    let echoB = Cog(0, label: "echoB")
    var log: [String] = []
    let cogs = Cogs()
    cogs.react("copy-a") { c in
      let n = c[count]
      log.append("copyA sees count=\(n) echoB=\(c.peek(echoB))")
      c.turn("echo a") { w in w[echoA] = n }
    }
    cogs.react("copy-b") { c in
      let n = c[count]
      log.append("copyB sees count=\(n) echoA=\(c.peek(echoA))")
      c.turn("echo b") { w in w[echoB] = n * 10 }
    }
    cogs.react("watch") { c in log.append("watch \(c[echoA]) \(c[echoB])") }
    log.removeAll()
    cogs.turn("increment") { w in w[count] += 1 }
    // Both copies ran in the first turn and saw the old echoes; their writes ran afterwards
    // as two turns in the order they were scheduled, each with its own flush.
    #expect(
      log == [
        "copyA sees count=1 echoB=0",
        "copyB sees count=1 echoA=0",
        "watch 1 0",
        "watch 1 10",
      ])
    #expect(cogs[echoA] == 1 && cogs[echoB] == 10)
  }

  @Test("a cancelled reaction stops running")
  func cancel() {
    let a = Cog(0)
    var runs = 0
    let cogs = Cogs()
    let r = cogs.react { c in
      _ = c[a]
      runs += 1
    }
    cogs.turn("1") { w in w[a] = 1 }
    r.cancel()
    r.cancel()
    cogs.turn("2") { w in w[a] = 2 }
    #expect(runs == 2)
  }

  @Test("a writer used after its turn ended throws a clear error")
  func escapedWriter() {
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    var escaped: CogWriter? = nil
    cogs.turn("leak") { w in escaped = w }
    #expect(throws: CogError.escapedWriter(turn: "#1")) {
      try escaped!.set(count, to: 5)
    }
    #expect(cogs[count] == 0)
    let message = CogError.escapedWriter(turn: "#1").description
    #expect(message.contains("used after that turn ended"))
  }

  @Test("writing an automatic cog is refused")
  func notWritable() {
    let a = Cog(1)
    let twice = Cog(label: "twice") { c in c[a] * 2 }
    let cogs = Cogs()
    cogs.turn("bad") { w in
      #expect(throws: CogError.notWritable(state: "twice")) { try w.set(twice, to: 3) }
    }
    #expect(cogs[twice] == 2)
  }

  @Test("the escaped writer's subscript stops the program with a clear message")
  func escapedWriterSubscriptTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let count = Cog(0, label: "count")
        let cogs = Cogs()
        var escaped: CogWriter? = nil
        cogs.turn("leak") { w in escaped = w }
        escaped![count] = 1
      }
    }
  }

  #if DEBUG
    @Test("the debug history records turns with op names and touched states")
    func history() {
      let a = Cog(0, label: "alpha")
      let b = Cog(0, label: "beta")
      let cogs = Cogs()
      cogs.turn("first") { w in w[a] = 1 }
      cogs.turn("second") { w in
        w[a] = 2
        w[b] = 3
      }
      let h = cogs.history
      #expect(h.count == 2)
      #expect(h[0].op == "first" && h[0].touched == ["alpha"])
      #expect(h[1].op == "second" && h[1].touched == ["alpha", "beta"])
      #expect(h[1].turn == h[0].turn + 1)
    }
  #endif
}

@MainActor
@Suite("Reaction order at scale")
struct ReactionOrderAtScaleTests {
  /// A chain of `length` automatic cogs read by one reaction per node, registered from its
  /// start to its end (with `spacers(i)` registrations made and cancelled after the `i`th):
  /// push goes depth first and queues them from the end back, so the flush must sort a large
  /// queue. Returns the order the reactions ran in after one write to the chain's head.
  static func reactionOrder(length: Int, spacers: (Int) -> Int = { _ in 0 }) -> [Int] {
    let head = Cog(0)
    var chain: [Cog<Int>] = []
    var previous = head
    for _ in 0..<length {
      let p = previous
      let next = Cog { c in c[p] + 1 }
      chain.append(next)
      previous = next
    }
    let cogs = Cogs()
    _ = cogs[chain[chain.count - 1]]  // links the chain before any reaction subscribes
    var log: [Int] = []
    var spacerRuns = 0
    for i in 0..<chain.count {
      let cog = chain[i]
      cogs.react { c in
        _ = c[cog]
        log.append(i)
      }
      for _ in 0..<spacers(i) { cogs.react { _ in spacerRuns += 1 }.cancel() }
    }
    log.removeAll()
    cogs.turn("bump") { w in w[head] = 1 }
    return log
  }

  @Test("hundreds of reactions reached out of order still run in registration order")
  func manyReactionsRunInRegistrationOrder() {
    #expect(Self.reactionOrder(length: 300) == Array(0..<300))
  }

  @Test(
    "reactions whose registrations span more than 65,536 still run in registration order",
    arguments: [0, 5, 255, 65_535, 70_000])
  func registrationOrderAcrossWideSpans(gap: Int) {
    // The queue's sort takes one pass per byte of the span between the first and the last
    // queued reaction's registration: registrations made and cancelled between two
    // reactions widen it (0 and 5: one byte in all; 255: two; 65,535 and 70,000: three
    // bytes, all between the first and the second). The large gaps widen the span once,
    // after the first reaction; the small ones after every reaction.
    let log = Self.reactionOrder(length: 40) { i in i == 0 || gap < 1000 ? gap : 0 }
    #expect(log == Array(0..<40))
  }
}
