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

/// A synthetic quick result with the `sinks/*` cases on `object-graph` and `cog`: one update of
/// 100 recomputed nodes per sample, the model's per-node instructions and allocations given in
/// issue 17's shape order (deep, broad, diamond, triangle, fan-out).
private func sinksResult(instructions: [Int], allocations: [Int], date: String) -> [String: Any] {
  let shapes = ["deep", "broad", "diamond", "triangle", "fan-out"]
  var results: [[String: Any]] = []
  for (i, shape) in shapes.enumerated() {
    for (system, ir, allocs) in [
      ("cog", 300, 0), ("object-graph", instructions[i], allocations[i]),
    ] {
      results.append([
        "id": "sinks/\(shape)@\(system)", "caseID": "sinks/\(shape)", "family": "sinks",
        "system": system, "iterationsPerSample": 1, "recomputesPerIteration": 100,
        "checks": ["passed": true, "failures": [String]()],
        "metrics": [
          "instructions": ["unit": "instructions/sample", "value": ir * 100],
          "allocations": ["unit": "allocations/sample", "value": allocs * 100],
        ],
      ])
    }
  }
  var file = syntheticResult()
  file["date"] = date
  file["settings"] = [
    "samples": 1, "warmupSamples": 0, "metrics": ["allocations", "instructions"],
    "systems": ["cog", "object-graph"],
  ]
  file["results"] = results
  return file
}

/// issue 17's swift-state-graph instructions per node, in shape order.
private let stateGraphInstructions = [98_186, 108_936, 127_611, 135_270, 270_938]

/// Renders `current` in `dir` with the model-then result file the renderer reads beside it
/// (10 allocations per node on every shape, so swift-state-graph's are 25, 25, 22, 22, 25).
private func renderSinks(_ current: [String: Any], in dir: String, withThen: Bool = true)
  throws -> (status: Int32, md: String)
{
  try FileManager.default.createDirectory(
    atPath: dir + "/Results/runs", withIntermediateDirectories: true)
  if withThen {
    try write(
      sinksResult(
        instructions: [32_917, 37_262, 48_878, 55_319, 192_832], allocations: [10, 10, 10, 10, 10],
        date: "2026-01-01T00:00:00Z"),
      to: dir + "/Results/runs/20261201T100934Z-quick-a535c3bf7b.json")
  }
  try write(current, to: dir + "/now.json")
  let o = try CogBench.run(
    [
      "render", "now.json", "--out", "perf.md", "--history", "h.md", "--charts", "charts",
      "--notes", "none.md", "--profiles", "profiles",
    ], in: dir)
  let md = (try? String(contentsOfFile: dir + "/perf.md", encoding: .utf8)) ?? ""
  return (o.status, md)
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

  @Test("render compares the model with swift-state-graph per node; within 1.3× it says so")
  func renderModelFaithful() throws {
    let dir = try temporaryDirectory()
    let r = try renderSinks(
      sinksResult(
        instructions: stateGraphInstructions, allocations: [25, 25, 22, 22, 25],
        date: "2026-01-02T00:00:00Z"), in: dir)
    #expect(r.status == 0)
    #expect(r.md.contains("## The object-graph model against swift-state-graph"))
    #expect(r.md.contains("is within 1.3× of swift-state-graph per recomputed node"))
    #expect(
      r.md.contains("| deep | `sinks/deep` | 98186 | 98186 | 1.00× | 25.0 | 25.0 | 1.00× | yes |"))
    #expect(r.md.contains("| `sinks/fan-out` | 192832 | 192832 | 10.0 | 2.5× | 25.0 |"))
    #expect(!r.md.contains("at least"))
    #expect(
      r.md.contains("| `sinks/deep` | object-graph | ok | 1 | 9818600 | 327.29× | 2500 | ∞ |"))
  }

  @Test("render labels every comparison of the model with Cog 'at least' when it is below")
  func renderModelLowerBound() throws {
    let dir = try temporaryDirectory()
    // deep at half of swift-state-graph's instructions: 2× below, outside 1.3×.
    var instructions = stateGraphInstructions
    instructions[0] /= 2
    let r = try renderSinks(
      sinksResult(
        instructions: instructions, allocations: [25, 25, 22, 22, 25],
        date: "2026-01-02T00:00:00Z"), in: dir)
    #expect(r.status == 0)
    #expect(r.md.contains("| deep | `sinks/deep` | 98186 | 49093 | 2.00× |"))
    #expect(r.md.contains("| 2.00× | 25.0 | 25.0 | 1.00× | **no** |"))
    #expect(r.md.contains("is a lower bound of swift-state-graph"))
    #expect(r.md.contains("measured up to 2.00× higher"))
    // The family table: both ratios of each model row, and a footnote.
    #expect(
      r.md.contains(
        "| `sinks/deep` | object-graph | ok | 1 | 4909300 | at least 163.64× | 2500 | at least ∞ |"
      ))
    #expect(r.md.contains("\nobject-graph: `object-graph` is a lower bound"))
    // The per-node table.
    #expect(
      r.md.contains(
        "| `sinks/deep` | object-graph | quick | 1 | 100 | 49093 | swift-state-graph: at least "
          + "this, measured up to 2.00× more |"))
  }

  @Test("render says the model is unverified when the model-then result is missing")
  func renderModelUnverified() throws {
    let dir = try temporaryDirectory()
    let r = try renderSinks(
      sinksResult(
        instructions: stateGraphInstructions, allocations: [25, 25, 22, 22, 25],
        date: "2026-01-02T00:00:00Z"), in: dir, withThen: false)
    #expect(r.status == 0)
    #expect(r.md.contains("fidelity to swift-state-graph is not checked in this result file"))
    #expect(r.md.contains("cannot read result file Results/runs/20261201T100934Z"))
    #expect(r.md.contains("| 98186 | 98186 | 1.00× | unavailable | 25.0 | – | unknown |"))
  }
}
