@_spi(Testing) import Cog
import Testing

/// A manual cog that has no row in a context reads as its initial value there, and a read
/// outside any body (the context's subscript, `try read`, a body's `peek`) makes no row for it:
/// only a write, a tracked read inside a body, a lease or an Observation read does. Whatever
/// makes the row later, every entry point must read the same value as before.
@MainActor
@Suite("Rowless reads")
struct RowlessReadTests {
  @Test("reading a fresh manual cog outside a body gives its initial value and makes no row")
  func outsideReadMakesNoRow() throws {
    let plain = Cog(7)
    let labelled = Cog("x", label: "labelled")
    let compared = Cog(1.5, label: "", equals: { $0 == $1 })
    let cogs = Cogs()
    #expect(cogs[plain] == 7)
    #expect(try cogs.read(plain) == 7)
    #expect(cogs[labelled] == "x")
    #expect(cogs[compared] == 1.5)
    #expect(!cogs.hasRow(plain) && !cogs.hasRow(labelled) && !cogs.hasRow(compared))
    #expect(cogs.liveRowCount == 0)
  }

  @Test("a write after rowless reads makes the row; every read then sees the written value")
  func writeAfterRowlessReads() throws {
    let a = Cog(1, label: "a")
    let cogs = Cogs()
    #expect(cogs[a] == 1)
    cogs.turn("add") { w in w[a] += 10 }
    #expect(cogs.hasRow(a))
    #expect(cogs[a] == 11)
    #expect(try cogs.read(a) == 11)
    cogs.turn("set") { w in w[a] = 3 }
    #expect(cogs[a] == 3)
  }

  @Test("a body's tracked read makes the row and depends on it; a peek makes none")
  func bodyReads() {
    let runs = Runs()
    let a = Cog(1, label: "a")
    let peeked = Cog(100, label: "peeked")
    let sum = Cog(label: "sum") { c -> Int in
      runs.hit("sum")
      return c[a] + c.peek(peeked)
    }
    let cogs = Cogs()
    #expect(cogs[sum] == 101)
    #expect(cogs.hasRow(a) && !cogs.hasRow(peeked))
    cogs.turn("a") { w in w[a] = 2 }
    #expect(cogs[sum] == 102)
    // Not a dependency: writing it does not run `sum` again.
    cogs.turn("peeked") { w in w[peeked] = 200 }
    #expect(cogs[sum] == 102 && runs["sum"] == 2)
    cogs.turn("a") { w in w[a] = 3 }
    #expect(cogs[sum] == 203 && runs["sum"] == 3)
  }

  @Test("a second context reads its own initial value while the first holds the written row")
  func secondContext() {
    let a = Cog(1, label: "a")
    let first = Cogs()
    first.turn("write") { w in w[a] = 5 }
    let second = Cogs()
    #expect(second[a] == 1 && first[a] == 5)
    #expect(!second.hasRow(a) && first.hasRow(a))
    second.turn("write") { w in w[a] = 9 }
    #expect(second[a] == 9 && first[a] == 5)
  }

  @Test("a reaction sees a rowless cog's first write")
  func reactionAfterRowlessRead() {
    let a = Cog(0, label: "a")
    let cogs = Cogs()
    #expect(cogs[a] == 0)
    var seen: [Int] = []
    let reaction = cogs.react { c in seen.append(c[a]) }
    cogs.turn("a") { w in w[a] = 1 }
    #expect(seen == [0, 1])
    reaction.cancel()
  }

  @Test("rowless reads under churn: thousands of fresh cogs read, some written, values exact")
  func churn() {
    let cogs = Cogs()
    var kept: [Cog<Int>] = []
    for i in 0..<5_000 {
      let cog = Cog(i)
      #expect(cogs[cog] == i)
      if i % 7 == 0 {
        cogs.turn("write") { w in w[cog] = -i }
        kept.append(cog)
      }
    }
    #expect(cogs.liveRowCount == kept.count)
    for cog in kept { #expect(cogs[cog] <= 0) }
  }
}
