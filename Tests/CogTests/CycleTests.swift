import Cog
import Testing

@MainActor
@Suite("Cycles")
struct CycleTests {
  @Test("a cycle is reported with the states that form it, and the context stays usable")
  func cycleThenNormalUse() throws {
    let closeLoop = Cog(false, label: "closeLoop")
    let seed = Cog(1, label: "seed")
    // a reads b only when the loop is closed; b always reads a.
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[closeLoop] ? c[late.value] + 1 : c[seed] }
    let b = Cog(label: "b") { c in c[a] * 10 }
    late.value = b
    let cogs = Cogs()
    #expect(try cogs.read(b) == 10)

    cogs.turn("close") { w in w[closeLoop] = true }
    #expect(throws: CogError.self) { try cogs.read(b) }
    do {
      _ = try cogs.read(b)
    } catch {
      // Reading b again still meets the cycle (the rows stay dirty after a failure).
      guard case .cycle(let states) = error else {
        Issue.record("expected a cycle, got \(error)")
        return
      }
      #expect(Set(states) == ["a", "b"])
      #expect(error.description.contains("→"))
    }

    cogs.turn("open") { w in w[closeLoop] = false }
    #expect(try cogs.read(b) == 10)
    cogs.turn("seed") { w in w[seed] = 4 }
    #expect(try cogs.read(b) == 40)
  }

  @Test("a cycle met while a flush runs reactions goes to the error handler")
  func cycleInReaction() {
    let closeLoop = Cog(false, label: "loop")
    let late = Late<Cog<Int>>()
    let x = Cog(label: "x") { c in c[closeLoop] ? c[late.value] : 0 }
    let y = Cog(label: "y") { c in c[x] + 1 }
    late.value = y
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var seen: [Int] = []
    cogs.react("watch y") { c in seen.append(c[y]) }
    cogs.turn("close") { w in w[closeLoop] = true }
    #expect(errors.count == 1)
    if case .cycle(let states) = errors.first {
      #expect(Set(states) == ["x", "y"])
    }
    cogs.turn("open") { w in w[closeLoop] = false }
    #expect(cogs[y] == 1)
  }
}

/// A reference filled in after the closures that use it are made (to build a cycle).
@MainActor
final class Late<T> {
  var value: T! = nil
}
