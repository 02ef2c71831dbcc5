// The README's "Debugging" example, word for word (between the markers), and the report it
// prints: `readmeShowsTheDebuggingExample` checks that the README shows both.
import Cog
import Foundation
import Testing

// README debugging begin
@MainActor func explainCheckout() -> (report: String, why: String) {
  let price = Cog(10, label: "price")
  let quantity = Cog(2, label: "quantity")
  let total = Cog(label: "total") { c in c[price] * c[quantity] }
  let freeShipping = Cog(label: "freeShipping") { c in c[total] >= 50 }
  let banner = Cog(label: "banner") { c in c[freeShipping] ? "Free shipping!" : "Add more" }

  let cogs = Cogs()
  cogs.react("render") { c in _ = (c[total], c[banner]) }
  cogs.explainsTurns = true  // off by default, in every build
  cogs.turn("add one") { w in w[quantity] = 3 }
  return ("\(cogs.lastExplanation!)", cogs.why(banner)!)
}
// README debugging end

/// The README shows the example above exactly, and what it prints.
@MainActor @Test("the README's Debugging section shows this file's example and its output")
func readmeShowsTheDebuggingExample() throws {
  let here = URL(fileURLWithPath: #filePath)
  let root = here.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let source = try String(contentsOf: here, encoding: .utf8)
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let begin = try #require(source.range(of: "// README debugging begin\n"))
  let end = try #require(source.range(of: "// README debugging end\n"))
  let code = String(source[begin.upperBound..<end.lowerBound])
  #expect(readme.contains("```swift\n" + code + "```\n"))
  let (report, why) = explainCheckout()
  #expect(readme.contains("```text\n" + report + "\n\n" + why + "\n```\n"))
}
