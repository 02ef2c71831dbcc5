import Cog
import Testing

/// Counts body runs of the cogs a test declares.
@MainActor
final class Runs {
  private(set) var counts: [String: Int] = [:]
  func hit(_ name: String) { counts[name, default: 0] += 1 }
  subscript(name: String) -> Int { counts[name, default: 0] }
}

@MainActor
@Suite("Propagation")
struct PropagationTests {
  @Test("a diamond recomputes each node once per change and never shows a glitch")
  func diamondWithoutGlitch() {
    let runs = Runs()
    var seen: [(Int, Int)] = []
    let head = Cog(1, label: "head")
    let left = Cog(label: "left") { c -> Int in
      runs.hit("left")
      return c[head] * 2
    }
    let right = Cog(label: "right") { c -> Int in
      runs.hit("right")
      return c[head] * 3
    }
    let sum = Cog(label: "sum") { c -> Int in
      runs.hit("sum")
      let l = c[left]
      let r = c[right]
      seen.append((l, r))
      return l + r
    }
    let cogs = Cogs()
    #expect(cogs[sum] == 5)
    cogs.turn("set") { w in w[head] = 2 }
    #expect(cogs[sum] == 10)
    #expect(runs["left"] == 2 && runs["right"] == 2 && runs["sum"] == 2)
    // Every run of sum saw left and right computed from the same head.
    #expect(seen.allSatisfy { $0.0 / 2 == $0.1 / 3 })
  }

  @Test("an equal recompute stops its children (backdating)")
  func equalityGate() {
    let runs = Runs()
    let n = Cog(1, label: "n")
    let parity = Cog(label: "parity") { c -> Int in
      runs.hit("parity")
      return c[n] % 2
    }
    let label = Cog(label: "label") { c -> String in
      runs.hit("label")
      return c[parity] == 0 ? "even" : "odd"
    }
    let cogs = Cogs()
    #expect(cogs[label] == "odd")
    cogs.turn("odd again") { w in w[n] = 3 }
    #expect(cogs[label] == "odd")
    #expect(runs["parity"] == 2)
    #expect(runs["label"] == 1)
    cogs.turn("even") { w in w[n] = 4 }
    #expect(cogs[label] == "even")
    #expect(runs["label"] == 2)
  }

  @Test("writing an equal value changes nothing and runs nothing")
  func equalWrite() {
    let runs = Runs()
    let n = Cog(7)
    let twice = Cog { c -> Int in
      runs.hit("twice")
      return c[n] * 2
    }
    let cogs = Cogs()
    _ = cogs[twice]
    let before = cogs.revision
    cogs.turn("same") { w in w[n] = 7 }
    #expect(!cogs.hasChanged(since: before))
    _ = cogs[twice]
    #expect(runs["twice"] == 1)
    cogs.turn("back and forth") { w in
      w[n] = 8
      w[n] = 7
    }
    _ = cogs[twice]
    #expect(runs["twice"] == 1)
  }

  @Test("reading through the writer sees staged values; others see them after the flush")
  func stagedWrites() {
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    var insideOutside = -1
    cogs.turn("increment") { w in
      w[count] += 1
      w[count] += 1
      insideOutside = cogs[count]
    }
    #expect(insideOutside == 0)
    #expect(cogs[count] == 2)
  }

  @Test("peek reads without subscribing")
  func peekDoesNotSubscribe() {
    let runs = Runs()
    let a = Cog(1)
    let b = Cog(10)
    let sum = Cog { c -> Int in
      runs.hit("sum")
      return c[a] + c.peek(b)
    }
    let cogs = Cogs()
    #expect(cogs[sum] == 11)
    cogs.turn("b") { w in w[b] = 20 }
    #expect(cogs[sum] == 11)
    #expect(runs["sum"] == 1)
    cogs.turn("a") { w in w[a] = 2 }
    #expect(cogs[sum] == 22)
    #expect(runs["sum"] == 2)
  }

  @Test("curr is the cog's prior value (scan)")
  func currSeesPriorValue() {
    let tick = Cog(0)
    var priors: [Int?] = []
    let total = Cog { c -> Int in
      priors.append(c.curr)
      return (c.curr ?? 0) + c[tick]
    }
    let cogs = Cogs()
    #expect(cogs[total] == 0)
    cogs.turn("1") { w in w[tick] = 1 }
    #expect(cogs[total] == 1)
    cogs.turn("2") { w in w[tick] = 2 }
    #expect(cogs[total] == 3)
    #expect(priors == [nil, 0, 1])
  }

  @Test("a 100,000-deep chain propagates without recursion")
  func deepChain() {
    let depth = 100_000
    let head = Cog(0, label: "head")
    var chain: [Cog<Int>] = []
    var previous: Cog<Int>? = nil
    for _ in 0..<depth {
      let p = previous
      // `unowned`: the array keeps every descriptor alive; a strong capture would make each
      // descriptor own the one before it, and releasing the head would recurse 100,000 deep.
      let next = p.map { p in Cog { [unowned p] c in c[p] + 1 } } ?? Cog { c in c[head] + 1 }
      chain.append(next)
      previous = next
    }
    let cogs = Cogs(reservingRows: depth + 8)
    // A row that never ran has no known dependencies, so its first evaluation nests through
    // the bodies below it. Warm in steps of 100 so that the nesting stays well inside the
    // 512 KiB stacks of the threads Swift Testing runs main-actor tests on.
    for i in stride(from: 99, to: depth, by: 100) { _ = cogs[chain[i]] }
    #expect(cogs[chain[depth - 1]] == depth)
    // A change now walks the whole chain iteratively: push, then pull.
    cogs.turn("bump") { w in w[head] = 5 }
    #expect(cogs[chain[depth - 1]] == depth + 5)
    cogs.turn("bump") { w in w[head] = 6 }
    #expect(cogs[chain[depth - 1]] == depth + 6)
  }
}
