import Testing

@_spi(Testing) @testable import Cog

/// Declared as the README declares descriptors: a global.
let globalDraftCogs = CogFamily(label: "globalDraft") { (id: Int) in "draft \(id)" }

/// Writable keyed families (`CogFamily`, issue 23): rows are manual states made with the
/// family's initial value for their key, written in turns like a manual cog, read like any
/// state, with a keyed box's lifetimes, and dropped with the family.
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
    #expect(seen == ["draft 1", "Hello, world"])
    cogs.turn("throwing set") { w in
      #expect(throws: Never.self) { try w.set(drafts[2], to: "two") }
    }
    #expect(cogs[both] == "Hello, world | two")
    // A key first named by a write: the row is made with its initial value, then written.
    cogs.turn("new key") { w in
      #expect(w[drafts[9]] == "draft 9")
      w[drafts[9]] = "nine"
    }
    #expect(cogs[drafts[9]] == "nine")
    #expect(drafts.label == "draft")
    #expect(drafts[9].label == "draft[9]")
    #expect(CogFamily { (_: Int) in 0 }.label.hasPrefix("CogFamily<Int, Int>#"))
    cogs.turn("global") { w in w[globalDraftCogs[1]] += "!" }
    #expect(cogs[globalDraftCogs[1]] == "draft 1!")
    reaction.cancel()
  }

  @Test("a view reading a family's row is told of its writes")
  func uiReads() {
    let drafts = CogFamily { (id: Int) in id }
    let cogs = Cogs()
    let view = FakeView { cogs.ui[drafts[2]] }
    view.render()
    cogs.turn("edit") { w in w[drafts[2]] = 20 }
    #expect(view.notices.count == 1)
    view.render()
    cogs.turn("other key") { w in w[drafts[3]] = 30 }
    cogs.turn("equal") { w in w[drafts[2]] = 20 }
    #expect(view.notices.count == 1)
    #expect(view.shown == [2, 20])
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

  @Test("an equal write changes nothing: readers and reactions do not rerun")
  func equalWritesDoNotPropagate() {
    let counts = CogFamily { (_: String) in 0 }
    var runs = 0
    let doubled = Cog { c -> Int in
      runs += 1
      return c[counts["a"]] * 2
    }
    let cogs = Cogs()
    var reactions = 0
    let reaction = cogs.react { c in
      _ = c[doubled]
      reactions += 1
    }
    #expect(runs == 1 && reactions == 1)
    cogs.turn("same") { w in w[counts["a"]] = 0 }
    #expect(runs == 1 && reactions == 1)
    cogs.turn("there and back") { w in
      w[counts["a"]] = 5
      w[counts["a"]] = 0
    }
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
    reaction.cancel()
  }

  @Test(".context rows keep their written values for the context's life")
  func contextLifetime() {
    let kept = CogFamily { (_: Int) in 1 }
    let cogs = Cogs()
    cogs.turn("write") { w in w[kept[7]] = 70 }
    #expect(cogs.hasRow(kept[7]))
    #expect(cogs[kept[7]] == 70)
    #expect(kept.lifetime == .context)
    // Nothing observing it does not matter: a turn and a read later, it is still there.
    cogs.turn("other") { w in w[kept[8]] = 80 }
    #expect(cogs[kept[7]] == 70 && cogs[kept[8]] == 80)
    #expect(cogs[kept[9]] == 1)
    // Evicted, a row comes back with its initial value.
    #expect(cogs.evict(kept[8]))
    #expect(!cogs.hasRow(kept[8]) && cogs[kept[8]] == 1)
    // Contexts are independent: another one starts from the initial values.
    let other = Cogs()
    #expect(other[kept[7]] == 1)
  }

  @Test(".whileObserved rows go when unobserved and come back with their initial value")
  func whileObservedLifetime() {
    let observed = CogFamily(lifetime: .whileObserved) { (k: Int) in k }
    let cogs = Cogs()
    #expect(cogs[observed[3]] == 3)
    #expect(!cogs.hasRow(observed[3]))
    // A write to a row nothing observes goes with the row when the turn ends.
    cogs.turn("write unobserved") { w in w[observed[3]] = 30 }
    #expect(!cogs.hasRow(observed[3]))
    #expect(cogs[observed[3]] == 3)
    var values: [Int] = []
    let reaction = cogs.react { c in values.append(c[observed[3]]) }
    cogs.turn("write observed") { w in w[observed[3]] = 31 }
    #expect(cogs.hasRow(observed[3]))
    #expect(cogs[observed[3]] == 31)
    #expect(values == [3, 31])
    reaction.cancel()
    #expect(!cogs.hasRow(observed[3]))
    #expect(cogs[observed[3]] == 3)
    // Observed by an automatic cog that a reaction keeps: the row lives while that cog does.
    let twice = Cog(lifetime: .whileObserved) { c in c[observed[4]] * 2 }
    let keep = cogs.react { c in _ = c[twice] }
    cogs.turn("write") { w in w[observed[4]] = 40 }
    #expect(cogs[twice] == 80)
    keep.cancel()
    #expect(!cogs.hasRow(observed[4]))
    #expect(cogs[twice] == 8)
  }

  @Test("a .whileObserved row written, read around and written again in one turn stays sound")
  func whileObservedWithinATurn() {
    let observed = CogFamily(lifetime: .whileObserved) { (k: Int) in k }
    let other = Cog(label: "other") { _ in 1 }
    let cogs = Cogs()
    let rows = cogs.liveRowCount
    cogs.turn("mixed") { w in
      w[observed[1]] = 10
      _ = w[other]  // an outermost read: the collector may run
      _ = cogs[observed[2]]
      w[observed[1]] += 1
      w[observed[5]] = 50
    }
    #expect(!cogs.hasRow(observed[1]) && !cogs.hasRow(observed[5]))
    #expect(cogs.liveRowCount == rows + 1)  // `other`
    #expect(cogs[observed[1]] == 1)
  }

  @Test(".cache rows are kept up to the limit, then evicted, and come back at their initial value")
  func cacheLimit() {
    let cached = CogFamily(lifetime: .cache(limit: 1, retention: .seconds(3600))) { (k: Int) in
      -k
    }
    let cogs = Cogs()
    cogs.turn("write cached") { w in w[cached[1]] = 10 }
    #expect(cogs.hasRow(cached[1]))
    #expect(cogs[cached[1]] == 10)
    #expect(cogs[cached[2]] == -2)
    #expect(!cogs.hasRow(cached[1]))
    #expect(cogs.hasRow(cached[2]))
    #expect(cogs[cached[1]] == -1)  // made again from its initial value
  }

  @Test(".cache retention runs on the context's clock; an observed row is not expired")
  func cacheRetention() {
    let clock = ManualClock()
    let cached = CogFamily(lifetime: .cache(limit: 10, retention: .seconds(60))) { (k: Int) in
      k
    }
    let tick = Cog(0)
    let cogs = Cogs(clock: clock)
    cogs.turn("write") { w in
      w[cached[1]] = 100
      w[cached[2]] = 200
    }
    var seen: [Int] = []
    let reaction = cogs.react { c in seen.append(c[cached[2]]) }
    clock.advance(by: .seconds(30))
    #expect(cogs[cached[1]] == 100)  // reads do not look at the clock
    clock.advance(by: .seconds(31))
    cogs.turn("tick") { w in w[tick] = 1 }
    #expect(!cogs.hasRow(cached[1]))
    #expect(cogs.hasRow(cached[2]))  // observed: not in the cache list
    #expect(cogs[cached[1]] == 1)
    reaction.cancel()
    #expect(cogs[cached[2]] == 200)  // kept, now for its retention
    clock.advance(by: .seconds(30))
    // A write, like a read, does not renew the retention of a cached row.
    cogs.turn("write cached") { w in w[cached[2]] = 201 }
    #expect(cogs[cached[2]] == 201)
    clock.advance(by: .seconds(31))
    cogs.turn("tick") { w in w[tick] = 2 }
    #expect(!cogs.hasRow(cached[2]))
    #expect(cogs[cached[2]] == 2)
    #expect(seen == [200])
  }

  @Test("a dropped family's rows go at releaseDropped(); a reference keeps its family")
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

  @Test("a dropped family's row a reader still depends on stays until the reader lets go")
  func droppedFamilyWhileRead() {
    let cogs = Cogs()
    let useFamily = Cog(true)
    // The reader's body reaches the family through `holder`, so it does not keep it alive.
    let holder = Late<CogFamily<Int, Int>?>()
    holder.value = CogFamily { (k: Int) in k + 1 }
    let reader = Cog { c in c[useFamily] ? holder.value.map { c[$0[1]] } ?? -1 : 0 }
    cogs.turn("write") { w in w[holder.value![1]] = 10 }
    #expect(cogs[reader] == 10)
    holder.value = nil
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 3)  // the reader depends on the dropped family's row
    #expect(cogs[reader] == 10)
    cogs.turn("let go") { w in w[useFamily] = false }
    #expect(cogs[reader] == 0)
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 2)  // useFamily, reader
  }

  @Test("writing a keyed box's reference is refused, as writing an automatic cog is")
  func boxRefNotWritable() {
    let a = Cog(1)
    let box = CogBox(label: "plus") { (k: Int, c) in c[a] + k }
    let cogs = Cogs()
    cogs.turn("bad") { w in
      #expect(throws: CogError.notWritable(state: "plus[2]")) { try w.set(box[2], to: 9) }
      #expect(w[box[2]] == 3)  // reading a box's row through the writer is fine
    }
    #expect(cogs[box[2]] == 3)
  }

  @Test("a writer used after its turn throws for a family's row, and writes nothing")
  func escapedWriterThrows() {
    let drafts = CogFamily { (_: Int) in 0 }
    let cogs = Cogs()
    var escaped: CogWriter? = nil
    cogs.turn("leak") { w in escaped = w }
    #expect(throws: CogError.escapedWriter(turn: "#1")) { try escaped!.set(drafts[1], to: 5) }
    #expect(cogs[drafts[1]] == 0)
  }

  @Test("the writer's subscript stops the program for a family's row outside its turn")
  func escapedWriterSubscriptTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let drafts = CogFamily { (_: Int) in 0 }
        let cogs = Cogs()
        var escaped: CogWriter? = nil
        cogs.turn("leak") { w in escaped = w }
        escaped![drafts[1]] = 1
      }
    }
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
