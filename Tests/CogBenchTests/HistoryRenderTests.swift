import Foundation
import Testing

// The record's "History": cog's gated counts at each commit the result files measured, in
// commit order, with the changes beyond the gate's tolerance flagged and attributed to their
// commit. Synthetic result files (test inputs, not measurements) in a temporary directory.

@MainActor
@Suite("the record's history")
struct HistoryRenderTests {
  /// A complete synthetic run of `commit` at `date` with cog's counts.
  static func run(
    commit: String, date: String, instructions: Int, allocations: Int = 10, dirty: Bool = false
  ) -> [String: Any] {
    var r = syntheticResult(
      allocations: allocations, dirty: dirty, complete: true, instructions: instructions)
    r["date"] = date
    var environment = r["environment"] as! [String: Any]
    var git = environment["git"] as! [String: Any]
    git["commit"] = commit
    environment["git"] = git
    r["environment"] = environment
    return r
  }

  /// The lines of `md` from the heading `title` to the next `## ` heading.
  static func section(_ md: String, _ title: String) -> String {
    let lines = md.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0 == "## \(title)" }) else { return "" }
    let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
    return lines[start..<end].joined(separator: "\n")
  }

  @Test(
    "changes beyond the tolerance are flagged at their commit, in commit order; dirty runs are left out"
  )
  func history() throws {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/runs", withIntermediateDirectories: true)
    // File names sort against the dates: the order comes from the dates.
    try write(
      Self.run(commit: "aaaaaaaaaaaa", date: "2026-01-01T00:00:00Z", instructions: 100_000),
      to: dir + "/runs/z.json")
    try write(
      Self.run(commit: "bbbbbbbbbbbb", date: "2026-01-02T00:00:00Z", instructions: 100_050),
      to: dir + "/runs/y.json")
    try write(
      Self.run(
        commit: "dddddddddddd", date: "2026-01-03T00:00:00Z", instructions: 200_000, dirty: true),
      to: dir + "/runs/x.json")
    try write(
      Self.run(commit: "cccccccccccc", date: "2026-01-04T00:00:00Z", instructions: 110_000),
      to: dir + "/runs/w.json")
    try write(
      Self.run(
        commit: "eeeeeeeeeeee", date: "2026-01-05T00:00:00Z", instructions: 110_000,
        allocations: 12),
      to: dir + "/runs/v.json")
    let o = try CogBench.run(RecordSafetyTests.renderArguments, in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    let history = Self.section(md, "History (quick)")
    #expect(!history.isEmpty, "\(md)")
    #expect(history.contains("4 commits; 1 run(s) of a dirty tree left out"), "\(history)")
    // One row per clean commit, oldest first.
    let rows = ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "eeeeeeeeee"].map {
      history.range(of: "| `\($0)` |")?.lowerBound
    }
    #expect(rows.allSatisfy { $0 != nil }, "\(history)")
    #expect(rows.compactMap { $0 } == rows.compactMap { $0 }.sorted())
    #expect(!history.contains("dddddddddd"))
    #expect(history.contains("| `aaaaaaaaaa` | 2026-01-01 | 100000 | 0 |"), "\(history)")
    // 0.05% is within the instructions' 0.1%; +9.95% and +2 allocations are not.
    #expect(!history.contains("100000 → 100050"))
    #expect(
      history.contains(
        "`cccccccccc` (2026-01-04, after `bbbbbbbbbb`): 1 change(s), 1 ↑ 0 ↓: "
          + "`kairo/deep` instructions 100050 → 110000 (+9.95%)"), "\(history)")
    #expect(history.contains("`kairo/deep` allocations 10 → 12 (+20.00%)"), "\(history)")
    #expect(
      FileManager.default.fileExists(atPath: dir + "/charts/quick-history-instructions.svg"))
  }

  @Test(
    "instruction counts with and without the allocator are not compared: no flag, no trend, a note"
  )
  func instructionScope() throws {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/runs", withIntermediateDirectories: true)
    func run(_ commit: String, _ date: String, _ instructions: Int, source: String) -> [String:
      Any]
    {
      var r = Self.run(commit: commit, date: date, instructions: instructions)
      r["counterSources"] = ["allocations": "test", "instructions": source]
      return r
    }
    // Before the method changed (by date), its source says nothing of the allocator.
    try write(
      run("aaaaaaaaaaaa", "2026-12-01T00:00:00Z", 100_000, source: "callgrind, Ir"),
      to: dir + "/runs/a.json")
    try write(
      run(
        "bbbbbbbbbbbb", "2026-12-06T00:00:00Z", 80_000,
        source: "callgrind, Ir, the allocator left out"),
      to: dir + "/runs/b.json")
    var o = try CogBench.run(RecordSafetyTests.renderArguments, in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    var md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(
      md.contains(
        "instructions not compared (counted with the allocator there, without the allocator "
          + "here"), "\(Self.section(md, "Summary"))")
    var history = Self.section(md, "History (quick)")
    #expect(!history.contains("100000 → 80000"), "\(history)")
    #expect(
      history.contains(
        "Instruction counts from `bbbbbbbbbb` on are without the allocator, before it with the "
          + "allocator"), "\(history)")
    // Within one method a change is flagged as before.
    try write(
      run(
        "cccccccccccc", "2026-12-07T00:00:00Z", 88_000,
        source: "callgrind, Ir, the allocator left out"),
      to: dir + "/runs/c.json")
    o = try CogBench.run(RecordSafetyTests.renderArguments, in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    history = Self.section(md, "History (quick)")
    #expect(history.contains("`kairo/deep` instructions 80000 → 88000 (+10.00%)"), "\(history)")
    #expect(md.contains("instructions 1.100× in geometric mean"), "\(Self.section(md, "Summary"))")
  }

  @Test("the thresholds file's tolerance decides what is flagged")
  func thresholdsTolerance() throws {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/runs", withIntermediateDirectories: true)
    try write(
      Self.run(commit: "aaaaaaaaaaaa", date: "2026-01-01T00:00:00Z", instructions: 100_000),
      to: dir + "/runs/a.json")
    try write(
      Self.run(commit: "bbbbbbbbbbbb", date: "2026-01-02T00:00:00Z", instructions: 102_000),
      to: dir + "/runs/b.json")
    try FileManager.default.createDirectory(
      atPath: dir + "/thresholds", withIntermediateDirectories: true)
    let update = try CogBench.run(
      ["thresholds", "update", "runs/b.json", "--thresholds", "thresholds/quick.json"], in: dir)
    #expect(update.status == 0, "\(update.stderr)")
    var t = try readJSON(dir + "/thresholds/quick.json")
    t["toleranceOverrides"] = ["kairo/deep@cog instructions": 0.03]
    try write(t, to: dir + "/thresholds/quick.json")
    let o = try CogBench.run(
      RecordSafetyTests.renderArguments + ["--thresholds-dir", "thresholds"], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    let history = Self.section(md, "History (quick)")
    #expect(history.contains("No change beyond the tolerance."), "\(history)")
  }
}
