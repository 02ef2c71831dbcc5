import Cog
import Testing

/// First evaluation of never-evaluated deep chains (issue 9, finding 10): each fresh row's
/// body runs nested inside its reader's, so the runtime moves to a fresh stack segment when
/// the current one runs low instead of overflowing it.
@MainActor
@Suite("Deep first evaluation")
struct DeepChainTests {
  @Test("the first read of a never-evaluated 100,000-deep chain works", arguments: [100_000])
  func firstReadOfFreshDeepChain(depth: Int) {
    let head = Cog(0, label: "head")
    var chain: [Cog<Int>] = []
    var previous: Cog<Int>? = nil
    for _ in 0..<depth {
      let p = previous
      let next = p.map { p in Cog { [unowned p] c in c[p] + 1 } } ?? Cog { c in c[head] + 1 }
      chain.append(next)
      previous = next
    }
    let cogs = Cogs(reservingRows: depth + 8)
    #expect(cogs[chain[depth - 1]] == depth)
    cogs.turn("bump") { w in w[head] = 5 }
    #expect(cogs[chain[depth - 1]] == depth + 5)
  }

  @Test("a fresh deep chain read from a reaction and through try read works")
  func freshDeepChainFromEveryEntryPoint() throws {
    let depth = 30_000
    let head = Cog(0, label: "head")
    var chain: [Cog<Int>] = []
    var previous: Cog<Int>? = nil
    for _ in 0..<depth {
      let p = previous
      let next = p.map { p in Cog { [unowned p] c in c[p] + 1 } } ?? Cog { c in c[head] + 1 }
      chain.append(next)
      previous = next
    }
    let cogs = Cogs()
    var seen: [Int] = []
    let tip = chain[depth - 1]
    cogs.react { c in seen.append(c[tip]) }
    #expect(seen == [depth])
    let mid = chain[depth / 2 - 1]
    #expect(try cogs.read(mid) == depth / 2)
    cogs.turn("bump") { w in w[head] = 1 }
    #expect(seen == [depth, depth + 1])
  }
}
