@_spi(Testing) import Cog
import Testing

/// Turns under misuse and failure (issue 9, findings 4, 9 and 13): writer reads of automatic
/// cogs are current, reaction loops stop with a typed error, and the debug history survives
/// slot reuse.
@MainActor
@Suite("Turns under misuse")
struct TurnMisuseTests {
  @Test("reading an automatic cog through the writer returns its current value")
  func writerReadsOfAutomaticCogsAreCurrent() {
    let s = Cog(1, label: "s")
    let d = Cog(label: "d") { c in c[s] * 10 }
    let fresh = Cog(label: "fresh") { c in c[s] + 1 }
    let cogs = Cogs()
    #expect(cogs[d] == 10)
    cogs.turn("s") { w in w[s] = 2 }
    var seen: [Int] = []
    cogs.turn("read") { w in
      seen.append(w[d])
      // Never computed before: computed now.
      seen.append(w[fresh])
      // A computed read through the writer sees committed sources, not this turn's writes.
      w[s] = 5
      seen.append(w[d])
    }
    #expect(seen == [20, 3, 20])
    #expect(cogs[d] == 50)
  }

  @Test("a reaction that writes its own dependency stops with an error naming it")
  func selfFeedingReactionStops() {
    let n = Cog(0, label: "n")
    let cogs = Cogs()
    cogs.scheduledTurnLimit = 100
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var runs = 0
    cogs.react("feed") { c in
      runs += 1
      let v = c[n]
      c.turn("bump") { w in w[n] = v + 1 }
    }
    #expect(errors == [.reactionLoop(reactions: ["feed"], states: ["n"])])
    #expect(cogs[n] == 100)
    #expect(runs == 101)
    // The context stays usable: the next outside turn runs, and the loop is stopped again.
    cogs.turn("reset") { w in w[n] = -1000 }
    #expect(errors.count == 2)
    #expect(cogs[n] == -900)
    #expect(errors[1].description.contains("feed"))
  }

  @Test(
    "a reaction's name reaches its errors whole: ASCII, multi-byte UTF-8, one character, empty",
    arguments: [
      ("feed", "feed" as StaticString), ("réaction 反応 🚀", "réaction 反応 🚀"), ("x", "x"),
      ("é", "é"), ("", ""),
    ] as [(String, StaticString)])
  func reactionNamesInErrors(expected: String, name: StaticString) {
    let n = Cog(0, label: "n")
    let cogs = Cogs()
    cogs.scheduledTurnLimit = 10
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    cogs.react(name) { c in
      let v = c[n]
      c.turn("bump") { w in w[n] = v + 1 }
    }
    #expect(errors == [.reactionLoop(reactions: [expected], states: ["n"])])
  }

  @Test("two reactions that write each other's dependency stop with both named")
  func pingPongStops() {
    let a = Cog(0, label: "a")
    let b = Cog(0, label: "b")
    let cogs = Cogs()
    cogs.scheduledTurnLimit = 50
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    cogs.react("a to b") { c in
      let v = c[a]
      c.turn("copy a") { w in w[b] = v + 1 }
    }
    cogs.react("b to a") { c in
      let v = c[b]
      c.turn("copy b") { w in w[a] = v + 1 }
    }
    #expect(errors.count == 1)
    #expect(errors.first == .reactionLoop(reactions: ["a to b", "b to a"], states: ["a", "b"]))
    // A normal turn still works and reaches both reactions.
    let other = Cog(0, label: "other")
    var seen: [Int] = []
    cogs.react("watch other") { c in seen.append(c[other]) }
    cogs.turn("other") { w in w[other] = 7 }
    #expect(seen == [0, 7])
  }

  @Test("a long chain of scheduled turns below the limit runs to its end")
  func longChainBelowTheLimit() {
    let n = Cog(0, label: "n")
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    cogs.react("count to 5000") { c in
      let v = c[n]
      if v < 5000 { c.turn("next") { w in w[n] = v + 1 } }
    }
    #expect(cogs[n] == 5000)
    #expect(errors.isEmpty)
  }

  #if DEBUG
    @Test("the debug history never names a slot's later owner")
    func historySurvivesSlotReuse() {
      let a = Cog(0, label: "alpha")
      let cogs = Cogs()
      cogs.turn("first") { w in w[a] = 1 }
      // Release alpha's row and let a new state take its slot.
      cogs.releaseRow(of: a)
      let box = CogBox(label: "beta") { (k: Int, _) -> Int in k }
      _ = cogs.lease(box[1])
      #expect(cogs.history.count == 1)
      #expect(cogs.history[0].touched == ["(released)"])
    }
  #endif
}
