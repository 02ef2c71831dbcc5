// A small program built in release by `ReleaseBuildTests`: each scenario misuses the runtime
// (or pushes it to a limit) the way an app could, so the test can check what a shipped app
// prints. `preconditionFailure` drops its message at -O; the runtime's must not.
@_spi(Testing) import Cog
import Foundation

@MainActor
final class Late<T> {
  var value: T! = nil
}

struct Opaque: Equatable {
  var x: Int
}

/// A chain of `depth` automatic cogs over a manual root; returns its head.
nonisolated func chain(_ depth: Int) -> Cog<Int> {
  var p = Cog(1, label: "root")
  for _ in 0..<depth {
    let q = p
    p = Cog { c in c[q] &+ 1 }
  }
  return p
}

@MainActor
func dropChain(way: String, depth: Int) {
  switch way {
  case "nocontext":
    var head: Cog<Int>? = chain(depth)
    precondition(head != nil)
    head = nil
  case "sweep":
    let cogs = Cogs()
    var head: Cog<Int>? = chain(depth)
    print("tip \(cogs[head!])")
    head = nil
    cogs.releaseDropped()
    print("rows \(cogs.liveRowCount)")
  case "contextfirst":
    var head: Cog<Int>? = chain(depth)
    do {
      let cogs = Cogs()
      print("tip \(cogs[head!])")
    }
    head = nil
  case "chainfirst":
    var cogs: Cogs? = Cogs()
    var head: Cog<Int>? = chain(depth)
    print("tip \(cogs![head!])")
    head = nil
    cogs = nil
  case "thread":
    // A secondary thread with a 512 KiB stack builds and drops the chain.
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var head: Cog<Int>? = chain(depth)
      precondition(head != nil)
      head = nil
      done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
  default:
    print("unknown way '\(way)'")
  }
}

