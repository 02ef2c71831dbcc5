import Foundation
import Testing

// The gate checks what it says it checks: a selection that matches nothing is an error in
// every entry point, a partial result is checked on its own regions only, the commands it
// suggests work when pasted, and a failing check starts with a roll-up. Synthetic result and
// threshold files (test inputs, not measurements) in a temporary directory.

/// The repository's root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().path

/// Runs `command` with `/bin/sh -c` in `directory` (a suggested command, pasted).
func shell(_ command: String, in directory: String, environment: [String: String] = [:]) throws
  -> BenchOutput
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let out = Pipe()
  process.standardOutput = out
  let errFile = directory + "/.stderr-\(UUID().uuidString)"
  FileManager.default.createFile(atPath: errFile, contents: nil)
  let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
  process.standardError = err
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try err.close()
  let stderr = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
  try? FileManager.default.removeItem(atPath: errFile)
  return BenchOutput(
    status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
    stderr: stderr)
}

/// The line of `output` that suggests a command, from `cog-bench` (or its path) on.
func suggestedCommand(_ output: String, containing word: String) -> String? {
  for line in output.split(separator: "\n") where line.contains(word) {
    guard let start = line.range(of: "\(CogBench.path) ") ?? line.range(of: "'\(CogBench.path)' ")
    else { continue }
    return String(line[start.lowerBound...])
  }
  return nil
}

@MainActor
@Suite("the gate is strict")
struct GateStrictnessTests {
  /// A directory with base.json (cog and simple on kairo/deep) and its thresholds t.json.
  static func gateDirectory() throws -> String {
    let dir = try temporaryDirectory()
    try write(syntheticResult(retains: 3), to: dir + "/base.json")
    let update = try CogBench.run(
      ["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
    #expect(update.status == 0, "\(update.stderr)")
    return dir
  }

  @Test(
    "check: a selection that matches nothing exits 1",
    arguments: [
      ["--systems", "nope*"], ["--systems", "Cog*"], ["--systems", ","],
      ["--systems", "cog,nope"], ["--metrics", "wallTime"], ["--metrics", ","],
      ["--systems", "simple", "--metrics", "instructions"],
    ])
  func checkEmptySelection(selection: [String]) throws {
    let dir = try Self.gateDirectory()
    let o = try CogBench.run(["check", "base.json", "--thresholds", "t.json"] + selection, in: dir)
    #expect(o.status == 1, "\(selection): \(o.stdout)\(o.stderr)")
    #expect(!o.stdout.contains("checked 0 counts: 0 regression"), "\(o.stdout)")
  }

  @Test("check: a result with nothing in the default scope (cog*, gated metrics) exits 1")
  func checkNothingInScope() throws {
    let dir = try Self.gateDirectory()
    var simple = syntheticResult(systems: ["simple"])
    simple["results"] = Array((simple["results"] as! [[String: Any]]).suffix(1))
    try write(simple, to: dir + "/simple.json")
    let o = try CogBench.run(["check", "simple.json", "--thresholds", "t.json"], in: dir)
    #expect(o.status == 1, "\(o.stdout)\(o.stderr)")
  }

  @Test("same-counts: a selection that matches nothing exits 1")
  func sameCountsEmptySelection() throws {
    let dir = try temporaryDirectory()
    var r = syntheticResult()
    var env = r["environment"] as! [String: Any]
    var build = env["build"] as! [String: Any]
    build["executableDigest"] = "fnv1a64:1"
    env["build"] = build
    r["environment"] = env
    try write(r, to: dir + "/a.json")
    try write(r, to: dir + "/b.json")
    #expect(try CogBench.run(["same-counts", "a.json", "b.json"], in: dir).status == 0)
    for selection in [
      ["--systems", "nope*"], ["--systems", "cog*,nope"], ["--systems", ","],
      ["--metrics", "wallTime"],
    ] {
      let o = try CogBench.run(["same-counts", "a.json", "b.json"] + selection, in: dir)
      #expect(o.status == 1, "\(selection): \(o.stdout)\(o.stderr)")
    }
  }

  @Test("ci-gate.sh: a selection in its environment that matches nothing exits 1")
  func ciGateEmptySelection() throws {
    let dir = try Self.gateDirectory()
    for environment in [
      ["COG_GATE_SYSTEMS": "Cog*"], ["COG_GATE_SYSTEMS": ","], ["COG_GATE_METRICS": "wallTime"],
    ] {
      let o = try shell(
        "scripts/ci-gate.sh '\(dir)/base.json'", in: repositoryRoot,
        environment: environment.merging(["COG_BENCH_BIN": CogBench.path]) { $1 })
      #expect(o.status == 1, "\(environment): \(o.stdout)\(o.stderr)")
      #expect(o.stderr.contains("cog-bench: error:"), "\(environment): \(o.stderr)")
    }
  }

  @Test("check gates the gated metrics by default: a recorded, ungated count is no error")
  func checkDefaultMetrics() throws {
    let dir = try Self.gateDirectory()
    var r = syntheticResult(retains: 3)
    var results = r["results"] as! [[String: Any]]
    var metrics = results[0]["metrics"] as! [String: Any]
    metrics["registrars"] = ["unit": "registrars", "value": 2]
    metrics["peakBytes"] = ["unit": "bytes/sample", "value": 64]
    results[0]["metrics"] = metrics
    r["results"] = results
    try write(r, to: dir + "/more.json")
    let o = try CogBench.run(["check", "more.json", "--thresholds", "t.json"], in: dir)
    #expect(o.status == 0, "\(o.stdout)\(o.stderr)")
  }

  @Test("a partial result is checked on its own regions only")
  func partialResultOwnRegions() throws {
    let dir = try Self.gateDirectory()
    // Thresholds of another case, which a one-case run did not measure.
    var t = try readJSON(dir + "/t.json")
    var values = t["values"] as! [String: Int]
    values["kairo/broad@cog allocations"] = 5
    values["kairo/broad@cog retains"] = 0
    t["values"] = values
    try write(t, to: dir + "/t.json")
    try write(syntheticResult(retains: 3, cases: ["kairo/deep"]), to: dir + "/one.json")
    let o = try CogBench.run(["check", "one.json", "--thresholds", "t.json"], in: dir)
    #expect(o.status == 0, "\(o.stdout)\(o.stderr)")
    #expect(!o.stdout.contains("ERROR"), "\(o.stdout)")
    #expect(o.stdout.contains("partial"), "\(o.stdout)")
    // Its regression is found, and the suggested update works when pasted (it merges).
    try write(
      syntheticResult(allocations: 12, retains: 3, cases: ["kairo/deep"], dirty: true),
      to: dir + "/worse.json")
    let worse = try CogBench.run(["check", "worse.json", "--thresholds", "t.json"], in: dir)
    #expect(worse.status == 2, "\(worse.stdout)")
    let command = try #require(
      suggestedCommand(worse.stdout, containing: "--accept-regressions"), "\(worse.stdout)")
    let pasted = try shell(command, in: dir)
    #expect(pasted.status == 0, "\(command): \(pasted.stdout)\(pasted.stderr)")
    let updated = try readJSON(dir + "/t.json")["values"] as! [String: Int]
    #expect(updated["kairo/deep@cog allocations"] == 12)
    #expect(updated["kairo/broad@cog allocations"] == 5, "the other case's thresholds are kept")
  }

  @Test("an improvement's suggested update works when pasted")
  func improvementCommandWorks() throws {
    let dir = try Self.gateDirectory()
    try write(syntheticResult(allocations: 8, retains: 3, dirty: true), to: dir + "/better.json")
    let o = try CogBench.run(["check", "better.json", "--thresholds", "t.json"], in: dir)
    #expect(o.status == 4, "\(o.stdout)")
    let command = try #require(suggestedCommand(o.stdout, containing: "ratchet"), "\(o.stdout)")
    let pasted = try shell(command, in: dir)
    #expect(pasted.status == 0, "\(command): \(pasted.stdout)\(pasted.stderr)")
    #expect(
      try CogBench.run(["check", "better.json", "--thresholds", "t.json"], in: dir).status == 0)
  }

