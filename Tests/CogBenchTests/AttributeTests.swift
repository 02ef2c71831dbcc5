import Foundation
import Testing

// `cog-bench attribute`: a differential profile of one region, before and after named by
// where they came from, functions sorted by the change; two profile files need no
// measurement. And `check` suggests it for the worst instruction regression. Synthetic
// profile, result and threshold files (test inputs, not measurements).

@MainActor
@Suite("attribute")
struct AttributeTests {
  static func profile(
    commit: String, date: String, total: Int, functions: [(String, Int, Int?)]
  ) -> [String: Any] {
    [
      "schema": 1, "date": date, "caseID": "kairo/deep", "system": "cog", "size": "quick",
      "commit": commit, "toolchain": "test", "totalInstructions": total,
      "iterationsPerSample": 2,
      "functions": functions.map { name, ir, inclusive -> [String: Any] in
        var f: [String: Any] = [
          "instructions": ir, "share": Double(ir) * 100 / Double(total), "function": name,
          "file": "x.swift",
        ]
        if let inclusive { f["inclusive"] = inclusive }
        return f
      },
    ]
  }

  @Test("two profile files: before and after as given, functions by change, nothing measured")
  func twoFiles() throws {
    let dir = try temporaryDirectory()
    try write(
      Self.profile(
        commit: "aaaaaaaaaaaa", date: "2026-01-01T00:00:00Z", total: 200,
        functions: [("propagate", 100, 180), ("read", 60, 60), ("write", 40, 40)]),
      to: dir + "/old.json")
    try write(
      Self.profile(
        commit: "bbbbbbbbbbbb", date: "2026-01-02T00:00:00Z", total: 260,
        functions: [("propagate", 150, 250), ("read", 60, 60), ("hash", 30, 30), ("write", 20, 20)]),
      to: dir + "/new.json")
    let o = try CogBench.run(
      ["attribute", "kairo/deep", "--system", "cog", "--from", "old.json", "--to", "new.json"],
      in: dir)
    #expect(o.status == 0, "\(o.stdout)\(o.stderr)")
    let lines = o.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains { $0.hasPrefix("before: commit aaaaaaaaaaaa") && $0.contains("old.json") })
    #expect(
      lines.contains { $0.hasPrefix("after:  commit bbbbbbbbbbbb") && $0.contains("new.json") })
    #expect(o.stdout.contains("total: 200 → 260 Ir (+60, +30.00%)"), "\(o.stdout)")
    let order = ["propagate", "hash", "write", "read"].map { name in
      lines.firstIndex { $0.hasSuffix("  \(name)") }
    }
    #expect(order.allSatisfy { $0 != nil }, "\(o.stdout)")
    #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(o.stdout)")
    let propagate = try #require(lines.first { $0.hasSuffix("  propagate") })
    #expect(
      propagate.split(separator: " ").map(String.init)
        == ["100", "150", "+50", "+50.00%", "180", "250", "propagate"], "\(propagate)")
    // The before profile lists every instruction: a function it lacks had none.
    let hash = try #require(lines.first { $0.hasSuffix("  hash") })
    #expect(hash.split(separator: " ").prefix(4) == ["0", "30", "+30", "new"], "\(hash)")
  }

  @Test("a profile of another region is refused")
  func otherRegion() throws {
    let dir = try temporaryDirectory()
    var p = Self.profile(
      commit: "a", date: "2026-01-01T00:00:00Z", total: 1, functions: [("f", 1, nil)])
    try write(p, to: dir + "/old.json")
    p["caseID"] = "kairo/broad"
    try write(p, to: dir + "/new.json")
    let o = try CogBench.run(
      ["attribute", "kairo/deep", "--from", "old.json", "--to", "new.json"], in: dir)
    #expect(o.status == 1)
    #expect(
      o.stderr.contains("new.json is an instruction profile of kairo/broad@cog"), "\(o.stderr)")
  }

  @Test("check suggests attribute for the worst instruction regression")
  func checkSuggestsAttribute() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(retains: 3, instructions: 1000), to: dir + "/base.json")
    let update = try CogBench.run(
      ["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
    #expect(update.status == 0, "\(update.stderr)")
    try write(syntheticResult(retains: 3, instructions: 1100), to: dir + "/worse.json")
    let o = try CogBench.run(["check", "worse.json", "--thresholds", "t.json"], in: dir)
    #expect(o.status == 2, "\(o.stdout)")
    let command = try #require(suggestedCommand(o.stdout, containing: "attribute"), "\(o.stdout)")
    #expect(
      command.hasSuffix("attribute kairo/deep --system cog --thresholds t.json"), "\(command)")
  }
}
