import Foundation
import Testing

// The record's first screen is a summary, rendered from the committed result files (the
// newest complete run in Results/runs, the M6 run, the profiles and notes) into a temporary
// directory: the committed impl/perf.md is not touched.

@MainActor
@Suite("the record's summary")
struct SummaryRenderTests {
  @Test("rendering the committed record starts with the summary, and collapses not-applicable")
  func committedRecordStartsWithSummary() throws {
    // From the repository's root, as compare.sh renders (the model's fidelity reads a
    // committed result by its path there); every output goes to the temporary directory.
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "render", "--out", "\(dir)/perf.md", "--history", "\(dir)/h.md", "--charts",
        "\(dir)/charts",
      ], in: repositoryRoot)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    let lines = md.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let first = Array(lines.prefix(60))
    let summary = try #require(first.firstIndex(of: "## Summary"), "\(first.prefix(12))")
    // Nothing but the title and its line comes before it; the detail comes after it.
    #expect(!first[..<summary].contains { $0.hasPrefix("## ") })
    let environment = try #require(lines.firstIndex(of: "## Environment"))
    #expect(environment > summary)
    let screen = first[summary...].joined(separator: "\n")
    // The headline goals, each with its measured value and whether it is met.
    for goal in [
      "instructions per recomputed row", "allocations per created row", "steady state",
      "wall time per cell", "bytes per row", "swift-state-graph", "case checks",
    ] {
      let row = try #require(
        first[summary...].first { $0.hasPrefix("|") && $0.contains(goal) }, "\(goal)")
      #expect(row.hasSuffix("| met |") || row.hasSuffix("| **not met** |"), "\(row)")
    }
    #expect(screen.contains("M6"))
    #expect(screen.contains("(#gaps-in-the-measurements)"))
    // At most 20 lines say "not applicable" in the whole record.
    let notApplicable = lines.filter { $0.contains("not applicable") }
    #expect(notApplicable.count <= 20, "\(notApplicable.count)")
  }
}