  @Test("a failing check starts with a roll-up: regions regressed and the worst change per metric")
  func rollUp() throws {
    let dir = try Self.gateDirectory()
    try write(syntheticResult(allocations: 15, retains: 4), to: dir + "/worse.json")
    let o = try CogBench.run(["check", "worse.json", "--thresholds", "t.json"], in: dir)
    #expect(o.status == 2)
    let lines = o.stdout.split(separator: "\n").map(String.init)
    let rollUp = try #require(lines.firstIndex { $0.contains("1 region regressed") }, "\(o.stdout)")
    let firstDetail = try #require(lines.firstIndex { $0.hasPrefix("REGRESSION") })
    #expect(rollUp < firstDetail)
    #expect(o.stdout.contains("allocations +50.00% (kairo/deep@cog: 15 > 10)"), "\(o.stdout)")
    #expect(o.stdout.contains("retains +33.33% (kairo/deep@cog: 4 > 3)"), "\(o.stdout)")
  }

  @Test("run without --output-dir writes to .bench-tmp/runs, never into Results/runs")
  func runDefaultOutput() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "simple", "--metrics",
        "allocations", "--samples", "1", "--warmup", "0",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/Results/runs"))
    let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/.bench-tmp/runs")
    #expect(files.filter { $0.hasSuffix(".json") }.count == 1)
  }

  // CI on bcaa6e0 failed here: `cog-bench list | grep -q …` under `set -o pipefail` exits 141
  // when grep stops reading before `list` has written its cases (SIGPIPE), so the isolation
  // check reported a probe build without its probe.
  @Test("no script pipes a command into an early-exiting reader under pipefail")
  func noEarlyExitPipes() throws {
    let files =
      try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/scripts")
      .filter { $0.hasSuffix(".sh") }.map { "scripts/" + $0 } + [".ci/run"]
    #expect(files.count > 3)
    let early = try Regex(#"\|\s*(grep\s+(-[A-Za-z]*q|--quiet)|head\b)"#)
    for file in files {
      let text = try String(contentsOfFile: repositoryRoot + "/" + file, encoding: .utf8)
      guard text.contains("pipefail") else { continue }
      for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where !line.trimmingPrefix(while: \.isWhitespace).hasPrefix("#") {
        #expect(!line.contains(early), "\(file):\(n + 1): \(line)")
      }
    }
  }
}
