@_spi(Testing) import Cog
import CogCore
import Testing

/// An automatic cog's rows run one behavior object, its details (`KeylessBehavior`; issue 23:
/// the cog itself stays a 64-byte object; swift/0007-creation.md). One cog serves every
/// context, so the behavior must hold nothing of any one context; the contexts' rows keep the
/// behavior alive while they exist, not the cog (swift/0008, "Rows hold the details").
@MainActor
@Suite("Automatic cogs")
struct AutomaticCogTests {
  /// The behavior the row of `cog` in `cogs` runs.
  func behavior<T>(of cog: Cog<T>, in cogs: Cogs) -> AnyObject? {
    let s = cog.existing(in: cogs.graph)
    if s.isNone { return nil }
    return cogs.graph.rows.behavior[s].object?.takeUnretainedValue()
  }

  @Test("one automatic cog's rows in two contexts run its one behavior, each with its own values")
  func twoContexts() throws {
    let source = Cog(1, label: "source")
    let doubled = Cog(label: "doubled") { c in c[source] * 2 }
    let typed = Cog(label: "typed", body: PlusOne(of: doubled))
    let first = Cogs()
    let second = Cogs()
    #expect(first[typed] == 3 && second[typed] == 3)
    first.turn("write") { w in w[source] = 10 }
    #expect(first[doubled] == 20 && first[typed] == 21)
    #expect(second[doubled] == 2 && second[typed] == 3)
    second.turn("write") { w in w[source] = 5 }
    #expect(first[typed] == 21 && second[typed] == 11)
    for cogs in [first, second] {
      #expect(behavior(of: doubled, in: cogs) === doubled.state.details)
      #expect(behavior(of: typed, in: cogs) === typed.state.details)
      #expect(behavior(of: source, in: cogs) == nil)
    }
  }

  @Test("a cog goes with the app's last reference; its rows keep its details and run them")
  func rowsKeepTheDetails() {
    let source = Cog(1)
    weak var gone: Cog<Int>?
    weak var details: KeylessDetails?
    let cogs = Cogs()
    var reader: Cog<Int>? = nil
    do {
      let cog = Cog(label: "plus") { c in c[source] + 100 }
      gone = cog
      details = cog.state.details
      #expect(cogs[cog] == 101)
      // A body that reads the cog and then drops it: its row keeps the dropped cog's row.
      reader = Cog { [weak cog] c in cog.map { c[$0] } ?? -1 }
      #expect(cogs[reader!] == 101)
    }
    // No context holds the cog: it went with the app's last reference. Its row holds its
    // details, and the reader's row depends on it, so it is recomputed when read through it.
    #expect(gone == nil && details != nil)
    cogs.turn("write") { w in w[source] = 2 }
    #expect(cogs.liveRowCount == 3)
    cogs.releaseDropped()
    // The reader keeps it until it reruns: the rerun recomputes the dropped cog's row (its
    // details run), then reads nothing (the weak reference is nil) and lets it go.
    #expect(cogs[reader!] == -1)
    cogs.releaseDropped()
    #expect(details == nil && cogs.liveRowCount == 2)
    reader = nil
  }

  @Test("an automatic cog's details are freed once the last context that has its row ends")
  func freedWithTheLastContext() {
    let source = Cog(1)
    weak var gone: Cog<Int>?
    weak var details: KeylessDetails?
    var first: Cogs? = Cogs()
    var second: Cogs? = Cogs()
    do {
      let cog = Cog(label: "plus") { c in c[source] + 1 }
      gone = cog
      details = cog.state.details
      #expect(first![cog] == 2 && second![cog] == 2)
    }
    #expect(gone == nil && details != nil)
    first = nil
    #expect(details != nil)
    second = nil
    #expect(details == nil)
    _ = (first, second)
  }

  @Test("a dropped automatic cog's details are freed at the last sweep while contexts live on")
  func freedWhileContextsLive() {
    let source = Cog(1)
    weak var details: KeylessDetails?
    let first = Cogs()
    let second = Cogs()
    do {
      let cog = Cog(label: "plus") { c in c[source] + 1 }
      details = cog.state.details
      #expect(first[cog] == 2 && second[cog] == 2)
    }
    #expect(details != nil)  // the rows hold them until the contexts sweep
    first.releaseDropped()
    #expect(details != nil && first.liveRowCount == 1)
    second.turn("write") { w in w[source] = 5 }
    second.releaseDropped()
    #expect(second.liveRowCount == 1)
    #expect(details == nil)
  }

  @Test("an automatic cog with its own equality: nil changes on every recompute")
  func customEquality() {
    let source = Cog(0)
    let parity = Cog(equals: { $0 == $1 }) { c in c[source] % 2 }
    let always = Cog(equals: nil) { c in c[source] % 2 }
    var parityRuns = 0
    var alwaysRuns = 0
    let p = Cog<Int> { c in
      parityRuns += 1
      return c[parity]
    }
    let a = Cog<Int> { c in
      alwaysRuns += 1
      return c[always]
    }
    let cogs = Cogs()
    #expect(cogs[p] == 0 && cogs[a] == 0)
    cogs.turn("write") { w in w[source] = 2 }
    #expect(cogs[p] == 0 && cogs[a] == 0)
    #expect(parityRuns == 1 && alwaysRuns == 2)
    #expect(behavior(of: parity, in: cogs) === parity.state.details)
  }
}

/// A body of its own type (`Cog.init(label:lifetime:body:)`, what the workbench's adapter declares).
struct PlusOne: CogBody {
  let of: Cog<Int>
  @MainActor func run(_ c: CogContext<Int>) -> Int { c[of] + 1 }
}
