@_spi(Testing) import Cog
import Testing

@MainActor
@Suite("Keyed boxes")
struct KeyedBoxTests {
  @Test("box[key] names one state per key, shared by every reader, with one body")
  func oneRowPerKey() {
    let runs = Runs()
    let base = Cog(10)
    let scaled = CogBox(label: "scaled") { (k: Int, c) -> Int in
      runs.hit("scaled \(k)")
      return c[base] * k
    }
    let total = Cog { c in c[scaled[2]] + c[scaled[3]] + c[scaled[2]] }
    let cogs = Cogs()
    #expect(cogs[total] == 20 + 30 + 20)
    #expect(cogs[scaled[2]] == 20)
    #expect(runs["scaled 2"] == 1 && runs["scaled 3"] == 1)
    cogs.turn("base") { w in w[base] = 1 }
    #expect(cogs[total] == 2 + 3 + 2)
    #expect(runs["scaled 2"] == 2 && runs["scaled 3"] == 2)
  }

  @Test("value references compare by name: equal keys reach the same row")
  func referencesAreNames() {
    let box = CogBox { (k: String, _) -> Int in k.count }
    let cogs = Cogs()
    #expect(cogs[box["abc"]] == 3)
    let rows = cogs.liveRowCount
    #expect(cogs[box[String("abc")]] == 3)
    #expect(cogs.liveRowCount == rows)
    #expect(box["abc"].label.hasSuffix("[abc]"))
  }

  @Test("rows with different keys of different boxes stay apart")
  func boxesStayApart() {
    let a = CogBox { (k: Int, _) -> Int in k + 1 }
    let b = CogBox { (k: Int, _) -> Int in k + 100 }
    let both = Cog { c in c[a[1]] + c[b[1]] + c[a[2]] }
    let cogs = Cogs()
    #expect(cogs[both] == 2 + 101 + 3)
  }

  @Test("one box read outside bodies in two contexts, with evictions, keeps each context's rows")
  func boxAcrossContexts() {
    let runs = Runs()
    let base = Cog(1, label: "base")
    let item = CogBox(label: "item", lifetime: .whileObserved) { (k: Int, c) -> Int in
      runs.hit("item \(k)")
      return c[base] * 100 + k
    }
    let first = Cogs()
    let second = Cogs()
    first.turn("base") { w in w[base] = 2 }
    // Alternate contexts: each switch misses the box's one-entry cache of the other.
    for round in 0..<3 {
      for k in 0..<4 {
        #expect(first[item[k]] == 200 + k, "round \(round), key \(k)")
        #expect(second[item[k]] == 100 + k, "round \(round), key \(k)")
      }
    }
    // Unobserved `.whileObserved` rows are released after each outermost read, so every
    // read recomputed: 3 rounds × 4 keys × 2 contexts.
    #expect((0..<4).map { runs["item \($0)"] } == [6, 6, 6, 6])
    let lease = first.lease(item[1])
    #expect(first[item[1]] == 201)
    #expect(runs["item 1"] == 7)
    #expect(first[item[1]] == 201)
    #expect(runs["item 1"] == 7)
    second.turn("base") { w in w[base] = 3 }
    #expect(second[item[1]] == 301)
    #expect(first[item[1]] == 201)
    lease.end()
  }
}
