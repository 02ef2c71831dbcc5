import Foundation
import Testing

// What a reader of the record and the gate rely on, checked on small measured runs of the
// debug build (--allow-debug): counts that do not depend on what else ran, graph bytes of
// graphs built in `beforeSample`, an injected regression that `check` reports with exit 2,
// and a dirty flag that only measured code sets.

@MainActor
@Suite("Measurement integrity", .serialized)
struct MeasurementIntegrityTests {
  /// True when this build's `cog-bench` can run under callgrind: valgrind 3.19 cannot read
  /// the DWARF 5 of a debug build (release builds take `-Xcc -gdwarf-4`; see the README), so
  /// in `swift test` the instruction parts are left to the release gate's self-test
  /// (`scripts/ci-gate.sh`).
  static var instructionsMeasurable: Bool {
    #if DEBUG
      return false
    #else
      return CogBench.canCountInstructions
    #endif
  }

  /// Instructions too, when callgrind can measure this build.
  static var countMetrics: String {
    "allocations,allocatedBytes,graphBytes,retains,releases"
      + (instructionsMeasurable ? ",instructions" : "")
  }

  @Test("a case's counts do not depend on the phases, cases and systems measured before it")
  func countsIndependentOfHistory() throws {
    let dir = try temporaryDirectory()
    // The gate's shape: one system, counts only.
    let alone = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "kairo/deep,sbench/createSignals", "--systems", "cog",
        "--metrics", Self.countMetrics, "--output-dir", "alone",
      ], in: dir)
    #expect(alone.status == 0, "\(alone.stderr)")
    // compare.sh's shape: time first, other cases and systems around it.
    let crowded = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "kairo/*,sbench/createSignals,cellx/1000",
        "--systems", "simple,cog,object-graph", "--metrics", Self.countMetrics + ",wallTime",
        "--samples", "3", "--warmup", "1", "--output-dir", "crowded",
      ], in: dir)
    #expect(crowded.status == 0, "\(crowded.stderr)")
    let a = try counts(inResult: try #require(writtenResult(alone, in: dir)))
    let b = try counts(inResult: try #require(writtenResult(crowded, in: dir)))
    #expect(a.count >= 10)
    for (key, value) in a {
      #expect(
        b[key] == value,
        "\(key): \(value) alone, \(b[key].map(String.init) ?? "missing") after other work")
    }
  }

  @Test(
    "a run of one metric records it for every case × system",
    arguments: ["allocations", "retains", "wallTime"])
  func oneMetricRun(metric: String) throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "kairo/deep,kairo/broad", "--systems", "cog,simple",
        "--metrics", metric, "--samples", "1", "--output-dir", "out",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let json = try readJSON(try #require(writtenResult(o, in: dir)))
    let results = try #require(json["results"] as? [[String: Any]])
    #expect(results.count == 4)
    for r in results {
      let metrics = try #require(r["metrics"] as? [String: Any])
      #expect(metrics[metric] != nil, "\(r["id"] ?? "?")")
    }
  }

  @Test("graphBytes measures graphs that cases build in beforeSample")
  func graphBytesOfBeforeSampleGraphs() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cellx/1000,cellx/2500", "--systems", "cog",
        "--metrics", "graphBytes", "--output-dir", "out",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let c = try counts(inResult: try #require(writtenResult(o, in: dir)))
    let small = try #require(c["cellx/1000@cog graphBytes"])
    let large = try #require(c["cellx/2500@cog graphBytes"])
    // 1500 more layers of 4 computeds and 4 effects: at least 100 bytes per node.
    #expect(large - small > 1500 * 8 * 100, "cellx/1000: \(small) B, cellx/2500: \(large) B")
  }

  /// The test-only system `injected` is Cog plus a known cost per iteration
  /// (`COG_BENCH_INJECT`); thresholds from its clean run make `check` fail with 2.
  @Test("an injected regression makes check exit 2", arguments: ["allocation", "instructions"])
  func injectedRegression(injection: String) throws {
    if injection == "instructions" && !Self.instructionsMeasurable {
      print("skipped: callgrind cannot measure this build (scripts/ci-gate.sh covers it)")
      return
    }
    let dir = try temporaryDirectory()
    let metrics =
      "allocations,allocatedBytes,retains,releases"
      + (injection == "instructions" ? ",instructions" : "")
    func run(_ inject: String, _ out: String) throws -> String {
      let o = try CogBench.run(
        [
          "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "injected", "--metrics",
          metrics, "--output-dir", out,
        ], in: dir, environment: ["COG_BENCH_INJECT": inject])
      #expect(o.status == 0, "\(o.stderr)")
      return try #require(writtenResult(o, in: dir))
    }
    let clean = try run("none", "clean")
    let update = try CogBench.run(
      [
        "thresholds", "update", clean, "--thresholds", "t.json", "--allow-debug", "--allow-dirty",
        "--merge",
      ], in: dir)
    #expect(update.status == 0, "\(update.stderr)")
    // `check` gates cog* by default; the test-only system is named (as ci-gate.sh does).
    let same = try CogBench.run(
      ["check", clean, "--thresholds", "t.json", "--allow-debug", "--systems", "injected"],
      in: dir)
    #expect(same.status == 0, "\(same.stdout)")
    let injected = try run(injection, "injected")
    let check = try CogBench.run(
      ["check", injected, "--thresholds", "t.json", "--allow-debug", "--systems", "injected"],
      in: dir)
    #expect(check.status == 2, "\(check.stdout)\(check.stderr)")
    let regressions = check.stdout.split(separator: "\n").filter { $0.hasPrefix("REGRESSION") }
    if injection == "allocation" {
      // One malloc of 16 bytes per iteration, no reference counting, per sample of 2.
      #expect(regressions.contains { $0.contains("kairo/deep@injected allocations: ") })
      #expect(!regressions.contains { $0.contains("retains") || $0.contains("releases") })
    } else {
      #expect(regressions.map { String($0) }.allSatisfy { $0.contains(" instructions: ") })
      #expect(regressions.count == 1)
    }
    // And an injected result never becomes thresholds.
    let refused = try CogBench.run(
      [
        "thresholds", "update", injected, "--thresholds", "t.json", "--allow-debug",
        "--allow-dirty", "--merge", "--accept-regressions",
      ], in: dir)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("injected"))
  }

  @Test("a run is dirty only when measured code differs from the commit")
  func dirtyMeansMeasuredCode() throws {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    guard path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/git") })
    else {
      print("skipped: git is not installed")
      return
    }
    let dir = try temporaryDirectory()
    func git(_ arguments: [String]) throws {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      p.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@t"] + arguments
      p.currentDirectoryURL = URL(fileURLWithPath: dir)
      p.standardOutput = FileHandle.nullDevice
      p.standardError = FileHandle.nullDevice
      try p.run()
      p.waitUntilExit()
      #expect(p.terminationStatus == 0, "git \(arguments)")
    }
    for d in ["Sources", "impl", "Results"] {
      try FileManager.default.createDirectory(
        atPath: "\(dir)/\(d)", withIntermediateDirectories: true)
    }
    try "a".write(toFile: "\(dir)/Sources/a.swift", atomically: true, encoding: .utf8)
    try "a".write(toFile: "\(dir)/Sources/b.swift", atomically: true, encoding: .utf8)
    try "a".write(toFile: "\(dir)/impl/perf.md", atomically: true, encoding: .utf8)
    try git(["init", "-q"])
    try git(["add", "."])
    try git(["commit", "-q", "-m", "x"])
    func dirty() throws -> (Bool, [String]) {
      let o = try CogBench.run(
        [
          "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "simple", "--metrics",
          "allocations", "--output-dir", "Results/runs",
        ], in: dir)
      #expect(o.status == 0, "\(o.stderr)")
      let json = try readJSON(try #require(writtenResult(o, in: dir)))
      let git = (json["environment"] as? [String: Any])?["git"] as? [String: Any]
      return (git?["dirty"] as? Bool ?? true, git?["changedFiles"] as? [String] ?? ["?"])
    }
    // The record and new result files do not make the next run dirty.
    try "b".write(toFile: "\(dir)/impl/perf.md", atomically: true, encoding: .utf8)
    #expect(try dirty() == (false, []))
    #expect(try dirty() == (false, []))
    // A changed or new source file does.
    try "c".write(toFile: "\(dir)/Sources/new.swift", atomically: true, encoding: .utf8)
    #expect(try dirty() == (true, ["Sources/new.swift"]))
    // Modified tracked files are named by their paths too, on every line of git's status
    // (" M path": the first line's blank is trimmed by the capture, the others' are not).
    try "d".write(toFile: "\(dir)/Sources/a.swift", atomically: true, encoding: .utf8)
    try "d".write(toFile: "\(dir)/Sources/b.swift", atomically: true, encoding: .utf8)
    #expect(try dirty() == (true, ["Sources/a.swift", "Sources/b.swift", "Sources/new.swift"]))
  }
}

@Suite("Instruction counts that cannot run")
struct UnreadableDebugInfoTests {
  /// The debug build's DWARF 5 is what valgrind 3.19 cannot read: a user who builds the runner
  /// without `-Xcc -gdwarf-4` must be told so, not sent to a log the run has removed.
  @Test("a runner callgrind cannot read says how to build it, and records no count")
  func dwarfFiveIsExplained() throws {
    #if DEBUG
      guard CogBench.canCountInstructions else { return }
      let dir = try temporaryDirectory()
      let o = try CogBench.run(
        [
          "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "cog", "--metrics",
          "instructions", "--output-dir", "out",
        ], in: dir)
      #expect(o.stderr.contains("-Xcc -gdwarf-4"), "\(o.stderr)")
      #expect(!o.stderr.contains("valgrind log /tmp/"), "\(o.stderr)")
      let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/out")
      let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/" + files[0]))
      let text = String(decoding: data, as: UTF8.self)
      #expect(text.contains("unavailable"))
    #endif
  }
}
