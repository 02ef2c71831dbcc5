// The README's "Testing" example, word for word (between the markers), so that it cannot rot:
// `readmeShowsTheExample` (below) checks that the README still shows this code.
import Cog
import Foundation
import Testing

// README example begin
@MainActor @Test("typing restarts the search; results land after the debounce")
func searchDebounce() async throws {
  let clock = CogTestClock()
  let query = Cog("", label: "query")
  let results = Cog<[String]?>.Async(.latest, label: "results") { c in
    let q = c[query]
    return .run {
      try await clock.sleep(for: .milliseconds(300))  // the debounce, on the test clock
      return ["\(q) 1", "\(q) 2"]
    }
  }
  let count = Cog(label: "count") { c in c[results]?.count ?? 0 }
  let title = Cog(label: "title") { c in c[query].isEmpty ? "Search" : "Search: \(c[query])" }

  let cogs = Cogs(clock: clock)
  cogs.countsRuns = true
  let render = cogs.react("render") { c in _ = (c[title], c[count]) }

  // The turn recomputes the title and restarts the search; count keeps its value (no rerun).
  try cogs.expectRecomputes(atMost: [title, results, render]) {
    cogs.turn("type") { w in w[query] = "cog" }
  }
  await cogs.settle()  // the search runs up to its sleep on the test clock
  clock.advance(by: .milliseconds(300))  // wakes it (the first search was cancelled)
  await cogs.settle()  // its result publishes; count and render follow
  #expect(cogs[results] == ["cog 1", "cog 2"])
  #expect(cogs.runCount(of: results) == 2 && cogs.runCount(of: count) == 2)
  #expect(cogs.runCount(of: render) == 3)
}
// README example end

/// The README shows the example above exactly.
@Test("the README's Testing section shows this file's example word for word")
func readmeShowsTheExample() throws {
  let here = URL(fileURLWithPath: #filePath)
  let root = here.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let source = try String(contentsOf: here, encoding: .utf8)
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let begin = try #require(source.range(of: "// README example begin\n"))
  let end = try #require(source.range(of: "// README example end\n"))
  let code = String(source[begin.upperBound..<end.lowerBound])
  #expect(readme.contains("```swift\nimport Cog\nimport Testing\n\n" + code + "```\n"))
}
