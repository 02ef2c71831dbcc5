import Foundation
import Testing

// The record's "Gate power", rendered from the newest file `cog-bench gate-power` wrote.
// Synthetic files (test inputs, not measurements) in a temporary directory.

@MainActor
@Suite("the record's gate power")
struct GatePowerRenderTests {
  static func file(date: String, falseAlarms: Int) -> [String: Any] {
    func injection(_ kind: String, _ c: String, _ p: Double?, _ b: Int, _ m: Int, _ caught: Bool)
      -> [String: Any]
    {
      var o: [String: Any] = [
        "kind": kind, "caseID": c, "baseline": b, "measured": m, "caught": caught,
        "exitCode": caught ? 2 : 0,
      ]
      if let p { o["targetPercent"] = p }
      return o
    }
    return [
      "schema": 1, "date": date, "size": "quick", "commit": "0123456789abcdef", "dirty": false,
      "toolchain": "test", "configuration": "release", "cases": ["kairo/deep", "cellx/1000"],
      "metrics": ["instructions", "allocations", "retains"],
      "aa": [
        "runs": 5, "checks": 4, "falseAlarms": falseAlarms,
        "alarms": falseAlarms > 0 ? ["run 3: REGRESSION kairo/deep@cog instructions: 1 > 0"] : [],
      ],
      "injections": [
        injection("instructions", "kairo/deep", 0.1, 100_000, 100_090, false),
        injection("instructions", "kairo/deep", 5, 100_000, 105_000, true),
        injection("instructions", "cellx/1000", 0.1, 200_000, 200_240, true),
        injection("instructions", "cellx/1000", 5, 200_000, 210_000, true),
        injection("allocation", "kairo/deep", nil, 0, 2, true),
        injection("allocation", "cellx/1000", nil, 10, 11, true),
        injection("retain", "kairo/deep", nil, 0, 2, true),
        injection("retain", "cellx/1000", nil, 4, 5, true),
      ],
    ]
  }

  @Test("the newest gate-power file is the record's Gate power: false alarms, caught and missed")
  func section() throws {
    let dir = try temporaryDirectory()
    for sub in ["/runs", "/gp"] {
      try FileManager.default.createDirectory(atPath: dir + sub, withIntermediateDirectories: true)
    }
    try write(syntheticResult(complete: true, instructions: 100), to: dir + "/runs/a.json")
    try write(Self.file(date: "2026-01-01T00:00:00Z", falseAlarms: 1), to: dir + "/gp/z-old.json")
    try write(Self.file(date: "2026-01-02T00:00:00Z", falseAlarms: 0), to: dir + "/gp/a-new.json")
    let o = try CogBench.run(
      RecordSafetyTests.renderArguments + ["--gate-power-dir", "gp"], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    let power = HistoryRenderTests.section(md, "Gate power")
    #expect(power.contains("From `gp/a-new.json`"), "\(power)")
    #expect(power.contains("**0 false alarm(s) in 4 check(s)** (target 0)"), "\(power)")
    #expect(power.contains("| injected per iteration | `kairo/deep` | `cellx/1000` |"), "\(power)")
    #expect(
      power.contains("| +0.1% instructions | **missed** (+0.09%) | caught (+0.12%) |"), "\(power)")
    #expect(power.contains("| +5% instructions | caught (+5.0%) | caught (+5.0%) |"), "\(power)")
    #expect(power.contains("| one allocation | caught (0 → 2) | caught (+10.0%) |"), "\(power)")
    #expect(power.contains("| one retain | caught (0 → 2) | caught (+25.0%) |"), "\(power)")
  }

  @Test("without a gate-power file the section says how to make one; a corrupt one is an error")
  func missingAndCorrupt() throws {
    let dir = try temporaryDirectory()
    for sub in ["/runs", "/gp"] {
      try FileManager.default.createDirectory(atPath: dir + sub, withIntermediateDirectories: true)
    }
    try write(syntheticResult(complete: true, instructions: 100), to: dir + "/runs/a.json")
    let o = try CogBench.run(
      RecordSafetyTests.renderArguments + ["--gate-power-dir", "gp"], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(HistoryRenderTests.section(md, "Gate power").contains("scripts/gate-power.sh"))
    try "{".write(toFile: dir + "/gp/bad.json", atomically: true, encoding: .utf8)
    let bad = try CogBench.run(
      RecordSafetyTests.renderArguments + ["--gate-power-dir", "gp"], in: dir)
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("gp/bad.json is a corrupt gate-power file"), "\(bad.stderr)")
  }
}