@MainActor
func run(_ scenario: String) {
  switch scenario {
  case "escaped-writer":
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    var escaped: CogWriter? = nil
    cogs.turn("leak") { w in escaped = w }
    escaped![count] = 1
  case "escaped-writer-gone":
    // The writer outlives its context: its check must not read the freed graph.
    let count = Cog(0, label: "count")
    var cogs: Cogs? = Cogs()
    var escaped: CogWriter? = nil
    cogs!.turn("leak") { w in escaped = w }
    cogs = nil
    escaped![count] = 1
  case "escaped-context":
    // A body's context kept past its body, used while its context lives.
    let a = Cog(1, label: "a")
    let late = Late<CogContext<Int>>()
    let b = Cog(label: "b") { c in
      late.value = c
      return c[a]
    }
    let cogs = Cogs()
    _ = cogs[b]
    print(late.value[a])
  case "escaped-context-gone":
    // The same, used after its context is gone.
    let a = Cog(1, label: "a")
    let late = Late<CogContext<Int>>()
    let b = Cog(label: "b") { c in
      late.value = c
      return c[a]
    }
    var cogs: Cogs? = Cogs()
    _ = cogs![b]
    cogs = nil
    print(late.value[a])
  case "escaped-reaction-context-gone":
    let a = Cog(1, label: "a")
    let late = Late<CogReactionContext>()
    var cogs: Cogs? = Cogs()
    cogs!.react("keep") { c in
      late.value = c
      _ = c[a]
    }
    cogs = nil
    print(late.value[a])
  case "escaped-family-writer":
    let drafts = CogFamily { (_: Int) in 0 }
    let cogs = Cogs()
    var escaped: CogWriter? = nil
    cogs.turn("leak") { w in escaped = w }
    escaped![drafts[1]] = 1
  case "escaped-family-writer-gone":
    // The writer outlives its context: its check must not read the freed graph.
    let drafts = CogFamily { (_: Int) in 0 }
    var cogs: Cogs? = Cogs()
    var escaped: CogWriter? = nil
    cogs!.turn("leak") { w in escaped = w }
    cogs = nil
    escaped![drafts[1]] = 1
  case "write-box":
    let box = CogBox(label: "plus") { (k: Int, _) in k }
    let cogs = Cogs()
    cogs.turn("bad") { w in w[box[2]] = 9 }
  case "write-automatic":
    let a = Cog(1)
    let twice = Cog(label: "twice") { c in c[a] * 2 }
    let cogs = Cogs()
    cogs.turn("bad") { w in w[twice] = 3 }
  case "turn-in-turn":
    let cogs = Cogs()
    cogs.turn("outer") { _ in cogs.turn("inner") { _ in } }
  case "turn-in-body":
    let cogs = Cogs()
    let a = Cog(1)
    let bad = Cog(label: "bad") { c -> Int in
      cogs.turn("inside") { _ in }
      return c[a]
    }
    _ = cogs[bad]
  case "react-in-turn":
    let cogs = Cogs()
    cogs.turn("outer") { _ in cogs.react("late") { _ in } }
  case "evict-in-turn":
    let box = CogBox { (k: Int, _) -> Int in k }
    let cogs = Cogs()
    _ = cogs[box[1]]
    cogs.turn("outer") { _ in cogs.evict(box[1]) }
  case "cycle-without-placeholder":
    let late = Late<Cog<Opaque>>()
    let a = Cog(label: "a") { c in Opaque(x: c[late.value].x + 1) }
    let b = Cog(label: "b") { c in c[a] }
    late.value = b
    let cogs = Cogs()
    _ = try? cogs.read(b)
  case "export-in-turn":
    let count = Cog(0, label: "count")
    let cogs = Cogs()
    cogs.turn("outer") { _ in _ = cogs.export(count) }
  case "app-before-setup":
    let count = Cog(0)
    print(Cogs.app[count])
  case "app-setup-twice":
    Cogs.setUpApp()
    Cogs.setUpApp()
  case "run-count-off":
    let one = Cog(label: "one") { _ in 1 }
    let cogs = Cogs()
    _ = cogs[one]
    print(cogs.runCount(of: one))
  case "descriptor-ids-exhausted":
    // The last ids, then one declaration more than they number.
    Cogs.skipDescriptorIDs(to: Int32.max - 2)
    var kept: [Cog<Int>] = []
    for i in 0..<4 { kept.append(Cog(i)) }
    print(kept.count)
  case "clock-backwards":
    CogTestClock().advance(by: .seconds(-1))
  case "test-api":
    // The test API in a release build: history off by default, switched on; run counts; a
    // budget; the graph as DOT.
    let count = Cog(1, label: "count")
    let doubled = Cog(label: "doubled") { c in c[count] * 2 }
    let cogs = Cogs()
    cogs.turn("unrecorded") { w in w[count] = 2 }
    print("history \(cogs.history.count)")
    cogs.recordsHistory = true
    cogs.countsRuns = true
    _ = cogs.react("show") { c in _ = c[doubled] }
    cogs.turn("recorded") { w in w[count] = 3 }
    print("history \(cogs.history.map(\.description))")
    print("runs \(cogs.runCount(of: doubled))")
    do {
      try cogs.expectRecomputes(atMost: []) { cogs.turn("again") { w in w[count] = 4 } }
    } catch {
      print("budget \(error)")
    }
    print("dot \(cogs.inspect().dot.contains(#"[label="doubled\n= 8", shape=ellipse]"#))")
  case "explain":
    // Explained turns in a release build: off by default, switched on for the context.
    let n = Cog(1, label: "n")
    let parity = Cog(label: "parity") { c in c[n] % 2 }
    let shown = Cog(label: "shown") { c in c[parity] == 1 ? "odd" : "even" }
    let cogs = Cogs()
    _ = cogs.react("show") { c in _ = c[shown] }
    cogs.turn("unexplained") { w in w[n] = 3 }
    print("explained \(cogs.explainsTurns) \(cogs.explanations.count)")
    cogs.explainsTurns = true
    cogs.turn("explained") { w in w[n] = 5 }
    print("why \(cogs.why(shown)!)")
    print("cutoff \(cogs.lastExplanation!.cutoffs.map(\.state))")
  case let s where s.hasPrefix("deep-chain-"):
    let depth = Int(s.dropFirst("deep-chain-".count))!
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
    print("tip \(cogs[chain[depth - 1]])")
  case let s where s.hasPrefix("drop-chain-"):
    // drop-chain-<way>-<depth>: a chain of automatic cogs, each reading the previous one,
    // dropped one of four ways; prints "dropped" when the program survived it.
    let parts = s.dropFirst("drop-chain-".count).split(separator: "-")
    let way = String(parts[0])
    let depth = Int(parts[1])!
    dropChain(way: way, depth: depth)
    print("dropped")
  default:
    print("unknown scenario '\(scenario)'")
  }
}

let arguments = CommandLine.arguments
MainActor.assumeIsolated { run(arguments.count > 1 ? arguments[1] : "") }
