// The README's picture of a graph: the example between the markers, its DOT text committed
// as docs/graph-example.dot and rendered to docs/graph-example.svg by
// scripts/render-graph-example.sh (Debian's graphviz; the tests need only the .dot).
import Cog
import Foundation
import Testing

// README graph begin
@MainActor func cartGraph() -> Cogs {
  let price = CogBox(label: "price") { (item: String, _: CogContext<Int>) in
    ["tea": 4, "cake": 7, "jam": 5][item] ?? 0
  }
  let items = Cog(["tea", "cake"], label: "items")
  let total = Cog(label: "total") { c in c[items].reduce(0) { sum, item in sum + c[price[item]] } }
  let freeShipping = Cog(label: "freeShipping") { c in c[total] >= 15 }
  let banner = Cog(label: "banner") { c in c[freeShipping] ? "Free shipping!" : "Add more" }

  let cogs = Cogs()
  cogs.react("render") { c in _ = (c[items].count, c[total], c[banner]) }
  cogs.turn("add jam") { w in w[items] = ["tea", "cake", "jam"] }
  return cogs
}
// README graph end

/// The README shows the example above, and the committed DOT text is what it prints
/// (`COG_GRAPH_EXAMPLE_OUT=path` writes it there instead: the render script's way in).
@MainActor @Test("the README's graph picture is this example's DOT output")
func readmeGraphExample() throws {
  let here = URL(fileURLWithPath: #filePath)
  let root = here.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let dot = cartGraph().inspect().dot
  if let out = ProcessInfo.processInfo.environment["COG_GRAPH_EXAMPLE_OUT"] {
    try dot.write(toFile: out, atomically: true, encoding: .utf8)
    return
  }
  let source = try String(contentsOf: here, encoding: .utf8)
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let begin = try #require(source.range(of: "// README graph begin\n"))
  let end = try #require(source.range(of: "// README graph end\n"))
  #expect(readme.contains("```swift\n" + source[begin.upperBound..<end.lowerBound] + "```\n"))
  #expect(readme.contains("![The example's graph](docs/graph-example.svg)"))
  let committed = try String(
    contentsOf: root.appendingPathComponent("docs/graph-example.dot"), encoding: .utf8)
  #expect(dot == committed, "scripts/render-graph-example.sh writes the new picture")
}
