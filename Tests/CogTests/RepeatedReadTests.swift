@_spi(Testing) import Cog
import Testing

/// A state read again in the same body: the read's second inline test (`Graph.read`,
/// `EdgeStore.previous`) serves it without tracking it again. Every read must still see the
/// state's current value, the state must stay one dependency, and what the general path does
/// for such a read (a cached row leaving the cache list, a cycle) must still happen.
@MainActor
@Suite("Repeated reads")
struct RepeatedReadTests {
  /// The dependencies of the row labelled `label`, by label.
  func dependencies(of label: String, in cogs: Cogs) -> [String] {
    let snapshot = cogs.inspect()
    let byID = Dictionary(uniqueKeysWithValues: snapshot.nodes.map { ($0.id, $0.label) })
    guard let node = snapshot.nodes.first(where: { $0.label == label }) else { return [] }
    return node.dependencies.compactMap { byID[$0] }
  }

  @Test("a state read several times in a row is one dependency, and every read sees its value")
  func readInARow() {
    let runs = Runs()
    let a = Cog(1, label: "a")
    var seen: [[Int]] = []
    let triple = Cog(label: "triple") { c -> Int in
      runs.hit("triple")
      let reads = [c[a], c[a], c[a]]
      seen.append(reads)
      return reads.reduce(0, +)
    }
    let cogs = Cogs()
    // The first run links `a` once; its second and third reads find it as the previous row.
    #expect(cogs[triple] == 3)
    #expect(dependencies(of: "triple", in: cogs) == ["a"])
    for v in 2...4 {
      cogs.turn("a") { w in w[a] = v }
      #expect(cogs[triple] == 3 * v)
    }
    #expect(seen == [[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]])
    #expect(runs["triple"] == 4)
    #expect(dependencies(of: "triple", in: cogs) == ["a"])
  }

  @Test("a state read again after other reads, and a computed read twice, stay one dependency each")
  func readAgainBetweenOthers() {
    let runs = Runs()
    let a = Cog(1, label: "a")
    let b = Cog(10, label: "b")
    let double = Cog(label: "double") { c -> Int in
      runs.hit("double")
      return c[b] * 2
    }
    let mixed = Cog(label: "mixed") { c -> Int in
      runs.hit("mixed")
      // a, double (recomputed nested when stale), double again, a again, then b twice.
      return c[a] + c[double] + c[double] + c[a] + c[b] + c[b]
    }
    let cogs = Cogs()
    #expect(cogs[mixed] == 1 + 20 + 20 + 1 + 10 + 10)
    cogs.turn("b") { w in w[b] = 11 }
    #expect(cogs[mixed] == 1 + 22 + 22 + 1 + 11 + 11)
    cogs.turn("a") { w in w[a] = 2 }
    #expect(cogs[mixed] == 2 + 22 + 22 + 2 + 11 + 11)
    #expect(runs["double"] == 2)
    #expect(runs["mixed"] == 3)
    #expect(dependencies(of: "mixed", in: cogs).sorted() == ["a", "b", "double"])
  }

  @Test("a body reading its first state before each read of another: every flip is followed")
  func firstStateBeforeEachRead() {
    // kairo/unstable's shape: after a flip the run's candidate is the state it no longer
    // reads, and each later read repeats the run's first read or its previous one (found by
    // `track`'s cursor and first-entry checks, with no entry linked twice).
    let runs = Runs()
    let head = Cog(0, label: "head")
    let double = Cog(label: "double") { c -> Int in
      runs.hit("double")
      return c[head] * 2
    }
    let inverse = Cog(label: "inverse") { c -> Int in
      runs.hit("inverse")
      return -c[head]
    }
    let current = Cog(label: "current") { c -> Int in
      runs.hit("current")
      var result = 0
      for _ in 0..<5 { result += c[head] % 2 != 0 ? c[double] : c[inverse] }
      return result
    }
    let cogs = Cogs()
    var seen: [Int] = []
    let reaction = cogs.react("watch") { c in seen.append(c[current]) }
    #expect(dependencies(of: "current", in: cogs) == ["head", "inverse"])
    for v in 1...6 {
      cogs.turn("head") { w in w[head] = v }
      let other = v % 2 != 0 ? "double" : "inverse"
      #expect(dependencies(of: "current", in: cogs) == ["head", other])
    }
    #expect(seen == [0, 10, -10, 30, -20, 50, -30])
    // Each recomputes only when read stale: double for odd heads, inverse for even ones.
    #expect(runs["double"] == 3)
    #expect(runs["inverse"] == 4)
    #expect(runs["current"] == 7)
    reaction.cancel()
  }

