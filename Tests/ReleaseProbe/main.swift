// A small program built in release by `ReleaseBuildTests`: each scenario misuses the runtime
// (or pushes it to a limit) the way an app could, so the test can check what a shipped app
// prints. `preconditionFailure` drops its message at -O; the runtime's must not.
import Cog

@MainActor
final class Late<T> {
  var value: T! = nil
}

struct Opaque: Equatable {
  var x: Int
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
  default:
    print("unknown scenario '\(scenario)'")
  }
}

let arguments = CommandLine.arguments
MainActor.assumeIsolated { run(arguments.count > 1 ? arguments[1] : "") }
