@_spi(Testing) import Cog
import Observation
import Testing

/// Observation boundaries (seed 000 §6, issue 15): made lazily by UI reads, told only when a
/// value changed, after the turn settled, before reactions run.
@MainActor
@Suite("Observation boundaries")
struct ObservationBoundaryTests {
  @Test("a boundary is made only on a state's first UI read: 1,000 states, 12 UI-read, 12")
  func lazyCreation() {
    let sources = (0..<100).map { Cog($0, label: "s\($0)") }
    var row: [Cog<Int>] = sources
    var all: [Cog<Int>] = sources
    for _ in 0..<9 {
      let previous = row
      row = (0..<100).map { x in
        Cog { c in c[previous[x]] + c[previous[(x + 1) % 100]] }
      }
      all += row
    }
    #expect(all.count == 1000)
    let cogs = Cogs(reservingRows: 1024)
    // Plain reads, tracked dependencies, reactions: no boundary.
    var total = 0
    for c in row { total += cogs[c] }
    cogs.react("sum") { c in _ = c[row[0]] }
    #expect(cogs.boundaryCount == 0)
    #expect(!cogs.hasBoundary(row[0]))
    // 12 UI reads, some repeated, make 12 boundaries.
    let shown = Array(all[(all.count - 12)...])
    for _ in 0..<3 {
      for c in shown {
        _ = withObservationTracking {
          cogs.ui[c]
        } onChange: {
        }
      }
    }
    #expect(cogs.boundaryCount == 12)
    #expect(shown.allSatisfy { cogs.hasBoundary($0) })
    #expect(!cogs.hasBoundary(all[0]))
    #expect(total == 512 * 4950)
  }

  @Test("keyed states get a boundary per UI-read key, and only those keys")
  func keyedBoundaries() {
    let base = Cog(10)
    let items = CogBox { (k: Int, c) in c[base] + k }
    let cogs = Cogs()
    _ = cogs[items[1]]
    let view = FakeView { cogs.ui[items[2]] }
    view.render()
    #expect(cogs.boundaryCount == 1)
    #expect(cogs.hasBoundary(items[2]))
    #expect(!cogs.hasBoundary(items[1]))
    cogs.turn("base") { w in w[base] = 20 }
    #expect(view.notices.count == 1)
    view.render()
    #expect(view.shown == [12, 22])
  }

  @Test("observers are told once when the value changed, and not for unrelated turns")
  func notifyOnlyOnChange() {
    let a = Cog(1, label: "a")
    let other = Cog(0, label: "other")
    let doubled = Cog(label: "doubled") { c in c[a] * 2 }
    let cogs = Cogs()
    let view = FakeView { cogs.ui[doubled] }
    view.render()
    #expect(view.shown == [2])
    cogs.turn("other") { w in w[other] = 5 }
    #expect(view.notices.count == 0)
    // The onChange sees the settled value: the flush told it after step 3.
    var seenInNotice: [Int] = []
    view.notices.onHit = { MainActor.assumeIsolated { seenInNotice.append(cogs[doubled]) } }
    cogs.turn("a") { w in w[a] = 3 }
    #expect(view.notices.count == 1)
    #expect(seenInNotice == [6])
    // One-shot tracking, re-armed by the re-render.
    cogs.turn("a again") { w in w[a] = 4 }
    #expect(view.notices.count == 1)
    view.render()
    cogs.turn("a once more") { w in w[a] = 5 }
    #expect(view.notices.count == 2)
    view.render()
    #expect(view.shown == [2, 8, 10])
  }

  @Test("an equal value notifies nothing: backdated computeds, equal writes, write-backs")
  func equalValuesNotifyNothing() {
    let n = Cog(0, label: "n")
    let parity = Cog(label: "parity") { c in c[n] % 2 }
    let cogs = Cogs()
    let parityView = FakeView { cogs.ui[parity] }
    let sourceView = FakeView { cogs.ui[n] }
    parityView.render()
    sourceView.render()
    // parity recomputes to the same value: backdated, no notice.
    cogs.turn("n = 2") { w in w[n] = 2 }
    #expect(parityView.notices.count == 0)
    #expect(sourceView.notices.count == 1)
    sourceView.render()
    // An equal write, and a write undone in the same turn: nothing changes, nobody is told.
    cogs.turn("n = 2 again") { w in w[n] = 2 }
    cogs.turn("there and back") { w in
      w[n] = 7
      w[n] = 2
    }
    #expect(sourceView.notices.count == 1)
    #expect(parityView.notices.count == 0)
    cogs.turn("n = 3") { w in w[n] = 3 }
    #expect(parityView.notices.count == 1)
    #expect(sourceView.notices.count == 2)
  }

