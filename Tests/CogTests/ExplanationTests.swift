import Cog
import Observation
import Testing

// Explained turns, checked against known graphs through the public API only.

@MainActor
@Suite("Explanations")
struct ExplanationTests {
  @Test("off by default: a context explains nothing until asked")
  func offByDefault() {
    let a = Cog(1, label: "a")
    let b = Cog(label: "b") { c in c[a] + 1 }
    let cogs = Cogs()
    #expect(!cogs.explainsTurns)
    _ = cogs[b]
    cogs.turn("write") { w in w[a] = 2 }
    #expect(cogs[b] == 3)
    #expect(cogs.explanations.isEmpty)
    #expect(cogs.lastExplanation == nil)
    #expect(cogs.why(b) == nil)
  }

  @Test("a diamond: the row whose equal result stopped propagation is named with its values")
  func diamondCutoff() throws {
    let a = Cog(1, label: "a")
    let parity = Cog(label: "parity") { c in c[a] % 2 }
    let double = Cog(label: "double") { c in c[a] * 2 }
    let sum = Cog(label: "sum") { c in c[parity] + c[double] }
    let oddness = Cog(label: "oddness") { c in c[parity] == 1 ? "odd" : "even" }
    let cogs = Cogs()
    var shown: [String] = []
    cogs.react("show") { c in shown.append("\(c[sum]) \(c[oddness])") }
    cogs.explainsTurns = true
    cogs.turn("set a") { w in w[a] = 3 }
    #expect(shown == ["3 odd", "7 odd"])
    let e = try #require(cogs.lastExplanation)
    #expect(e.name == "set a")
    #expect(
      e.writes.map { "\($0.state) \($0.oldValue!) \($0.newValue!) \($0.changed)" } == ["a 1 3 true"]
    )
    #expect(e.marked.filter(\.isDirty).map(\.state).sorted() == ["double", "parity"])
    #expect(e.marked.filter { !$0.isDirty }.map(\.state).sorted() == ["oddness", "show", "sum"])
    let cutoff = try #require(e.cutoffs.first)
    #expect(e.cutoffs.count == 1)
    #expect(cutoff.state == "parity" && cutoff.oldValue == "1" && cutoff.newValue == "1")
    #expect(e.runs.map(\.state) == ["parity", "double", "sum", "show"])
    #expect(e.runs.first { $0.state == "sum" }?.reads == ["parity", "double"])
    #expect(e.checked == ["oddness"])
    #expect(e.reactions == ["show"])
    #expect(cogs.why(parity)!.contains("its result was equal (1 -> 1): propagation stopped there"))
    #expect(cogs.why(oddness, inTurn: e.turn)!.contains("parity recomputed to an equal value"))
    #expect(cogs.why(sum)!.contains("3 -> 7"))
    #expect(cogs.why(a)! == "a was written in turn #\(e.turn): 1 -> 3")
    #expect(e.description.contains("recomputed parity: 1 -> 1, equal: stopped here; read a"))
  }

  @Test("a dynamic switch: the dependency a body no longer reads is named")
  func dynamicSwitch() throws {
    let useA = Cog(true, label: "useA")
    let a = Cog(1, label: "a")
    let b = Cog(2, label: "b")
    let pick = Cog(label: "pick") { c in c[useA] ? c[a] : c[b] }
    let cogs = Cogs()
    cogs.react("watch") { c in _ = c[pick] }
    cogs.explainsTurns = true
    cogs.turn("switch") { w in w[useA] = false }
    let e = try #require(cogs.lastExplanation)
    let run = try #require(e.runs.first { $0.state == "pick" })
    #expect(run.droppedDependencies == ["a"])
    #expect(run.addedDependencies == ["b"])
    #expect(run.reads == ["useA", "b"])
    #expect(e.description.contains("no longer reads a; newly reads b"))
    // The dropped dependency's write reaches nothing now.
    cogs.turn("write a") { w in w[a] = 5 }
    #expect(cogs.why(pick)!.contains("does not depend on what the turn changed (a)"))
  }

  @Test("a keyed box's rows are named with their keys")
  func keyedBox() throws {
    let factor = Cog(1, label: "factor")
    let scaled = CogBox(label: "scaled") { (k: Int, c) -> Int in c[factor] * k }
    let cogs = Cogs()
    cogs.react("show") { c in _ = c[scaled[2]] + c[scaled[3]] }
    cogs.explainsTurns = true
    cogs.turn("double") { w in w[factor] = 2 }
    let e = try #require(cogs.lastExplanation)
    #expect(e.runs.filter { !$0.isReaction }.map(\.state) == ["scaled[2]", "scaled[3]"])
    #expect(e.runs.first?.newValue == "4")
    #expect(
      cogs.why(scaled[3])!.contains(
        "scaled[3] recomputed in turn #\(e.turn) because it reads factor, which changed: 3 -> 6"))
    #expect(cogs.why(scaled[4])!.contains("did not recompute"))
  }

  @Test("a cycle met in the flush is named, and the runs inside it are marked")
  func cycle() throws {
    let closeLoop = Cog(false, label: "loop")
    let late = Late<Cog<Int>>()
    let x = Cog(label: "x") { c in c[closeLoop] ? c[late.value] : 0 }
    let y = Cog(label: "y") { c in c[x] + 1 }
    late.value = y
    let cogs = Cogs()
    cogs.errorHandler = { _ in }
    cogs.react("watch y") { c in _ = c[y] }
    cogs.explainsTurns = true
    cogs.turn("close") { w in w[closeLoop] = true }
    let e = try #require(cogs.lastExplanation)
    #expect(e.cycles.count == 1)
    #expect(Set(e.cycles.first ?? []) == ["x", "y"])
    #expect(e.runs.contains { $0.inCycle })
    #expect(e.description.contains("cycle: "))
  }

  @Test("an async result publishes in a turn of its own, explained like any other")
  func asyncPublish() async throws {
    let query = Cog("a", label: "query")
    let results = Cog<String?>.Async(.latest, label: "results") { c in
      let q = c[query]
      return .run {
        await Task.yield()
        return q.uppercased()
      }
    }
    let shout = Cog(label: "shout") { c in (c[results] ?? "-") + "!" }
    let cogs = Cogs()
    cogs.react("show") { c in _ = c[shout] }
    await cogs.settle()
    cogs.explainsTurns = true
    cogs.turn("query") { w in w[query] = "b" }
    await cogs.settle()
    #expect(cogs[shout] == "B!")
    let e = try #require(cogs.lastExplanation)
    #expect(e.name == "async result")
    #expect(e.writes.contains { $0.state == "results" && $0.newValue == "Optional(\"B\")" })
    #expect(e.runs.contains { $0.state == "shout" && $0.newValue == "B!" })
    #expect(cogs.why(shout)!.contains("because it reads results, which changed"))
  }

  @Test("a UI boundary told of a change is listed; an equal result tells it nothing")
  func boundaryNotice() throws {
    let n = Cog(1, label: "n")
    let parity = Cog(label: "parity") { c in c[n] % 2 }
    let cogs = Cogs()
    _ = withObservationTracking {
      cogs.ui[parity]
    } onChange: {
    }
    cogs.explainsTurns = true
    cogs.turn("odd to odd") { w in w[n] = 3 }
    #expect(cogs.lastExplanation?.boundariesTold == [])
    #expect(cogs.lastExplanation?.cutoffs.map(\.state) == ["parity"])
    cogs.turn("to even") { w in w[n] = 4 }
    #expect(cogs.lastExplanation?.boundariesTold == ["parity"])
    #expect(cogs.lastExplanation?.description.contains("told the UI boundary of parity") == true)
  }

  @Test("cache evictions, retention and evict name their reason")
  func cacheEviction() throws {
    let clock = CogTestClock()
    let box = CogBox(label: "sq", lifetime: .cache(limit: 2, retention: .seconds(60))) {
      (k: Int, _) -> Int in k * k
    }
    let tick = Cog(0, label: "tick")
    let cogs = Cogs(clock: clock)
    cogs.explainsTurns = true
    cogs.turn("start") { w in w[tick] = 1 }
    for k in 0..<4 { _ = cogs[box[k]] }
    var e = try #require(cogs.lastExplanation)
    #expect(e.released.map(\.state) == ["sq[0]", "sq[1]"])
    #expect(e.released.allSatisfy { $0.reason == .cacheLimit && $0.afterFlush })
    #expect(cogs.evict(box[3]))
    e = try #require(cogs.lastExplanation)
    #expect(e.released.last?.state == "sq[3]" && e.released.last?.reason == .evicted)
    clock.advance(by: .seconds(61))
    cogs.turn("later") { w in w[tick] = 2 }
    e = try #require(cogs.lastExplanation)
    #expect(e.released.map(\.state) == ["sq[2]"])
    #expect(e.released.first?.reason == .retention && e.released.first?.afterFlush == false)
    #expect(e.description.contains("released sq[2]: retention"))
  }

  @Test("a dropped descriptor's row released by the sweep names the reason")
  func droppedDescriptor() throws {
    let kept = Cog(5, label: "kept")
    var temporary: Cog<Int>? = Cog(7, label: "temporary")
    let sum = Cog(label: "sum") { c in c[kept] + 1 }
    let cogs = Cogs()
    cogs.explainsTurns = true
    cogs.turn("write") { w in
      w[temporary!] = 8
      w[kept] = 6
    }
    #expect(cogs[sum] == 7)
    temporary = nil
    cogs.releaseDropped()
    let e = try #require(cogs.lastExplanation)
    #expect(e.released.map(\.state) == ["temporary"])
    #expect(e.released.first?.reason == .descriptorDropped && e.released.first?.afterFlush == true)
    #expect(e.description.contains("released temporary after the flush: descriptor dropped"))
    _ = temporary
  }

  @Test("a dropped plain manual cog's row, which does not hold it, is named as the cog was")
  func droppedPlainManual() throws {
    var temporary: Cog<Int>? = Cog(7)
    let name = temporary!.label
    let cogs = Cogs()
    cogs.explainsTurns = true
    cogs.turn("write") { w in w[temporary!] = 8 }
    temporary = nil  // freed now: no row holds it
    cogs.releaseDropped()
    let e = try #require(cogs.lastExplanation)
    #expect(e.released.map(\.state) == [name])
    #expect(e.released.first?.reason == .descriptorDropped && e.released.first?.afterFlush == true)
  }

  @Test("a flagged state nothing read is left stale; its run on a later read is added")
  func lazyRead() throws {
    let a = Cog(1, label: "a")
    let lazy = Cog(label: "lazy") { c in c[a] * 10 }
    let cogs = Cogs()
    #expect(cogs[lazy] == 10)
    cogs.explainsTurns = true
    cogs.turn("write") { w in w[a] = 2 }
    var e = try #require(cogs.lastExplanation)
    #expect(e.leftStale == ["lazy"] && e.runs.isEmpty)
    #expect(cogs.why(lazy)!.contains("but nothing read it; it recomputes when read"))
    #expect(cogs[lazy] == 20)
    e = try #require(cogs.lastExplanation)
    #expect(e.runs.map(\.state) == ["lazy"] && e.runs.first?.afterFlush == true)
    #expect(e.runs.first?.oldValue == "10" && e.runs.first?.newValue == "20")
    #expect(cogs.why(lazy)!.contains("(on a read after the flush)"))
  }
}
