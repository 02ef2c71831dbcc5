@_spi(Testing) import Cog
import Testing

/// A column stores a trivial value bare and any other as an optional (`ValueEntry`): a row
/// that has no value yet must read as having none, whatever a reused entry still holds, and
/// values that need destroying leave with their rows.
@MainActor
@Suite("Value entries")
struct ValueEntryTests {
  @Test("a first run sees no prior value in a pair another row used before")
  func reusedPairShowsNoPriorValue() {
    let cogs = Cogs()
    var priors: [Int?] = []
    for round in 0..<3 {
      // `.whileObserved`: released right after the read, its pair back on the free list
      // with the stale bytes of its last value.
      let scan = Cog(lifetime: .whileObserved) { c -> Int in
        priors.append(c.curr)
        return 1_000 + round
      }
      #expect(cogs[scan] == 1_000 + round)
      #expect(!cogs.hasRow(scan))
    }
    #expect(priors == [nil, nil, nil])
  }

  @Test("a cycle's placeholder is served to a trivial state that never had a value")
  func cycleServesPlaceholderNotStaleBytes() {
    let cogs = Cogs()
    cogs.errorHandler = { _ in }
    // Rows that held 7 and were released leave their pairs' bytes behind.
    for _ in 0..<4 {
      let before = Cog(lifetime: .whileObserved) { _ in 7 }
      #expect(cogs[before] == 7)
    }
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[late.value] &+ 1 }
    let b = Cog(label: "b") { c in c[a] &+ 1 }
    late.value = b
    #expect(cogs[b] == 0)
    #expect(cogs[a] == 0)
  }

  @Test("values that need destroying leave with their rows and their context")
  func referenceValuesAreReleased() {
    let live = LiveCount()
    var source: Cog<Held>? = Cog(Held(Token(live)))  // the descriptor keeps its initial value
    let mapped = Cog(lifetime: .whileObserved) { c in Held(Token(live), c[source!].token) }
    var cogs: Cogs? = Cogs()
    #expect(cogs![mapped].other != nil)
    #expect(live.count == 1)  // the mapped value went with its row
    cogs!.turn("replace") { w in w[source!] = Held(Token(live)) }
    #expect(live.count == 2)
    cogs!.turn("again") { w in w[source!] = Held(Token(live)) }
    // The initial value, the current one and the one before it (the pair's other entry).
    #expect(live.count == 3)
    source = nil
    cogs = nil
    #expect(live.count == 0)
  }
}

/// A value that is not trivial: it holds references. Equal when it holds the same tokens.
struct Held: Equatable {
  static func == (a: Held, b: Held) -> Bool { a.token === b.token && a.other === b.other }

  let token: Token
  let other: Token?
  init(_ token: Token, _ other: Token? = nil) {
    self.token = token
    self.other = other
  }
}