  @Test("the flush settles roots, tells boundaries, then runs reactions; cold rows stay dirty")
  func flushOrder() {
    let a = Cog(1, label: "a")
    var coldRuns = 0
    let shown = Cog(label: "shown") { c in c[a] + 100 }
    let cold = Cog(label: "cold") { c -> Int in
      coldRuns += 1
      return c[a] * 1000
    }
    let cogs = Cogs()
    var log: [String] = []
    let view = FakeView { cogs.ui[shown] }
    view.render()
    _ = cogs[cold]
    #expect(coldRuns == 1)
    view.notices.onHit = { MainActor.assumeIsolated { log.append("notice") } }
    cogs.react("log") { c in log.append("reaction \(c[shown])") }
    log.removeAll()
    cogs.turn("a") { w in w[a] = 2 }
    #expect(log == ["notice", "reaction 102"])
    // Nothing hot reads `cold`: it stays dirty until read.
    #expect(coldRuns == 1)
    #expect(cogs[cold] == 2000)
    #expect(coldRuns == 2)
  }

  @Test("a UI read inside a body is also a tracked read")
  func uiReadInsideABody() {
    let a = Cog(1)
    let cogs = Cogs()
    let b = Cog { c in cogs.ui[a] + 1 }
    #expect(cogs[b] == 2)
    cogs.turn("a") { w in w[a] = 5 }
    #expect(cogs[b] == 6)
    #expect(cogs.boundaryCount == 1)
  }

  @Test("a boundary pins its row: a .whileObserved cog shown by the UI stays")
  func boundariesPinRows() {
    let a = Cog(1)
    let shown = Cog(lifetime: .whileObserved) { c in c[a] * 3 }
    let box = CogBox(lifetime: .whileObserved) { (k: Int, c) in c[a] + k }
    let cogs = Cogs()
    _ = cogs[shown]
    #expect(!cogs.hasRow(shown))
    let view = FakeView { cogs.ui[shown] + cogs.ui[box[4]] }
    view.render()
    #expect(cogs.hasRow(shown))
    #expect(cogs.hasRow(box[4]))
    #expect(!cogs.evict(box[4]))
    cogs.turn("a") { w in w[a] = 2 }
    #expect(view.notices.count == 1)
    view.render()
    #expect(view.shown == [8, 12])
  }

  @Test("a cycle met while settling a boundary is reported, and the boundary recovers")
  func cycleInARoot() {
    let open = Cog(true, label: "open")
    final class Late: @unchecked Sendable { var b: Cog<Int>! }
    let late = Late()
    let a = Cog(label: "a") { c in c[open] ? 1 : c[late.b] + 1 }
    late.b = Cog(label: "b") { c in c[a] + 1 }
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    let view = FakeView { cogs.ui[late.b] }
    view.render()
    #expect(view.shown == [2])
    cogs.turn("close") { w in w[open] = false }
    #expect(errors.count == 1)
    cogs.turn("open") { w in w[open] = true }
    #expect(cogs[late.b] == 2)
    view.render()
    #expect(view.shown.last == 2)
  }

  @Test("the Observations async sequence follows a UI read across turns")
  func observationsSequence() async {
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    if #available(macOS 26.0, iOS 26.0, *) {
      let values = Observations { cogs.ui[count] }
      var iterator = values.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      cogs.turn("1") { w in w[count] = 1 }
      #expect(await iterator.next() == 1)
      cogs.turn("equal") { w in w[count] = 1 }
      cogs.turn("2") { w in w[count] = 2 }
      #expect(await iterator.next() == 2)
      #expect(cogs.boundaryCount == 1)
    }
  }
}
