import CogBenchCases
import Foundation

// Helpers of the command-line tests: run the `cog-bench` executable that `swift test` builds
// next to the test binary, write synthetic result and threshold files (test inputs, not
// measurements), read result files back.

struct BenchOutput {
  var status: Int32
  var stdout: String
  var stderr: String
}

enum CogBench {
  /// `cog-bench` beside the running test binary.
  static var path: String {
    let exe =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("cog-bench")
      .path
  }

  /// Runs `cog-bench arguments` in `directory`, with `environment` added to the test's own
  /// (`executable`: a copy of the runner elsewhere).
  static func run(
    _ arguments: [String], in directory: String, environment: [String: String] = [:],
    executable: String = path
  ) throws -> BenchOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Both pipes are drained at once, so that a chatty child cannot block on a full pipe.
    final class Box: @unchecked Sendable { var data = Data() }
    let errBox = Box()
    let group = DispatchGroup()
    group.enter()
    let errHandle = err.fileHandleForReading
    DispatchQueue.global().async {
      errBox.data = errHandle.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return BenchOutput(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errBox.data, as: UTF8.self))
  }

  /// True when callgrind can count instructions here (valgrind on PATH and the client
  /// requests compiled in), as `cog-bench list` does not say; checked by the build's defines.
  static var canCountInstructions: Bool {
    let pathDirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    let hasValgrind = pathDirs.contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/valgrind")
    }
    return hasValgrind
      && FileManager.default.fileExists(atPath: "/usr/include/valgrind/callgrind.h")
  }
}

/// `cog-bench render` of one result file in `dir` as the record tests run it: the record to
/// `dir/perf.md`, its other outputs beside it, no notes, profiles from `dir/profiles` and the
/// M6 section from `dir/m6` (absent unless the test writes them).
func renderRecord(_ file: String, in dir: String) throws -> BenchOutput {
  try CogBench.run(
    [
      "render", file, "--out", "perf.md", "--history", "h.md", "--charts", "charts",
      "--notes", "none.md", "--profiles", "profiles", "--m6-dir", "m6",
    ], in: dir)
}

func temporaryDirectory() throws -> String {
  let path = NSTemporaryDirectory() + "cog-bench-tests-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

func write(_ object: Any, to path: String) throws {
  let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  try data.write(to: URL(fileURLWithPath: path))
}

func readJSON(_ path: String) throws -> [String: Any] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
    throw CocoaError(.fileReadCorruptFile)
  }
  return object
}

/// The result file a `run` printed (`wrote PATH`), relative to `directory`.
func writtenResult(_ output: BenchOutput, in directory: String) -> String? {
  for line in output.stdout.split(separator: "\n") where line.hasPrefix("wrote ") {
    let path = String(line.dropFirst("wrote ".count))
    return path.hasPrefix("/") ? path : "\(directory)/\(path)"
  }
  return nil
}

/// `case@system metric` → count, for every count in a result file.
func counts(inResult path: String) throws -> [String: Int] {
  let json = try readJSON(path)
  var counts: [String: Int] = [:]
  for r in json["results"] as? [[String: Any]] ?? [] {
    let id = r["id"] as? String ?? "?"
    for (metric, v) in r["metrics"] as? [String: [String: Any]] ?? [:] {
      if let n = v["value"] as? Int { counts["\(id) \(metric)"] = n }
    }
  }
  return counts
}

/// Every case id of the registry: what a complete run selects.
@MainActor var allCaseIDs: [String] { CaseRegistry.all.cases.map { $0.id } }

/// A synthetic result file of `kairo/deep` on cog and simple with the given counts, from a
/// run that selected the whole suite (unless `cases` says otherwise).
@MainActor
func syntheticResult(
  allocations: Int = 10, retains: Int = 0, configuration: String = "release", schema: Int = 1,
  cases: [String]? = nil, systems: [String] = ["cog", "simple", "object-graph", "observation"],
  dirty: Bool = false, steadyStateMisses: [String]? = nil, complete: Bool? = nil,
  instructions: Int? = nil
) -> [String: Any] {
  func count(_ unit: String, _ v: Int) -> [String: Any] { ["unit": unit, "value": v] }
  var cogMetrics: [String: Any] = [
    "allocations": count("allocations/sample", allocations),
    "retains": count("retains/sample", retains),
    "wallTime": [
      "unit": "ns/iteration", "min": 1.0, "median": 2.0, "max": 3.0, "samples": 3,
    ],
  ]
  var metrics = ["allocations", "retains", "wallTime"]
  if let instructions {
    cogMetrics["instructions"] = count("Ir/sample", instructions)
    metrics.append("instructions")
  }
  var cog: [String: Any] = [
    "id": "kairo/deep@cog", "caseID": "kairo/deep", "family": "kairo", "system": "cog",
    "iterationsPerSample": 4, "checks": ["passed": true, "failures": [String]()],
    "metrics": cogMetrics,
  ]
  if let steadyStateMisses { cog["steadyStateMisses"] = steadyStateMisses }
  var settings: [String: Any] = [
    "samples": 1, "warmupSamples": 0, "metrics": metrics, "systems": systems,
    "cases": cases ?? allCaseIDs, "regionsInOwnProcesses": true,
  ]
  if let complete { settings["complete"] = complete }
  var simpleMetrics: [String: Any] = [
    "allocations": count("allocations/sample", 20),
    "retains": ["unit": "retains/sample", "unavailable": "hooks failed"],
    "wallTime": [
      "unit": "ns/iteration", "min": 2.0, "median": 4.0, "max": 9.0, "samples": 3,
    ],
  ]
  if let instructions { simpleMetrics["instructions"] = count("Ir/sample", instructions * 5 / 2) }
  return [
    "schema": schema, "tool": "cog-bench", "date": "2026-01-01T00:00:00Z", "size": "quick",
    "environment": [
      "machine": ["cpuModel": "test", "cores": 2, "kernel": "test"],
      "toolchain": "test toolchain",
      "build": [
        "configuration": configuration, "defines": [String](),
        "allocationCounter": "malloc-interposer", "command": "test",
      ],
      "git": [
        "commit": "0123456789abcdef", "dirty": dirty,
        "changedFiles": dirty ? ["Sources/x.swift"] : [],
      ],
    ],
    "counterSources": ["allocations": "test"],
    "settings": settings,
    "unavailableSystems": [String: String](),
    "results": [
      cog,
      [
        "id": "kairo/deep@simple", "caseID": "kairo/deep", "family": "kairo", "system": "simple",
        "iterationsPerSample": 4, "checks": ["passed": true, "failures": [String]()],
        "metrics": simpleMetrics,
      ],
    ],
  ]
}

/// Writes `current` as `dir/now.json` and renders it into `dir/perf.md` (history, charts,
/// notes and profiles in scratch paths of `dir`, and `extraArguments` after them); the exit
/// status and the record's text.
@MainActor
func renderRecord(_ current: [String: Any], in dir: String, extraArguments: [String] = [])
  throws -> (status: Int32, md: String)
{
  try write(current, to: dir + "/now.json")
  let o = try CogBench.run(
    [
      "render", "now.json", "--out", "perf.md", "--history", "h.md", "--charts", "charts",
      "--notes", "none.md", "--profiles", "profiles",
    ] + extraArguments, in: dir)
  let md = (try? String(contentsOfFile: dir + "/perf.md", encoding: .utf8)) ?? ""
  return (o.status, md)
}
