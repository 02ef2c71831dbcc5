import Foundation
import Testing

// The record's "Diagnostics off" section (issue 26), rendered from synthetic result files
// (test inputs, not measurements), and the refusal of such a build's results elsewhere.

@MainActor
@Suite("The diagnostics-off section of the record")
struct DiagnosticsOffRenderTests {
  /// A result of `instructions` per case on `cog`, of `commit`, built with the diagnostics'
  /// tests compiled out or not.
  func result(_ instructions: [(String, Int)], off: Bool, commit: String, date: String)
    -> [String: Any]
  {
    var file = syntheticResult(
      cases: instructions.map { $0.0 }, systems: ["cog"], instructions: 1)
    if off { file = builtWithoutDiagnostics(file) }
    var environment = file["environment"] as! [String: Any]
    var git = environment["git"] as! [String: Any]
    git["commit"] = commit
    environment["git"] = git
    file["environment"] = environment
    file["date"] = date
    file["results"] = instructions.map { caseID, ir -> [String: Any] in
      [
        "id": "\(caseID)@cog", "caseID": caseID, "family": String(caseID.prefix { $0 != "/" }),
        "system": "cog", "iterationsPerSample": 1,
        "checks": ["passed": true, "failures": [String]()],
        "metrics": ["instructions": ["unit": "Ir/sample", "value": ir]],
      ]
    }
    return file
  }

  /// `file` as a build with COG_NO_DIAGNOSTICS writes it.
  func builtWithoutDiagnostics(_ file: [String: Any]) -> [String: Any] {
    var file = file
    var environment = file["environment"] as! [String: Any]
    var build = environment["build"] as! [String: Any]
    build["defines"] = ["COG_NO_DIAGNOSTICS"]
    environment["build"] = build
    file["environment"] = environment
    return file
  }

  @Test("render compares the newest pair of one commit and names each case over 0.5%")
  func section() throws {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/off", withIntermediateDirectories: true)
    let files: [(String, [String: Any])] = [
      // An older pair, and a newer shipped file of another commit: neither is the pair.
      (
        "a.json",
        result([("kairo/deep", 2000)], off: false, commit: "old", date: "2026-01-01T00:00:00Z")
      ),
      (
        "b.json",
        result([("kairo/deep", 1000)], off: true, commit: "old", date: "2026-01-01T00:01:00Z")
      ),
      (
        "c.json",
        result([("kairo/deep", 1001)], off: false, commit: "new", date: "2026-01-02T00:00:00Z")
      ),
      (
        "d.json",
        result(
          [("kairo/deep", 1000), ("cog/steady-turn", 500)], off: true, commit: "new",
          date: "2026-01-02T00:01:00Z")
      ),
      (
        "e.json",
        result([("kairo/deep", 9000)], off: false, commit: "other", date: "2026-01-03T00:00:00Z")
      ),
    ]
    for (name, file) in files { try write(file, to: "\(dir)/off/\(name)") }
    // c.json has no steady turn: the row is left out, not shown as 0.
    try write(
      result(
        [("kairo/deep", 1004), ("cog/steady-turn", 510)], off: false, commit: "new",
        date: "2026-01-02T00:00:30Z"), to: "\(dir)/off/c2.json")
    let (status, md) = try renderRecord(
      syntheticResult(complete: true), in: dir, extraArguments: ["--diagnostics-off-dir", "off"])
    #expect(status == 0)
    #expect(md.contains("## Diagnostics off: what their tests cost"))
    #expect(
      md.contains("as shipped (`off/c2.json`) and with those tests compiled out (`off/d.json`"))
    #expect(md.contains("| `kairo/deep` | cog | 1004 | 1000 | 1.0040 |"))
    #expect(md.contains("| `cog/steady-turn` | cog | 510 | 500 | 1.0200 |"))
    #expect(md.contains("Not met on 1 case(s): `cog/steady-turn` (1.0200)."))
  }

  @Test("no pair, no section; a build without the tests never becomes the record or a threshold")
  func refused() throws {
    let dir = try temporaryDirectory()
    let (status, md) = try renderRecord(syntheticResult(complete: true), in: dir)
    #expect(status == 0)
    #expect(!md.contains("Diagnostics off"))
    let off = builtWithoutDiagnostics(syntheticResult(complete: true))
    let offDir = try temporaryDirectory()
    let render = try renderRecord(off, in: offDir)
    #expect(render.status == 1)
    #expect(!FileManager.default.fileExists(atPath: offDir + "/perf.md"))
    try write(off, to: dir + "/off.json")
    let update = try CogBench.run(
      ["thresholds", "update", "off.json", "--thresholds", "t.json"], in: dir)
    #expect(update.status == 1)
    #expect(update.stderr.contains("COG_NO_DIAGNOSTICS"), "\(update.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/t.json"))
  }
}
