import Foundation
import Testing

// The record (impl/perf.md and impl/charts) changes only on purpose and only as a whole: a
// run that lacks counters the record has is kept out of it, and a render that cannot write
// every output leaves every output as it was. Synthetic result files (test inputs, not
// measurements) in a temporary directory stand for Results/runs and impl/.

@MainActor
@Suite("the record is safe")
struct RecordSafetyTests {
  /// The record's outputs as they are on disk: perf.md, the history and every chart.
  static func snapshot(_ dir: String) throws -> [String: String] {
    var files: [String: String] = [:]
    for name in ["perf.md", "h.md"] {
      files[name] = try? String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8)
    }
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "\(dir)/charts")) ?? [] {
      files["charts/\(name)"] = try String(contentsOfFile: "\(dir)/charts/\(name)", encoding: .utf8)
    }
    return files
  }

  static let renderArguments = [
    "render", "--results-dir", "runs", "--out", "perf.md", "--history", "h.md", "--charts",
    "charts", "--notes", "none.md", "--profiles", "profiles", "--m6-dir", "m6",
  ]

  /// A directory holding a rendered record of one complete run with instructions.
  static func recordDirectory() throws -> String {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/runs", withIntermediateDirectories: true)
    var record = syntheticResult(complete: true, instructions: 100)
    record["date"] = "2026-01-01T00:00:00Z"
    try write(record, to: dir + "/runs/a-record.json")
    let o = try CogBench.run(renderArguments, in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/charts/quick-kairo-instructions.svg"))
    return dir
  }

  /// A newer complete run whose instructions were not counted (as on a machine without
  /// valgrind, or past the main job's deadline).
  static func runWithoutInstructions() -> [String: Any] {
    var r = syntheticResult(allocations: 12, complete: true, instructions: 100)
    r["date"] = "2026-01-02T00:00:00Z"
    var results = r["results"] as! [[String: Any]]
    for k in results.indices {
      var metrics = results[k]["metrics"] as! [String: Any]
      metrics["instructions"] = ["unit": "Ir/sample", "unavailable": "valgrind is not installed"]
      results[k]["metrics"] = metrics
    }
    r["results"] = results
    return r
  }

  @Test("an M6 run that lacks counters the current M6 run has is not added: exit 3")
  func m6RunMissingCountersIsKeptOut() throws {
    let dir = try Self.recordDirectory()
    try FileManager.default.createDirectory(atPath: dir + "/m6", withIntermediateDirectories: true)
    var current = syntheticResult(complete: false, instructions: 100)
    current["date"] = "2026-01-01T00:00:00Z"
    try write(current, to: dir + "/m6/a-m6.json")
    let render = try CogBench.run(Self.renderArguments, in: dir)
    #expect(render.status == 0, "\(render.stderr)")
    let before = try Self.snapshot(dir)
    try write(Self.runWithoutInstructions(), to: dir + "/new-m6.json")
    let o = try CogBench.run(Self.renderArguments + ["--add-m6", "new-m6.json"], in: dir)
    #expect(o.status == 3, "\(o.stdout)\(o.stderr)")
    #expect(o.stderr.contains("not added to the M6 comparison"), "\(o.stderr)")
    #expect(o.stderr.contains("render --add-m6 new-m6.json --force"), "\(o.stderr)")
    #expect(try Self.snapshot(dir) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/m6") == ["a-m6.json"])

    // A run with every counter is added and becomes the M6 section.
    var fine = syntheticResult(complete: false, instructions: 90)
    fine["date"] = "2026-01-03T00:00:00Z"
    try write(fine, to: dir + "/fine-m6.json")
    let added = try CogBench.run(Self.renderArguments + ["--add-m6", "fine-m6.json"], in: dir)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/m6/fine-m6.json"))
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(md.contains("m6/fine-m6.json"), "\(md.prefix(3000))")
  }

  @Test("a run that lacks counters the record has is not added: exit 3, nothing changes")
  func runMissingCountersIsKeptOut() throws {
    let dir = try Self.recordDirectory()
    let before = try Self.snapshot(dir)
    try write(Self.runWithoutInstructions(), to: dir + "/new.json")
    let o = try CogBench.run(Self.renderArguments + ["--add", "new.json"], in: dir)
    #expect(o.status == 3, "\(o.stdout)\(o.stderr)")
    #expect(o.stderr.contains("instructions in 2 of 2 regions"), "\(o.stderr)")
    #expect(o.stderr.contains("valgrind is not installed"))
    #expect(o.stderr.contains("render --add new.json --force"), "\(o.stderr)")
    #expect(try Self.snapshot(dir) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/runs") == ["a-record.json"])

    // On purpose: it becomes the record.
    let forced = try CogBench.run(
      Self.renderArguments + ["--add", "new.json", "--force"], in: dir)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/runs/new.json"))
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(md.contains("runs/new.json"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/charts/quick-kairo-instructions.svg"))
  }

  @Test("a complete run with every counter of the record is added and rendered")
  func completeRunIsAdded() throws {
    let dir = try Self.recordDirectory()
    var next = syntheticResult(allocations: 9, complete: true, instructions: 90)
    next["date"] = "2026-01-03T00:00:00Z"
    try write(next, to: dir + "/next.json")
    let o = try CogBench.run(Self.renderArguments + ["--add", "next.json"], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/runs/next.json"))
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(md.contains("runs/next.json"))
    // Nor twice.
    let again = try CogBench.run(Self.renderArguments + ["--add", "runs/next.json"], in: dir)
    #expect(again.status == 1, "\(again.stdout)")
    #expect(again.stderr.contains("already"), "\(again.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/runs").count == 2)
    // A partial run is never added.
    try write(syntheticResult(cases: ["kairo/deep"]), to: dir + "/partial.json")
    let partial = try CogBench.run(Self.renderArguments + ["--add", "partial.json"], in: dir)
    #expect(partial.status == 1)
    #expect(partial.stderr.contains("partial"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/runs/partial.json"))
  }

  @Test("a render that cannot write every output leaves the record as it was")
  func unwritableRenderChangesNothing() throws {
    let dir = try Self.recordDirectory()
    // A newer record with other numbers: its charts differ from the committed ones.
    var next = syntheticResult(allocations: 9, complete: true, instructions: 300)
    next["date"] = "2026-01-03T00:00:00Z"
    var results = next["results"] as! [[String: Any]]
    var metrics = results[1]["metrics"] as! [String: Any]
    metrics["instructions"] = ["unit": "Ir/sample", "value": 1200]
    results[1]["metrics"] = metrics
    next["results"] = results
    try write(next, to: dir + "/runs/b-next.json")
    try "<svg/>".write(toFile: dir + "/charts/quick-stale.svg", atomically: true, encoding: .utf8)
    let before = try Self.snapshot(dir)
    // perf.md cannot be created (its directory is a file) or cannot be replaced (it is a
    // directory): either way charts, history and record stay as they were.
    try "x".write(toFile: dir + "/blocker", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: dir + "/dir.md", withIntermediateDirectories: true)
    for out in ["blocker/perf.md", "dir.md"] {
      var a = Self.renderArguments
      a[a.firstIndex(of: "--out")! + 1] = out
      let o = try CogBench.run(a, in: dir)
      #expect(o.status == 1, "\(out): \(o.stdout)")
      #expect(try Self.snapshot(dir) == before, "\(out)")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
        $0.hasPrefix(".")
      }
      #expect(leftovers.isEmpty, "\(out): staged outputs left behind: \(leftovers)")
    }
  }

  /// A copy of the repository's shape in a temporary directory: `scripts/compare.sh`, a
  /// record rendered from one complete run in `Results/runs`, and a stand-in `cog-bench`
  /// whose `run` writes `result` (as if measured) and which passes every other command to
  /// the real executable. The script works from the copy, never from the real record.
  static func mainJobDirectory(result: [String: Any]) throws -> String {
    let dir = try temporaryDirectory()
    let fm = FileManager.default
    for sub in ["scripts", "Results/runs", "impl"] {
      try fm.createDirectory(atPath: "\(dir)/\(sub)", withIntermediateDirectories: true)
    }
    try fm.copyItem(
      atPath: "\(repositoryRoot)/scripts/compare.sh", toPath: "\(dir)/scripts/compare.sh")
    var record = syntheticResult(complete: true, instructions: 100)
    record["date"] = "2026-01-01T00:00:00Z"
    try write(record, to: dir + "/Results/runs/a-record.json")
    try write(result, to: dir + "/measured.json")
    let fake = """
      #!/bin/sh
      if [ "$1" = run ]; then
        while [ $# -gt 0 ]; do
          if [ "$1" = --output-dir ]; then out="$2"; fi
          shift
        done
        mkdir -p "$out" && cp measured.json "$out/b-new.json" && echo "wrote $out/b-new.json"
        exit 0
      fi
      exec '\(CogBench.path)' "$@"
      """
    try fake.write(toFile: dir + "/fake-cog-bench", atomically: true, encoding: .utf8)
    try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/fake-cog-bench")
    let render = try CogBench.run(["render"], in: dir)
    #expect(render.status == 0, "\(render.stderr)")
    return dir
  }

  static func snapshotRecord(_ dir: String) throws -> [String: String] {
    var files: [String: String] = [:]
    let fm = FileManager.default
    for sub in ["impl", "impl/charts", "Results/runs"] {
      for name in (try? fm.contentsOfDirectory(atPath: "\(dir)/\(sub)")) ?? [] {
        var isDirectory: ObjCBool = false
        _ = fm.fileExists(atPath: "\(dir)/\(sub)/\(name)", isDirectory: &isDirectory)
        if isDirectory.boolValue { continue }
        files["\(sub)/\(name)"] = try String(
          contentsOfFile: "\(dir)/\(sub)/\(name)", encoding: .utf8)
      }
    }
    return files
  }

  @Test("the main job with a tiny deadline leaves impl/ and Results/runs as they were: exit 3")
  func mainJobKeepsTheRecord() throws {
    let dir = try Self.mainJobDirectory(result: Self.runWithoutInstructions())
    let before = try Self.snapshotRecord(dir)
    #expect(before["impl/charts/quick-kairo-instructions.svg"] != nil)
    let o = try shell(
      "scripts/compare.sh", in: dir,
      environment: [
        "COG_BENCH_BIN": dir + "/fake-cog-bench", "COG_BENCH_DEADLINE": "1",
        "COG_NO_INSTALL": "1",
      ])
    #expect(o.status == 3, "\(o.stdout)\(o.stderr)")
    #expect(o.stderr.contains("the record is unchanged (exit 3)"), "\(o.stderr)")
    #expect(o.stderr.contains("render --add .bench-tmp/runs/b-new.json --force"), "\(o.stderr)")
    #expect(try Self.snapshotRecord(dir) == before)
    #expect(FileManager.default.fileExists(atPath: dir + "/.bench-tmp/runs/b-new.json"))
  }

  @Test("the main job adds a run with every counter of the record and renders it")
  func mainJobAddsAFullRun() throws {
    var full = syntheticResult(allocations: 9, complete: true, instructions: 90)
    full["date"] = "2026-01-02T00:00:00Z"
    let dir = try Self.mainJobDirectory(result: full)
    let o = try shell(
      "scripts/compare.sh", in: dir,
      environment: ["COG_BENCH_BIN": dir + "/fake-cog-bench", "COG_NO_INSTALL": "1"])
    #expect(o.status == 0, "\(o.stdout)\(o.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/Results/runs/b-new.json"))
    let md = try String(contentsOfFile: dir + "/impl/perf.md", encoding: .utf8)
    #expect(md.contains("Results/runs/b-new.json"))
  }
}