  @Test("a reaction reading a state twice runs once per change and sees the new value twice")
  func reactionReadsTwice() {
    let a = Cog(1, label: "a")
    var seen: [[Int]] = []
    let cogs = Cogs()
    let reaction = cogs.react("twice") { c in seen.append([c[a], c[a]]) }
    cogs.turn("a") { w in w[a] = 2 }
    cogs.turn("a") { w in w[a] = 2 }
    cogs.turn("a") { w in w[a] = 3 }
    #expect(seen == [[1, 1], [2, 2], [3, 3]])
    reaction.cancel()
  }

  @Test("a peek then a read, and a read then a peek, of one state: it is a dependency")
  func peekAndRead() {
    let a = Cog(1, label: "a")
    let peekFirst = Cog(label: "peekFirst") { c in c.peek(a) * 10 + c[a] }
    let readFirst = Cog(label: "readFirst") { c in c[a] * 10 + c.peek(a) }
    let cogs = Cogs()
    #expect(cogs[peekFirst] == 11 && cogs[readFirst] == 11)
    cogs.turn("a") { w in w[a] = 2 }
    #expect(cogs[peekFirst] == 22 && cogs[readFirst] == 22)
    #expect(dependencies(of: "peekFirst", in: cogs) == ["a"])
    #expect(dependencies(of: "readFirst", in: cogs) == ["a"])
  }

  @Test("a cached row read twice leaves the cache list and is kept while observed")
  func cachedRowReadTwice() {
    let runs = Runs()
    let a = Cog(1, label: "a")
    let cached = Cog(label: "cached", lifetime: .cache(limit: 1, retention: .seconds(3600))) {
      c -> Int in
      runs.hit("cached")
      return c[a] + 100
    }
    let other = Cog(label: "other", lifetime: .cache(limit: 1, retention: .seconds(3600))) {
      c -> Int in c[a] + 200
    }
    let cogs = Cogs()
    // Read from outside: unobserved, so the row is kept in the cache list.
    #expect(cogs[cached] == 101)
    #expect(cogs.inspect().nodes.first { $0.label == "cached" }?.flags.contains(.cached) == true)
    let twice = Cog(label: "twice") { c in c[cached] + c[cached] }
    #expect(cogs[twice] == 202)
    // Observed now: out of the cache list, so another cached row cannot push it out.
    let node = cogs.inspect().nodes.first { $0.label == "cached" }
    #expect(node?.flags.contains(.cached) == false)
    #expect(cogs[other] == 201)
    #expect(cogs.hasRow(cached))
    cogs.turn("a") { w in w[a] = 2 }
    #expect(cogs[twice] == 204)
    #expect(runs["cached"] == 2)
  }

  @Test("a cycle read twice in one body is reported, and the body recovers when it opens")
  func cycleReadTwice() {
    let closes = Cog(false, label: "closes")
    let late = Late<Cog<Int>>()
    let right = Cog(label: "right") { c -> Int in
      c[closes] ? c[late.value] + c[late.value] : 1
    }
    let left = Cog(label: "left") { c -> Int in c[right] + c[right] + 1 }
    late.value = left
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var seen: [Int] = []
    cogs.react("watch left") { c in seen.append(c[left] + c[left]) }
    cogs.turn("close") { w in w[closes] = true }
    #expect(errors.count == 1)
    if case .cycle(let states) = errors.first {
      #expect(Set(states) == ["left", "right"])
    }
    cogs.turn("open") { w in w[closes] = false }
    #expect(cogs[left] == 3)
    #expect(seen.first == 6 && seen.last == 6)
  }
}
