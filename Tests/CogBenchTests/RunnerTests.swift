import Foundation
import Testing

// The cog-bench command line, driven as a user drives it: the tests run the `cog-bench`
// executable that `swift test` builds next to the test binary, on synthetic result and
// threshold files (test inputs, not measurements) and on one tiny measured run of a debug
// build with --allow-debug (plumbing only; numbers are checked by `cog-bench calibrate`).

private struct Output {
  var status: Int32
  var stdout: String
  var stderr: String
}

private enum CogBench {
  /// `cog-bench` beside the running test binary.
  static var path: String {
    let exe =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("cog-bench")
      .path
  }

  static func run(_ arguments: [String], in directory: String) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

private func temporaryDirectory() throws -> String {
  let path = NSTemporaryDirectory() + "cog-bench-tests-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

private func write(_ object: Any, to path: String) throws {
  let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  try data.write(to: URL(fileURLWithPath: path))
}

/// A synthetic result file with one case × system and the given counts.
private func syntheticResult(
  allocations: Int = 10, retains: Int = 0, configuration: String = "release", schema: Int = 1
) -> [String: Any] {
  func count(_ unit: String, _ v: Int) -> [String: Any] { ["unit": unit, "value": v] }
  return [
    "schema": schema, "tool": "cog-bench", "date": "2026-01-01T00:00:00Z", "size": "quick",
    "environment": [
      "machine": ["cpuModel": "test", "cores": 2, "kernel": "test"],
      "toolchain": "test toolchain",
      "build": [
        "configuration": configuration, "defines": [String](),
        "allocationCounter": "malloc-interposer", "command": "test",
      ],
      "git": ["commit": "none", "dirty": true],
    ],
    "counterSources": ["allocations": "test"],
    "settings": [
      "samples": 1, "warmupSamples": 0, "metrics": ["allocations", "retains", "wallTime"],
      "systems": ["cog", "simple"],
    ],
    "unavailableSystems": [String: String](),
    "results": [
      [
        "id": "fam/case@cog", "caseID": "fam/case", "family": "fam", "system": "cog",
        "iterationsPerSample": 4, "checks": ["passed": true, "failures": [String]()],
        "metrics": [
          "allocations": count("allocations/sample", allocations),
          "retains": count("retains/sample", retains),
          "wallTime": [
            "unit": "ns/iteration", "min": 1.0, "median": 2.0, "max": 3.0, "samples": 3,
          ],
        ],
      ],
      [
        "id": "fam/case@simple", "caseID": "fam/case", "family": "fam", "system": "simple",
        "iterationsPerSample": 4, "checks": ["passed": true, "failures": [String]()],
        "metrics": [
          "allocations": count("allocations/sample", 20),
          "retains": ["unit": "retains/sample", "unavailable": "hooks failed"],
          "wallTime": [
            "unit": "ns/iteration", "min": 2.0, "median": 4.0, "max": 9.0, "samples": 3,
          ],
        ],
      ],
    ],
  ]
}

@Suite("cog-bench command line")
struct RunnerTests {
  @Test("the executable is built beside the tests")
  func executableExists() {
    #expect(FileManager.default.isExecutableFile(atPath: CogBench.path), "\(CogBench.path)")
  }

  @Test("list names the metrics with their units")
  func list() throws {
    let o = try CogBench.run(["list"], in: try temporaryDirectory())
    #expect(o.status == 0)
    #expect(o.stdout.contains("instructions"))
    #expect(o.stdout.contains("ns/iteration"))
  }

  @Test(
    "every command has --help",
    arguments: ["list", "run", "profile", "check", "thresholds", "render", "calibrate"])
  func help(command: String) throws {
    let o = try CogBench.run([command, "--help"], in: try temporaryDirectory())
    #expect(o.status == 0)
    #expect(o.stdout.contains("usage: cog-bench \(command)"))
  }

  @Test(
    "usage errors are one line and exit 1",
    arguments: [
      ["bogus"], ["run", "--frobnicate"], ["run", "--size", "huge"],
      ["run", "--cases", "no/such*"],
      ["run", "--metrics", "speed"], ["check"],
    ])
  func usageErrors(arguments: [String]) throws {
    let o = try CogBench.run(arguments, in: try temporaryDirectory())
    #expect(o.status == 1)
    let lines = o.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("cog-bench: error: ") == true)
  }

  #if DEBUG
    @Test("run refuses a debug build without --allow-debug")
    func refusesDebug() throws {
      let o = try CogBench.run(["run", "--metrics", "allocations"], in: try temporaryDirectory())
      #expect(o.status == 1)
      #expect(o.stderr.contains("debug build"))
    }
  #endif

  @Test("a small run writes a new result file each time, never overwriting")
  func runWritesResults() throws {
    let dir = try temporaryDirectory()
    let arguments = [
      "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "simple", "--metrics",
      "allocations,retains,releases,wallTime", "--samples", "1", "--warmup", "0",
      "--output-dir", "out",
    ]
    let first = try CogBench.run(arguments, in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let second = try CogBench.run(arguments, in: dir)
    #expect(second.status == 0, "\(second.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/out")
      .filter { $0.hasSuffix(".json") }
    #expect(files.count == 2)
    for file in files {
      let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/" + file))
      let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(json["schema"] as? Int == 1)
      let results = try #require(json["results"] as? [[String: Any]])
      #expect(results.first?["id"] as? String == "kairo/deep@simple")
      let metrics = try #require(results.first?["metrics"] as? [String: Any])
      #expect(Set(metrics.keys) == ["allocations", "retains", "releases", "wallTime"])
    }
  }

  @Test("check passes equal counts, and fails regressions (2) and improvements (4)")
  func checkBothWays() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(), to: dir + "/base.json")
    let update = try CogBench.run(
      ["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
    #expect(update.status == 0, "\(update.stderr)")
    let thresholds = try String(contentsOfFile: dir + "/t.json", encoding: .utf8)
    #expect(thresholds.contains("\"fam/case@cog allocations\" : 10"))
    #expect(thresholds.contains("\"fam/case@simple allocations\" : 20"))
    #expect(!thresholds.contains("simple retains"))
    #expect(!thresholds.contains("wallTime\" :"))

    #expect(
      try CogBench.run(["check", "base.json", "--thresholds", "t.json"], in: dir).status == 0)

    try write(syntheticResult(allocations: 11), to: dir + "/worse.json")
    let worse = try CogBench.run(["check", "worse.json", "--thresholds", "t.json"], in: dir)
    #expect(worse.status == 2)
    #expect(worse.stdout.contains("REGRESSION fam/case@cog allocations: 11 > threshold 10"))
    #expect(worse.stdout.contains("cog-bench thresholds update worse.json --thresholds t.json"))

    try write(syntheticResult(allocations: 9), to: dir + "/better.json")
    let better = try CogBench.run(["check", "better.json", "--thresholds", "t.json"], in: dir)
    #expect(better.status == 4)
    #expect(better.stdout.contains("IMPROVEMENT fam/case@cog allocations: 9 < threshold 10"))
  }

  @Test("missing, corrupt or unknown thresholds are errors that name the fix")
  func badThresholds() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(), to: dir + "/base.json")
    let missing = try CogBench.run(["check", "base.json", "--thresholds", "none.json"], in: dir)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cog-bench thresholds update base.json"))

