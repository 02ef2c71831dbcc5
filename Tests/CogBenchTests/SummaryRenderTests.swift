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

@Suite("The compact table run prints")
struct CompactTableTests {
  @Test("columns stay in line for long case and system names")
  func alignedWithLongNames() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases",
        "sbench/createComputations/create1000to1,kairo/deep", "--systems",
        "cog,cog[overflow2+inline]", "--metrics", "allocations,wallTime", "--samples", "2",
        "--warmup", "0", "--output-dir", "out",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let lines = o.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = try #require(lines.firstIndex { $0.hasPrefix("case ") })
    let rows = lines[(header + 2)...].prefix { !$0.isEmpty }
    #expect(rows.count == 4, "\(o.stdout)")
    // Every row is as wide as the header, and each column starts where its title does.
    let width = lines[header].count
    for row in rows { #expect(row.count == width, "\(lines[header])\n\(row)") }
    let systemColumn = try #require(lines[header].range(of: "system")).lowerBound
    let offset = lines[header].distance(from: lines[header].startIndex, to: systemColumn)
    for row in rows {
      let system = row.dropFirst(offset).prefix { $0 != " " }
      #expect(system == "cog" || system == "cog[overflow2+inline]", "\(row)")
    }
  }
}
