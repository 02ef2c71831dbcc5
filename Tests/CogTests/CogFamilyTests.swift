import Testing

@_spi(Testing) @testable import Cog

/// Writable keyed families (`CogFamily`, issue 23): rows are manual states made with the
/// family's initial value for their key, written in turns, read like any state, with a box's
/// lifetimes, and dropped with the family.
@MainActor
@Suite("Writable keyed families")
struct CogFamilyTests {
  @Test("a row starts at its key's initial value; writes in turns reach readers and reactions")
  func writesPropagate() {
    let drafts = CogFamily(label: "draft") { (id: Int) in "draft \(id)" }
    let both = Cog(label: "both") { c in c[drafts[1]] + " | " + c[drafts[2]] }
    let cogs = Cogs()
    var seen: [String] = []
    let reaction = cogs.react { c in seen.append(c[drafts[1]]) }
    #expect(cogs[both] == "draft 1 | draft 2")
    cogs.turn("edit") { w in
      w[drafts[1]] = "Hello"
      w[drafts[1]] += ", world"  // reads the staged value
      #expect(w[drafts[1]] == "Hello, world")
      #expect(cogs[drafts[1]] == "draft 1")  // others see the write when the turn ends
    }
    #expect(cogs[drafts[1]] == "Hello, world")
    #expect(cogs[both] == "Hello, world | draft 2")
    #expect(cogs.ui[drafts[1]] == "Hello, world")
    #expect(seen == ["draft 1", "Hello, world"])
    cogs.turn("throwing set") { w in
      #expect(throws: Never.self) { try w.set(drafts[2], to: "two") }
    }
    #expect(cogs[both] == "Hello, world | two")
    reaction.cancel()
  }

  @Test("an export of a family's row follows its writes, and keeps a .whileObserved row")
  func exported() async {
    let drafts = CogFamily(lifetime: .whileObserved) { (id: Int) in "draft \(id)" }
    let cogs = Cogs()
    let values = cogs.export(drafts[4])
    var it = values.makeAsyncIterator()
    #expect(await it.next() == "draft 4")
    cogs.turn("edit") { w in w[drafts[4]] = "four" }
    #expect(await it.next() == "four")
    #expect(cogs.hasRow(drafts[4]))
    values.cancel()
    #expect(await it.next() == nil)
  }

  @Test("an equal write changes nothing: readers do not rerun")
  func equalWritesDoNotPropagate() {
    let counts = CogFamily { (_: String) in 0 }
    var runs = 0
    let doubled = Cog { c -> Int in
      runs += 1
      return c[counts["a"]] * 2
    }
    let cogs = Cogs()
    var reactions = 0
    cogs.react { c in
      _ = c[doubled]
      reactions += 1
    }
    #expect(runs == 1 && reactions == 1)
    cogs.turn("same") { w in w[counts["a"]] = 0 }
    #expect(runs == 1 && reactions == 1)
    cogs.turn("change") { w in w[counts["a"]] = 3 }
    #expect(runs == 2 && reactions == 2)
    #expect(cogs[doubled] == 6)
    // A custom equality: nil means every write changes.
    let always = CogFamily(equals: nil) { (_: Int) in 0 }
    let reader = Cog { c -> Int in
      runs += 1
      return c[always[0]]
    }
    #expect(cogs[reader] == 0)
    let before = runs
    cogs.turn("same value") { w in w[always[0]] = 0 }
    #expect(cogs[reader] == 0)
    #expect(runs == before + 1)
  }

  @Test("rows live, die and come back per lifetime")
  func lifetimes() {
    let cogs = Cogs()
    // .context: a row stays with its value for the context's life.
    let kept = CogFamily { (_: Int) in 1 }
    cogs.turn("write") { w in w[kept[7]] = 70 }
    #expect(cogs.hasRow(kept[7]))
    #expect(cogs[kept[7]] == 70)

    // .whileObserved: an unobserved row goes after the operation; the next use starts again.
    let observed = CogFamily(lifetime: .whileObserved) { (k: Int) in k }
    #expect(cogs[observed[3]] == 3)
    #expect(!cogs.hasRow(observed[3]))
    cogs.turn("write unobserved") { w in w[observed[3]] = 30 }
    #expect(!cogs.hasRow(observed[3]))
    #expect(cogs[observed[3]] == 3)
    var values: [Int] = []
    let reaction = cogs.react { c in values.append(c[observed[3]]) }
    cogs.turn("write observed") { w in w[observed[3]] = 31 }
    #expect(cogs.hasRow(observed[3]))
    #expect(values == [3, 31])
    reaction.cancel()
    #expect(!cogs.hasRow(observed[3]))
    #expect(cogs[observed[3]] == 3)

    // .cache(limit: 1): the unobserved row last used stays; older ones go.
    let cached = CogFamily(lifetime: .cache(limit: 1, retention: .seconds(3600))) { (k: Int) in
      -k
    }
    cogs.turn("write cached") { w in w[cached[1]] = 10 }
    #expect(cogs.hasRow(cached[1]))
    #expect(cogs[cached[1]] == 10)
    #expect(cogs[cached[2]] == -2)
    #expect(!cogs.hasRow(cached[1]))
    #expect(cogs.hasRow(cached[2]))
    #expect(cogs[cached[1]] == -1)  // made again from its initial value
  }

  @Test("a dropped family's rows go at the next sweep; a reference keeps its family")
  func droppedFamily() {
    let cogs = Cogs()
    let before = cogs.liveRowCount
    var family: CogFamily<Int, Int>? = CogFamily { (k: Int) in k }
    cogs.turn("write") { w in
      for k in 0..<100 { w[family![k]] = k * 2 }
    }
    let ref = family![5]
    #expect(cogs.liveRowCount == before + 100)
    family = nil
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == before + 100)  // `ref` names the family
    #expect(cogs[ref] == 10)
    _ = consume ref
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == before)
    #expect(cogs.registeredOwnerCount == 0)
  }

  @Test("writing a keyed box's reference is refused, as for an automatic cog")
  func boxRefNotWritable() {
    let a = Cog(1)
    let box = CogBox(label: "plus") { (k: Int, c) in c[a] + k }
    let cogs = Cogs()
    cogs.turn("bad") { w in
      #expect(throws: CogError.notWritable(state: "plus[2]")) { try w.set(box[2], to: 9) }
      #expect(w[box[2]] == 3)  // reading a box's row through the writer is fine
    }
    #expect(cogs[box[2]] == 3)
    #expect(CogError.notWritable(state: "plus[2]").description.contains("cannot be written"))
  }

  @Test("the writer's subscript stops the program when given a keyed box's reference")
  func boxRefSubscriptTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let box = CogBox(label: "plus") { (k: Int, _) in k }
        let cogs = Cogs()
        cogs.turn("bad") { w in w[box[2]] = 9 }
      }
    }
  }
}
