@_spi(Testing) import Cog
import CogCore
import Testing

/// An automatic cog's rows run one behavior object, its details (`KeylessBehavior`; issue 23:
/// the cog itself stays a 64-byte object; swift/0007-creation.md). One cog serves every
/// context, so the behavior must hold nothing of any one context, and the contexts keep the
/// cog, and so its behavior, alive while they have its row.
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

  @Test("a cog whose last reference went lives while a context has its row")
  func contextsKeepTheCog() {
    let source = Cog(1)
    weak var gone: Cog<Int>?
    let cogs = Cogs()
    let dependent: Cog<Int>
    do {
      let cog = Cog { c in c[source] + 100 }
      gone = cog
      #expect(cogs[cog] == 101)
      // Only the context keeps `cog` from here on: the dependent's body holds it unowned,
      // so a recompute through a freed cog would trap.
      dependent = Cog { [unowned cog] c in c[cog] * 2 }
    }
    #expect(gone != nil)
    #expect(cogs[dependent] == 202)
    cogs.turn("write") { w in w[source] = 2 }
    #expect(cogs[dependent] == 204)
    #expect(gone != nil)
  }

  @Test("an automatic cog nothing names is freed once the last context that has its row ends")
  func freedWithTheLastContext() {
    let source = Cog(1)
    weak var gone: Cog<Int>?
    var first: Cogs? = Cogs()
    var second: Cogs? = Cogs()
    do {
      let cog = Cog(label: "plus") { c in c[source] + 1 }
      gone = cog
      #expect(first![cog] == 2 && second![cog] == 2)
    }
    #expect(gone != nil)
    first = nil
    #expect(gone != nil)
    second = nil
    #expect(gone == nil)
    _ = (first, second)
  }

  @Test("a dropped automatic cog is freed at the next sweep while its contexts live on")
  func freedWhileContextsLive() {
    let source = Cog(1)
    weak var gone: Cog<Int>?
    let first = Cogs()
    let second = Cogs()
    do {
      let cog = Cog(label: "plus") { c in c[source] + 1 }
      gone = cog
      #expect(first[cog] == 2 && second[cog] == 2)
    }
    #expect(gone != nil)  // the contexts hold it until they sweep
    first.releaseDropped()
    #expect(gone != nil && first.liveRowCount == 1)
    second.turn("write") { w in w[source] = 5 }
    second.releaseDropped()
    #expect(second.liveRowCount == 1)
    #expect(gone == nil)
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