    try "{\"schema\": 1, \"values\": {".write(
      toFile: dir + "/corrupt.json", atomically: true, encoding: .utf8)
    #expect(
      try CogBench.run(["check", "base.json", "--thresholds", "corrupt.json"], in: dir).status == 1)

    #expect(
      try CogBench.run(["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
        .status == 0)
    var text = try String(contentsOfFile: dir + "/t.json", encoding: .utf8)
    text = text.replacingOccurrences(of: "fam/case@cog retains", with: "fam/case@cog retainz")
    try text.write(toFile: dir + "/unknown.json", atomically: true, encoding: .utf8)
    let unknown = try CogBench.run(["check", "base.json", "--thresholds", "unknown.json"], in: dir)
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("unknown metric 'retainz'"))
  }

  @Test("results of another schema, corrupt results and debug results are rejected")
  func badResults() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(schema: 2), to: dir + "/v2.json")
    let v2 = try CogBench.run(["check", "v2.json"], in: dir)
    #expect(v2.status == 1)
    #expect(v2.stderr.contains("schema version 2"))
    try "not json".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
    #expect(try CogBench.run(["render", "bad.json", "--out", "perf.md"], in: dir).status == 1)
    #expect(!FileManager.default.fileExists(atPath: dir + "/perf.md"))
    try write(syntheticResult(configuration: "debug"), to: dir + "/debug.json")
    #expect(
      try CogBench.run(["thresholds", "update", "debug.json", "--thresholds", "t.json"], in: dir)
        .status == 1)
    #expect(!FileManager.default.fileExists(atPath: dir + "/t.json"))
  }

  @Test("render writes the record with ratios against cog and a chart")
  func render() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(), to: dir + "/r.json")
    try "We chose X.\n".write(toFile: dir + "/notes.md", atomically: true, encoding: .utf8)
    let o = try CogBench.run(
      [
        "render", "r.json", "--out", "impl/perf.md", "--history", "impl/perf-history.md",
        "--charts", "impl/charts", "--notes", "notes.md", "--profiles", "profiles",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/impl/perf.md", encoding: .utf8)
    #expect(md.hasPrefix("<!-- generated by cog-bench render, do not edit -->"))
    #expect(md.contains("## fam (quick)"))
    #expect(md.contains("| `fam/case` | simple | ok | 4 | 4.0 ns (2.0 ns–9.0 ns) | 2.00× |"))
    #expect(md.contains("We chose X."))
    #expect(md.contains("retains (quick) unavailable for 1 of 2 measured results: hooks failed"))
    #expect(FileManager.default.fileExists(atPath: dir + "/impl/charts/quick-fam.svg"))
    #expect(FileManager.default.fileExists(atPath: dir + "/impl/perf-history.md"))
  }
}
