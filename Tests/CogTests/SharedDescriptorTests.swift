@_spi(Testing) import Cog
import CogCore
import Testing

/// One descriptor used by several live contexts: its one-entry cache names one context, and
/// every other context finds its own row in its map (`ContextMaps.keylessRows`); a context
/// that outlives the cache's holder takes the cache over.
@MainActor
@Suite("Descriptors shared by contexts")
struct SharedDescriptorTests {
  @Test("two live contexts keep their own rows of one descriptor, read alternately")
  func alternatingReads() {
    let source = Cog(0)
    let doubled = Cog { c in c[source] * 2 }
    let a = Cogs()
    let b = Cogs()
    a.turn("a") { w in w[source] = 1 }
    b.turn("b") { w in w[source] = 2 }
    for round in 0..<100 {
      #expect(a[doubled] == 2 + 4 * round && b[doubled] == 4 + 4 * round)
      a.turn("a") { w in w[source] += 2 }
      b.turn("b") { w in w[source] += 2 }
    }
    #expect(a.liveRowCount == 2 && b.liveRowCount == 2)
  }

  @Test("the second context's rows stay its own after the first context goes")
  func firstContextGoes() {
    let source = Cog(10)
    let plusOne = Cog { c in c[source] + 1 }
    var a: Cogs? = Cogs()
    let b = Cogs()
    a!.turn("a") { w in w[source] = 100 }
    #expect(a![plusOne] == 101)
    #expect(b[plusOne] == 11)
    a = nil
    // `b` takes the caches over from the context that went.
    for i in 0..<3 {
      b.turn("b") { w in w[source] = i }
      #expect(b[plusOne] == i + 1 && b[source] == i)
    }
    #expect(b.liveRowCount == 2)
    // A third context starts from the initial value, and `b` keeps its own.
    let c = Cogs()
    #expect(c[plusOne] == 11 && b[plusOne] == 3)
  }

  @Test("a row released in a non-caching context comes back fresh, never another's slot")
  func releasedInSecondContext() {
    let source = Cog(1)
    let watched = Cog(lifetime: .whileObserved) { c in c[source] * 10 }
    let a = Cogs()
    let b = Cogs()
    #expect(a[source] == 1)
    var seen: [Int] = []
    let reaction = a.react { c in seen.append(c[watched]) }
    b.turn("b") { w in w[source] = 2 }
    for round in 0..<50 {
      // In `b`, read unobserved: the row goes at once; a temporary takes its slot.
      #expect(b[watched] == (2 + round) * 10)
      let temporary = Cog(-round)
      #expect(b[temporary] == -round)
      b.turn("b") { w in w[source] += 1 }
    }
    #expect(seen == [10])
    a.turn("a") { w in w[source] = 3 }
    #expect(seen == [10, 30])
    reaction.cancel()
    #expect(a.hasRow(source) && !a.hasRow(watched))
  }

  @Test("dropped by the app, a descriptor shared by three contexts goes from each")
  func droppedFromThree() {
    let source = Cog(1)
    let contexts = [Cogs(), Cogs(), Cogs()]
    weak var gone: Cog<Int>?
    weak var details: KeylessDetails?
    do {
      let shared = Cog { c in c[source] + 1 }
      gone = shared
      details = shared.state.details
      for (i, cogs) in contexts.enumerated() {
        cogs.turn("w") { w in w[source] = i }
        #expect(cogs[shared] == i + 1)
      }
    }
    // The cog went with the app's last reference; its rows keep its details.
    #expect(gone == nil && details != nil)
    for cogs in contexts { cogs.releaseDropped() }
    #expect(details == nil)
    for cogs in contexts { #expect(cogs.liveRowCount == 1 && cogs.registeredOwnerCount == 1) }
  }
}
