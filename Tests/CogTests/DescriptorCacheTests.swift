@_spi(Testing) import Cog
import Testing

/// Descriptors' one-entry row caches come from a process-wide pool and are recycled when a
/// descriptor goes (issue 13: declaring a manual cog allocates its object only).
@MainActor
@Suite("Descriptor caches")
struct DescriptorCacheTests {
  @Test("a recycled cache never hands a new descriptor the row of the one that went")
  func recycledCacheStartsEmpty() {
    let kept = Cogs()
    let anchor = Cog(-1)
    #expect(kept[anchor] == -1)
    for round in 0..<1_000 {
      // The context and the cog go at the end of each round, and the cog's cache back to
      // the pool (it remembered a row); the next round's cog takes it.
      let cogs = Cogs()
      let cog = Cog(round)
      #expect(cogs[cog] == round)
      cogs.turn("write") { w in w[cog] = round + 1 }
      #expect(cogs[cog] == round + 1)
      #expect(kept.hasRow(anchor) && !kept.hasRow(cog))
    }
    #expect(kept[anchor] == -1 && kept.liveRowCount == 1)
  }

  @Test("descriptors declared and freed on many threads at once get caches of their own")
  func concurrentDeclarations() async {
    let made = await withTaskGroup(of: [Cog<Int>].self) { group in
      for t in 0..<8 {
        group.addTask {
          var kept: [Cog<Int>] = []
          for i in 0..<2_000 {
            let cog = Cog(t * 10_000 + i)
            if i % 10 == 0 { kept.append(cog) }
          }
          return kept
        }
      }
      var all: [Cog<Int>] = []
      for await kept in group { all += kept }
      return all
    }
    let cogs = Cogs()
    var expected = Set<Int>()
    for t in 0..<8 {
      for i in stride(from: 0, to: 2_000, by: 10) { expected.insert(t * 10_000 + i) }
    }
    #expect(Set(made.map { cogs[$0] }) == expected)
    #expect(cogs.liveRowCount == made.count)
  }
}
