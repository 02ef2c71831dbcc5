@_spi(Testing) import Cog
import Testing

/// What a cycle does to the rest of the context (issue 9, findings 1–3): reactions keep
/// running, values stay current, errors name every state of the loop, `try read` throws in
/// every cycle case, and the subscript serves stable values.
@MainActor
@Suite("Cycle recovery")
struct CycleRecoveryTests {
  @Test("after a cycle in a flush, every reaction keeps running and served values are current")
  func reactionsSurviveACycleInAFlush() {
    let close = Cog(false, label: "close")
    let seed = Cog(1, label: "seed")
    let unrelated = Cog(0, label: "unrelated")
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[close] ? c[late.value] + 1 : c[seed] }
    let b = Cog(label: "b") { c in c[a] * 10 }
    late.value = b
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var seen: [Int] = []
    var other: [Int] = []
    cogs.react { c in seen.append(c[b]) }
    cogs.react { c in other.append(c[unrelated]) }
    cogs.turn("close") { w in
      w[close] = true
      w[unrelated] = 1
    }
    // The closing read was a's read of b, which the flush's pull was checking.
    #expect(errors == [.cycle(states: ["b", "a"])])
    #expect(other == [0, 1])
    cogs.turn("open") { w in w[close] = false }
    cogs.turn("t") { w in
      w[seed] = 4
      w[unrelated] = 2
    }
    #expect(seen == [10, 40])
    #expect(other == [0, 1, 2])
    #expect(cogs[b] == 40)
    #expect(errors.count == 1)
  }

  @Test("a reaction whose registration run meets a cycle runs again once the loop opens")
  func reactionSurvivesACycleAtRegistration() {
    let close = Cog(true, label: "close")
    let seed = Cog(1, label: "seed")
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[close] ? c[late.value] + 1 : c[seed] }
    let b = Cog(label: "b") { c in c[a] * 10 }
    late.value = b
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var seen: [Int] = []
    cogs.react("watch b") { c in seen.append(c[b]) }
    // The registration run read b inside the cycle: it saw b's placeholder (b never had a
    // value) and the cycle was reported.
    #expect(errors == [.cycle(states: ["b", "a"])])
    #expect(seen == [0])
    cogs.turn("open") { w in w[close] = false }
    #expect(seen == [0, 10])
    cogs.turn("seed") { w in w[seed] = 2 }
    #expect(seen == [0, 10, 20])
    #expect(errors.count == 1)
  }

  @Test("a reaction blocked by a cycle is retried after every turn that changes something")
  func blockedReactionIsRetried() {
    let close = Cog(false, label: "close")
    let seed = Cog(1, label: "seed")
    let noise = Cog(0, label: "noise")
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[close] ? c[late.value] + 1 : c[seed] }
    let b = Cog(label: "b") { c in c[a] * 10 }
    late.value = b
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var seen: [Int] = []
    cogs.react { c in seen.append(c[b]) }
    cogs.turn("close") { w in w[close] = true }
    #expect(errors.count == 1)
    // While the loop stays closed, each changing turn retries the reaction and reports again.
    cogs.turn("noise") { w in w[noise] = 1 }
    #expect(errors.count == 2)
    // A turn that changes nothing retries nothing.
    cogs.turn("nothing") { w in w[noise] = 1 }
    #expect(errors.count == 2)
    cogs.turn("open") { w in
      w[close] = false
      w[seed] = 3
    }
    #expect(seen == [10, 30])
    #expect(errors.count == 2)
  }

  @Test("a cycle error names every state of the loop, in read order")
  func errorNamesTheWholeLoop() {
    // x → z → y → x, all evaluated for the first time.
    let late = Late<Cog<Int>>()
    let y = Cog(label: "y") { c in c[late.value] + 1 }
    let z = Cog(label: "z") { c in c[y] + 1 }
    let x = Cog(label: "x") { c in c[z] + 1 }
    late.value = x
    let cogs = Cogs()
    #expect(throws: CogError.cycle(states: ["x", "z", "y"])) { try cogs.read(x) }
    // Read from downstream, the error still names the loop (not the reader).
    let w = Cog(label: "w") { c in c[x] * 2 }
    #expect(throws: CogError.cycle(states: ["x", "z", "y"])) { try cogs.read(w) }
  }

  @Test("a loop closed mid-run through a row being checked and a running body is named whole")
  func errorNamesLoopAcrossThePullStack() throws {
    let close = Cog(false, label: "close")
    let s = Cog(1, label: "s")
    let late = Late<Cog<Int>>()
    let y = Cog(label: "y") { c in c[close] ? c[late.value] + 1 : c[s] }
    let z = Cog(label: "z") { c in c[y] + 1 }
    let x = Cog(label: "x") { c -> Int in
      _ = c[close]
      return c[z] + 1
    }
    late.value = x
    let cogs = Cogs()
    #expect(try cogs.read(x) == 3)
    cogs.turn("close") { w in w[close] = true }
    // x is running when y reads it; z sits on the pull stack between them.
    #expect(throws: CogError.cycle(states: ["x", "z", "y"])) { try cogs.read(x) }
    let w = Cog(label: "w") { c in c[x] * 2 }
    #expect(throws: CogError.cycle(states: ["x", "z", "y"])) { try cogs.read(w) }
    cogs.turn("open") { w in w[close] = false }
    #expect(try cogs.read(w) == 6)
  }

  @Test("try read throws for a cycle among states that never had a value")
  func tryReadThrowsWithoutValues() {
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[late.value] + 1 }
    let b = Cog(label: "b") { c in c[a] + 1 }
    late.value = b
    let cogs = Cogs()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    #expect(throws: CogError.cycle(states: ["a", "b"])) { try cogs.read(a) }
    #expect(throws: CogError.cycle(states: ["b", "a"])) { try cogs.read(b) }
    // The subscript serves the placeholder of a state that never had a value, every time.
    #expect(cogs[b] == 0)
    #expect(cogs[b] == 0)
    #expect(errors.count == 2)
  }

  @Test("placeholders: nil, false, empty text and collections, and CogCyclePlaceholder types")
  func placeholdersForEveryLiteralType() {
    struct Point: Equatable, CogCyclePlaceholder {
      var x = 0
      static var cyclePlaceholder: Point { Point(x: -1) }
    }
    func loop<T: Equatable>(_ make: @escaping @MainActor (T) -> T) -> (Cog<T>, Cogs) {
      let late = Late<Cog<T>>()
      let a = Cog(label: "a") { c in make(c[late.value]) }
      let b = Cog(label: "b") { c in c[a] }
      late.value = b
      let cogs = Cogs()
      cogs.errorHandler = { _ in }
      return (b, cogs)
    }
    let (optional, c1) = loop { (v: Int?) in v.map { $0 + 1 } }
    #expect(c1[optional] == nil)
    let (flag, c2) = loop { (v: Bool) in !v }
    #expect(c2[flag] == false)
    let (text, c3) = loop { (v: String) in v + "x" }
    #expect(c3[text] == "")
    let (list, c4) = loop { (v: [Int]) in v + [1] }
    #expect(c4[list] == [])
    let (map, c5) = loop { (v: [String: Int]) in v }
    #expect(c5[map] == [:])
    let (real, c6) = loop { (v: Double) in v + 1 }
    #expect(c6[real] == 0)
    let (point, c7) = loop { (v: Point) in Point(x: v.x + 1) }
    #expect(c7[point] == Point(x: -1))
    #expect(throws: CogError.self) { try c7.read(point) }
  }

  @Test("after a cycle the subscript serves each state's last good value, the same every time")
  func subscriptIsStableAfterACycle() {
    let close = Cog(false, label: "close")
    let seed = Cog(1, label: "seed")
    let late = Late<Cog<Int>>()
    let a = Cog(label: "a") { c in c[close] ? c[late.value] + 1 : c[seed] }
    let b = Cog(label: "b") { c in c[a] * 10 }
    late.value = b
    let cogs = Cogs()
    var errors = 0
    cogs.errorHandler = { _ in errors += 1 }
    #expect(cogs[b] == 10)
    cogs.turn("close") { w in w[close] = true }
    #expect([cogs[b], cogs[b], cogs[b]] == [10, 10, 10])
    #expect([cogs[a], cogs[a]] == [1, 1])
    #expect(errors == 5)
    cogs.turn("open") { w in
      w[close] = false
      w[seed] = 2
    }
    #expect(cogs[b] == 20)
    #expect(errors == 5)
  }

  @Test("the error handler of a cycle met by a flush's reaction runs outside every body")
  func errorHandlerRunsOutsideBodies() async {
    // The flush sets its graph as the running bodies' one once around its reactions; the
    // error handler it calls is not a body, so a context kept from a body stops there.
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let close = Cog(false, label: "close")
        let seed = Cog(1, label: "seed")
        let late = Late<Cog<Int>>()
        let a = Cog(label: "a") { c in c[close] ? c[late.value] + 1 : c[seed] }
        let b = Cog(label: "b") { c in c[a] * 10 }
        late.value = b
        var kept: CogContext<Int>? = nil
        let keep = Cog(label: "keep") { c in
          kept = c
          return c[seed]
        }
        let cogs = Cogs()
        _ = cogs[keep]
        cogs.errorHandler = { _ in _ = kept![seed] }
        cogs.react { c in _ = c[b] }
        cogs.turn("close") { w in w[close] = true }
      }
    }
  }
}
