import Foundation
import Testing

// The cog-bench command line, driven as a user drives it: the tests run the `cog-bench`
// executable that `swift test` builds next to the test binary, on synthetic result and
// threshold files (test inputs, not measurements) and on small measured runs of a debug build
// with --allow-debug (plumbing; the numbers of release builds are checked by `cog-bench
// calibrate` and the CI gate).

@MainActor
@Suite("cog-bench command line")
struct RunnerTests {
  @Test("the executable is built beside the tests")
  func executableExists() {
    #expect(FileManager.default.isExecutableFile(atPath: CogBench.path), "\(CogBench.path)")
  }

  @Test("list names the metrics with their units and says which the gate gates")
  func list() throws {
    let o = try CogBench.run(["list"], in: try temporaryDirectory())
    #expect(o.status == 0)
    let lines = o.stdout.split(separator: "\n")
    let instructions = try #require(lines.first { $0.hasPrefix("  instructions") })
    #expect(instructions.contains("Ir/sample") && instructions.contains("gated on cog*"))
    let peak = try #require(lines.first { $0.hasPrefix("  peakBytes") })
    #expect(peak.contains("not gated"))
    let wall = try #require(lines.first { $0.hasPrefix("  wallTime") })
    #expect(wall.contains("ns/iteration") && wall.contains("never gated"))
    #expect(!o.stdout.contains("injected"), "the test-only system is not listed")
    let gate = try CogBench.run(["list", "--gate-metrics"], in: try temporaryDirectory())
    #expect(
      gate.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        == "instructions,allocations,allocatedBytes,graphBytes,retains,releases")
  }

  nonisolated static let commands = [
    "list", "run", "profile", "attribute", "check", "thresholds", "same-counts", "gate-power",
    "memory", "render", "calibrate",
  ]

  @Test("every command has --help", arguments: commands)
  func help(command: String) throws {
    let o = try CogBench.run([command, "--help"], in: try temporaryDirectory())
    #expect(o.status == 0)
    #expect(o.stdout.contains("usage: cog-bench \(command)"))
  }

  /// The options a help text names: `--name` tokens.
  static func optionNames<S: StringProtocol>(in text: S) -> Set<String> {
    var names = Set<String>()
    var rest = Substring(text)
    while let r = rest.range(of: "--") {
      let tail = rest[r.upperBound...]
      let name = tail.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
      if let first = name.first, first.isLetter { names.insert(String(name)) }
      rest = tail.dropFirst(name.count)
    }
    return names.subtracting(["help", "tool"])
  }

  @Test(
    "a command's help lists every option it describes, and describes every option it lists",
    arguments: commands)
  func helpCoversOptions(command: String) throws {
    let o = try CogBench.run([command, "--help"], in: try temporaryDirectory())
    let lines = o.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let synopsis = lines.prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    let listed = Self.optionNames(in: synopsis.joined(separator: "\n"))
    let described = Set(
      lines.dropFirst(synopsis.count).compactMap { line -> String? in
        let t = line.drop { $0 == " " }
        guard line.first == " ", t.hasPrefix("--") else { return nil }
        return Self.optionNames(in: t.prefix { $0 != " " }).first
      })
    // Another command's options are quoted with it in backticks: `cog-bench render --add`.
    let prose = lines.dropFirst(synopsis.count).joined(separator: "\n")
      .split(separator: "`", omittingEmptySubsequences: false)
      .enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
    let mentioned = Self.optionNames(in: prose)
    #expect(
      mentioned.subtracting(listed).isEmpty,
      "described, not in the usage line: \(mentioned.subtracting(listed).sorted())")
    #expect(
      listed.subtracting(described).isEmpty,
      "in the usage line, not described: \(listed.subtracting(described).sorted())")
  }

  @Test(
    "usage errors are one line and exit 1",
    arguments: [
      ["bogus"], ["run", "--frobnicate"], ["run", "--size", "huge"],
      ["run", "--cases", "no/such*"], ["run", "--metrics", "speed"], ["check"],
      ["run", "stray"], ["run", "--cases", "kairo/deep", "kairo/broad"], ["list", "extra"],
      ["calibrate", "extra"], ["check", "a.json", "b.json"], ["profile", "kairo/deep", "x"],
      ["run", "--systems", "inject*"],
    ])
  func usageErrors(arguments: [String]) throws {
    let o = try CogBench.run(arguments, in: try temporaryDirectory())
    #expect(o.status == 1)
    let lines = o.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(o.stderr)")
    #expect(lines.first?.hasPrefix("cog-bench: error: ") == true)
  }

  @Test("a stray argument to run is named in the error")
  func strayArgument() throws {
    let o = try CogBench.run(["run", "--allow-debug", "kairo/deep"], in: try temporaryDirectory())
    #expect(o.status == 1)
    #expect(o.stderr.contains("unexpected argument 'kairo/deep'"))
  }

  @Test("a bad --output-dir fails before anything is measured, in one line")
  func badOutputDirectory() throws {
    let dir = try temporaryDirectory()
    try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
    for bad in ["file", "file/sub"] {
      let o = try CogBench.run(
        [
          "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "simple", "--metrics",
          "allocations", "--output-dir", bad,
        ], in: dir)
      #expect(o.status == 1)
      let lines = o.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(o.stderr)")
      #expect(lines.first?.contains("output directory \(bad)") == true, "\(o.stderr)")
    }
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
      let json = try readJSON(dir + "/out/" + file)
      #expect(json["schema"] as? Int == 1)
      let settings = try #require(json["settings"] as? [String: Any])
      #expect(settings["regionsInOwnProcesses"] as? Bool == true)
      #expect(settings["complete"] as? Bool == false)
      let results = try #require(json["results"] as? [[String: Any]])
      #expect(results.first?["id"] as? String == "kairo/deep@simple")
      let metrics = try #require(results.first?["metrics"] as? [String: Any])
      #expect(Set(metrics.keys) == ["allocations", "retains", "releases", "wallTime"])
    }
    // The table shows units and the counters it could not take.
    #expect(first.stdout.contains("allocs/sample"))
    #expect(first.stdout.contains("wall/iter"))
    #expect(first.stdout.contains("Missing counters"))
  }

  @Test("a result names the sources its binary was built from, and says when they differ")
  func sourcesStamp() throws {
    let dir = try temporaryDirectory()
    @discardableResult func git(_ arguments: String...) throws -> String {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      p.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", dir] + arguments
      let out = Pipe()
      p.standardOutput = out
      p.standardError = FileHandle.nullDevice
      try p.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      #expect(p.terminationStatus == 0, "git \(arguments)")
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    func commit(_ message: String) throws {
      try message.write(toFile: dir + "/Package.swift", atomically: true, encoding: .utf8)
      try git("add", "Package.swift")
      try git("commit", "-q", "-m", message)
    }
    try git("init", "-q")
    try commit("first")
    // A copy of the runner, as release-build.sh leaves it in its products (kept out of the
    // checkout's measured paths, as `.build` is ignored).
    try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
    try "bin/\n".write(toFile: dir + "/.gitignore", atomically: true, encoding: .utf8)
    let runner = dir + "/bin/cog-bench"
    try FileManager.default.copyItem(atPath: CogBench.path, toPath: runner)
    let stamped = try CogBench.run(["__stamp-sources"], in: dir, executable: runner)
    #expect(stamped.status == 0, "\(stamped.stderr)")
    let arguments = [
      "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "simple", "--metrics",
      "allocations", "--samples", "1", "--warmup", "0", "--output-dir", "out",
    ]
    func sources(of o: BenchOutput) throws -> [String: Any]? {
      #expect(o.status == 0, "\(o.stderr)")
      let out = dir + "/out/"
      let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
      let json = try readJSON(out + (try #require(files.last { $0.hasSuffix(".json") })))
      try FileManager.default.removeItem(atPath: out)
      let environment = try #require(json["environment"] as? [String: Any])
      let build = try #require(environment["build"] as? [String: Any])
      return build["sources"] as? [String: Any]
    }
    let head = try git("rev-parse", "HEAD")

    // Built from the checkout: the stamp is recorded, nothing said.
    let same = try CogBench.run(arguments, in: dir, executable: runner)
    let recorded = try #require(try sources(of: same))
    #expect(recorded["commit"] as? String == head)
    #expect(recorded["dirty"] as? Bool == false)
    #expect(!same.stderr.contains("warning") && !same.stderr.contains("note: this binary"))

    // A commit outside the measured paths (notes, docs) since the build: the same sources,
    // nothing said.
    try "notes".write(toFile: dir + "/NOTES.md", atomically: true, encoding: .utf8)
    try git("add", "NOTES.md")
    try git("commit", "-q", "-m", "notes")
    let notes = try CogBench.run(arguments, in: dir, executable: runner)
    #expect(try sources(of: notes)?["commit"] as? String == head)
    #expect(!notes.stderr.contains("warning") && !notes.stderr.contains("note: this binary"))

    // The checkout's measured code moved on since the build: both recorded, and a warning.
    try commit("second")
    let moved = try CogBench.run(arguments, in: dir, executable: runner)
    #expect(try sources(of: moved)?["commit"] as? String == head)
    #expect(moved.stderr.contains("warning: this binary was built from \(head.prefix(10))"))

    // A stamp of another binary (rebuilt since) is not this binary's: not recorded, and said.
    let stampPath = runner + ".sources.json"
    let stamp = try String(contentsOfFile: stampPath, encoding: .utf8)
    try stamp.replacingOccurrences(of: "fnv1a64:", with: "fnv1a64:0")
      .write(toFile: stampPath, atomically: true, encoding: .utf8)
    let other = try CogBench.run(arguments, in: dir, executable: runner)
    #expect(try sources(of: other) == nil)
    #expect(other.stderr.contains("carries no source stamp of scripts/release-build.sh"))
  }

  @Test("registrars are recorded for the boundary cases: 12 for 1,000 states with 12 UI-read")
  func registrarsRecorded() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cog/boundary-registrars-1000,cog/steady-turn",
        "--systems", "cog,observation", "--metrics", "registrars", "--output-dir", "out",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let file = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir + "/out").first {
        $0.hasSuffix(".json")
      })
    let results = try #require(try readJSON(dir + "/out/" + file)["results"] as? [[String: Any]])
    func registrars(_ id: String) -> Int? {
      let r = results.first { $0["id"] as? String == id }
      let metrics = r?["metrics"] as? [String: Any]
      return (metrics?["registrars"] as? [String: Any])?["value"] as? Int
    }
    #expect(registrars("cog/boundary-registrars-1000@cog") == 12)
    #expect(registrars("cog/boundary-registrars-1000@observation") == 100)
    // Not a case with UI reads: nothing recorded.
    #expect(registrars("cog/steady-turn@cog") == nil)
  }

  @Test("check passes equal counts, and fails regressions (2) and improvements (4)")
  func checkBothWays() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(), to: dir + "/base.json")
    let update = try CogBench.run(
      ["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
    #expect(update.status == 0, "\(update.stderr)")
    #expect(update.stdout.contains("+ kairo/deep@cog allocations 10"))
    let thresholds = try String(contentsOfFile: dir + "/t.json", encoding: .utf8)
    #expect(thresholds.contains("\"kairo/deep@cog allocations\" : 10"))
    #expect(thresholds.contains("\"kairo/deep@simple allocations\" : 20"))
    #expect(!thresholds.contains("simple retains"))
    #expect(!thresholds.contains("wallTime\" :"))

    #expect(
      try CogBench.run(["check", "base.json", "--thresholds", "t.json"], in: dir).status == 0)

    try write(syntheticResult(allocations: 11), to: dir + "/worse.json")
    let worse = try CogBench.run(["check", "worse.json", "--thresholds", "t.json"], in: dir)
    #expect(worse.status == 2)
    #expect(worse.stdout.contains("REGRESSION kairo/deep@cog allocations: 11 > threshold 10"))
    #expect(worse.stdout.contains("--accept-regressions"))

    try write(syntheticResult(allocations: 9), to: dir + "/better.json")
    let better = try CogBench.run(["check", "better.json", "--thresholds", "t.json"], in: dir)
    #expect(better.status == 4)
    #expect(better.stdout.contains("IMPROVEMENT kairo/deep@cog allocations: 9 < threshold 10"))
    #expect(better.stdout.contains("cog-bench thresholds update better.json --thresholds t.json"))
  }

  @Test("a regression exits 2 also when a target is missed or something improved")
  func regressionExitsTwo() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(retains: 5), to: dir + "/base.json")
    #expect(
      try CogBench.run(["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
        .status == 0)
    let miss = "target: no allocations in steady iterations; counted 11"
    // Regression and missed target.
    try write(
      syntheticResult(allocations: 11, retains: 5, steadyStateMisses: [miss]), to: dir + "/a.json")
    let a = try CogBench.run(
      ["check", "a.json", "--thresholds", "t.json", "--enforce-targets"], in: dir)
    #expect(a.status == 2, "\(a.stdout)")
    #expect(a.stdout.contains("REGRESSION kairo/deep@cog: steady-state \(miss)"))
    // A missed target alone.
    try write(syntheticResult(retains: 5, steadyStateMisses: [miss]), to: dir + "/b.json")
    #expect(
      try CogBench.run(["check", "b.json", "--thresholds", "t.json", "--enforce-targets"], in: dir)
        .status == 2)
    // A regression beside an improvement.
    try write(syntheticResult(allocations: 11, retains: 4), to: dir + "/c.json")
    #expect(try CogBench.run(["check", "c.json", "--thresholds", "t.json"], in: dir).status == 2)
  }

  @Test("--enforce-targets holds every layout of Cog to the targets, and no baseline")
  func targetsOnEveryLayout() throws {
    let dir = try temporaryDirectory()
    /// The synthetic result with its second system renamed `id` (and, if given, a miss).
    func layoutResult(_ id: String, miss: String? = nil) -> [String: Any] {
      var r = syntheticResult(systems: ["cog", id])
      var results = r["results"] as! [[String: Any]]
      results[1]["id"] = "kairo/deep@\(id)"
      results[1]["system"] = id
      if let miss { results[1]["steadyStateMisses"] = [miss] }
      r["results"] = results
      return r
    }
    let miss = "target: no retains/releases in steady iterations; counted 3"
    for (n, id) in ["cog[pool+inline]", "simple"].enumerated() {
      let t = "t\(n).json"
      try write(layoutResult(id), to: dir + "/base.json")
      let update = try CogBench.run(
        ["thresholds", "update", "base.json", "--thresholds", t], in: dir)
      #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
      try write(layoutResult(id, miss: miss), to: dir + "/miss.json")
      let o = try CogBench.run(
        ["check", "miss.json", "--thresholds", t, "--enforce-targets"], in: dir)
      if id == "simple" {
        #expect(o.status == 0, "a baseline's miss is reported, not gated: \(o.stdout)")
      } else {
        #expect(o.status == 2, "\(o.stdout)")
        #expect(o.stdout.contains("REGRESSION kairo/deep@\(id): steady-state \(miss)"))
      }
    }
  }

  @Test("check --systems and --metrics compare only that part of the thresholds")
  func checkScope() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(), to: dir + "/base.json")
    #expect(
      try CogBench.run(["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
        .status == 0)
    // A result of cog's allocations only (what COG_GATE_SYSTEMS=cog COG_GATE_METRICS=allocations
    // measures): the full thresholds would miss the rest; the scoped check passes.
    var only = syntheticResult(systems: ["cog"])
    var results = only["results"] as! [[String: Any]]
    results.removeLast()
    results[0]["metrics"] = ["allocations": ["unit": "allocations/sample", "value": 10]]
    only["results"] = results
    try write(only, to: dir + "/only.json")
    #expect(
      try CogBench.run(["check", "only.json", "--thresholds", "t.json"], in: dir).status == 1)
    let scoped = try CogBench.run(
      [
        "check", "only.json", "--thresholds", "t.json", "--systems", "cog", "--metrics",
        "allocations",
      ],
      in: dir)
    #expect(scoped.status == 0, "\(scoped.stdout)")
    #expect(scoped.stdout.contains("checked 1 counts"))
  }

  @Test(
    "missing, corrupt, unknown or negative thresholds are errors; only a missing file suggests an update"
  )
  func badThresholds() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(), to: dir + "/base.json")
    let missing = try CogBench.run(["check", "base.json", "--thresholds", "none.json"], in: dir)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cog-bench thresholds update base.json"))

    try "{\"schema\": 1, \"values\": {".write(
      toFile: dir + "/corrupt.json", atomically: true, encoding: .utf8)
    let corrupt = try CogBench.run(["check", "base.json", "--thresholds", "corrupt.json"], in: dir)
    #expect(corrupt.status == 1)
    #expect(!(corrupt.stdout + corrupt.stderr).contains("thresholds update"))
    // Nor does update overwrite it.
    let overwrite = try CogBench.run(
      ["thresholds", "update", "base.json", "--thresholds", "corrupt.json"], in: dir)
    #expect(overwrite.status == 1)
    #expect(
      try String(contentsOfFile: dir + "/corrupt.json", encoding: .utf8)
        == "{\"schema\": 1, \"values\": {")

    #expect(
      try CogBench.run(["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
        .status == 0)
    let good = try String(contentsOfFile: dir + "/t.json", encoding: .utf8)
    for (name, bad) in [
      (
        "unknown",
        good.replacingOccurrences(of: "kairo/deep@cog retains", with: "kairo/deep@cog retainz")
      ),
      (
        "negative",
        good.replacingOccurrences(
          of: "\"kairo/deep@cog allocations\" : 10", with: "\"kairo/deep@cog allocations\" : -10")
      ),
      (
        "tolerance",
        good.replacingOccurrences(of: "\"allocations\" : 0,", with: "\"allocations\" : -0.5,")
      ),
    ] {
      #expect(bad != good, "\(name): the edit did not apply")
      try bad.write(toFile: dir + "/\(name).json", atomically: true, encoding: .utf8)
      let check = try CogBench.run(["check", "base.json", "--thresholds", "\(name).json"], in: dir)
      #expect(check.status == 1, "\(name)")
      #expect(
        check.stderr.hasPrefix("cog-bench: error: thresholds file"), "\(name): \(check.stderr)")
      let update = try CogBench.run(
        ["thresholds", "update", "base.json", "--thresholds", "\(name).json"], in: dir)
      #expect(update.status == 1, "\(name)")
      #expect(try String(contentsOfFile: dir + "/\(name).json", encoding: .utf8) == bad, "\(name)")
    }
  }

  @Test("a tolerance override widens one threshold only, survives an update, and is validated")
  func toleranceOverride() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(retains: 10), to: dir + "/base.json")
    #expect(
      try CogBench.run(["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
        .status == 0)
    var file = try readJSON(dir + "/t.json")
    file["toleranceOverrides"] = ["kairo/deep@cog allocations": 0.2]
    try write(file, to: dir + "/t.json")
    try write(syntheticResult(allocations: 12, retains: 12), to: dir + "/moved.json")
    let moved = try CogBench.run(["check", "moved.json", "--thresholds", "t.json"], in: dir)
    #expect(moved.status == 2)
    #expect(!moved.stdout.contains("REGRESSION kairo/deep@cog allocations"))
    #expect(moved.stdout.contains("REGRESSION kairo/deep@cog retains: 12 > threshold 10"))
    try write(syntheticResult(allocations: 9, retains: 10), to: dir + "/ratchet.json")
    #expect(
      try CogBench.run(["thresholds", "update", "ratchet.json", "--thresholds", "t.json"], in: dir)
        .status == 0)
    let kept = try readJSON(dir + "/t.json")
    #expect((kept["toleranceOverrides"] as? [String: Double])?["kairo/deep@cog allocations"] == 0.2)
    file["toleranceOverrides"] = ["kairo/deep@cog nothing": 0.2]
    try write(file, to: dir + "/bad.json")
    let bad = try CogBench.run(["check", "base.json", "--thresholds", "bad.json"], in: dir)
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("tolerance override"))
  }

  @Test("thresholds update refuses partial, dirty and regressed results, writing nothing")
  func updateRefusals() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(), to: dir + "/base.json")
    #expect(
      try CogBench.run(["thresholds", "update", "base.json", "--thresholds", "t.json"], in: dir)
        .status == 0)
    let before = try String(contentsOfFile: dir + "/t.json", encoding: .utf8)
    func unchanged() throws -> Bool {
      try String(contentsOfFile: dir + "/t.json", encoding: .utf8) == before
    }

    // One case of the suite: refused; --merge updates only what it measured.
    try write(syntheticResult(allocations: 8, cases: ["kairo/deep"]), to: dir + "/one.json")
    let partial = try CogBench.run(
      ["thresholds", "update", "one.json", "--thresholds", "t.json"], in: dir)
    #expect(partial.status == 1)
    #expect(partial.stderr.contains("is partial"))
    #expect(partial.stderr.contains("--merge"))
    #expect(try unchanged())

    // Fewer systems than the thresholds have: refused.
    var cogOnly = syntheticResult(allocations: 8, systems: ["cog"])
    cogOnly["results"] = Array((cogOnly["results"] as! [[String: Any]]).prefix(1))
    try write(cogOnly, to: dir + "/cog.json")
    let fewer = try CogBench.run(
      ["thresholds", "update", "cog.json", "--thresholds", "t.json"], in: dir)
    #expect(fewer.status == 1)
    #expect(fewer.stderr.contains("kairo/deep@simple allocations not measured"))
    #expect(try unchanged())
    let merged = try CogBench.run(
      ["thresholds", "update", "cog.json", "--thresholds", "t.json", "--merge", "--dry-run"],
      in: dir)
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.contains("~ kairo/deep@cog allocations 10 → 8"))
    #expect(merged.stdout.contains("nothing written"))
    #expect(try unchanged())

    // A dirty working tree: refused unless --allow-dirty.
    try write(syntheticResult(allocations: 8, dirty: true), to: dir + "/dirty.json")
    let dirty = try CogBench.run(
      ["thresholds", "update", "dirty.json", "--thresholds", "t.json"], in: dir)
    #expect(dirty.status == 1)
    #expect(dirty.stderr.contains("Sources/x.swift"))
    #expect(try unchanged())

    // A rise: refused unless --accept-regressions.
    try write(syntheticResult(allocations: 12), to: dir + "/worse.json")
    let rise = try CogBench.run(
      ["thresholds", "update", "worse.json", "--thresholds", "t.json"], in: dir)
    #expect(rise.status == 1)
    #expect(rise.stdout.contains("~ kairo/deep@cog allocations 10 → 12 (+20.00%) REGRESSION"))
    #expect(try unchanged())
    let accepted = try CogBench.run(
      ["thresholds", "update", "worse.json", "--thresholds", "t.json", "--accept-regressions"],
      in: dir)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(accepted.stdout.contains("1 changed"))

    // A lower count is a ratchet: accepted.
    try write(syntheticResult(allocations: 7), to: dir + "/better.json")
    let ratchet = try CogBench.run(
      ["thresholds", "update", "better.json", "--thresholds", "t.json"], in: dir)
    #expect(ratchet.status == 0)
    #expect(ratchet.stdout.contains("~ kairo/deep@cog allocations 12 → 7"))
  }

  @Test("same-counts passes equal counts of one executable and names every difference")
  func sameCounts() throws {
    let dir = try temporaryDirectory()
    func result(_ allocations: Int, digest: String, commit: String? = nil) -> [String: Any] {
      var r = syntheticResult(allocations: allocations)
      var env = r["environment"] as! [String: Any]
      var build = env["build"] as! [String: Any]
      build["executableDigest"] = digest
      env["build"] = build
      if let commit {
        var git = env["git"] as! [String: Any]
        git["commit"] = commit
        env["git"] = git
      }
      r["environment"] = env
      return r
    }
    try write(result(10, digest: "fnv1a64:1"), to: dir + "/gate.json")
    try write(result(10, digest: "fnv1a64:1"), to: dir + "/same.json")
    try write(result(11, digest: "fnv1a64:1"), to: dir + "/other.json")
    try write(result(10, digest: "fnv1a64:2"), to: dir + "/rebuilt.json")
    let same = try CogBench.run(
      ["same-counts", "gate.json", "same.json", "--systems", "cog*"], in: dir)
    #expect(same.status == 0, "\(same.stdout)")
    #expect(same.stdout.contains("compared 2 counts"))
    let other = try CogBench.run(["same-counts", "gate.json", "other.json"], in: dir)
    #expect(other.status == 1)
    #expect(
      other.stdout.contains(
        "DIFFERENT kairo/deep@cog allocations: 10 in the reference, 11 in the other"))
    let rebuilt = try CogBench.run(["same-counts", "gate.json", "rebuilt.json"], in: dir)
    #expect(rebuilt.status == 1)
    #expect(rebuilt.stdout.contains("different executables"))
    // Two builds of one commit (the isolation check: without and with a throwaway variant).
    let otherBuild = try CogBench.run(
      ["same-counts", "gate.json", "rebuilt.json", "--other-build"], in: dir)
    #expect(otherBuild.status == 0, "\(otherBuild.stdout)")
    #expect(otherBuild.stdout.contains("all equal"))
    try write(result(10, digest: "fnv1a64:2", commit: "fedcba9876543210"), to: dir + "/later.json")
    let later = try CogBench.run(
      ["same-counts", "gate.json", "later.json", "--other-build"], in: dir)
    #expect(later.status == 1)
    #expect(later.stdout.contains("different commits"))
    // The binaries' stamped sources decide where both results have them: one checkout
    // commit, but one binary built before an edit.
    func stamped(_ digest: String, changed: [String]) -> [String: Any] {
      var r = result(10, digest: digest)
      var env = r["environment"] as! [String: Any]
      var build = env["build"] as! [String: Any]
      let git = env["git"] as! [String: Any]
      build["sources"] = [
        "commit": git["commit"]!, "dirty": !changed.isEmpty, "changedFiles": changed,
      ]
      env["build"] = build
      r["environment"] = env
      return r
    }
    try write(stamped("fnv1a64:1", changed: []), to: dir + "/clean.json")
    try write(stamped("fnv1a64:2", changed: []), to: dir + "/clean2.json")
    try write(
      stamped("fnv1a64:3", changed: ["Sources/CogCore/Graph.swift"]), to: dir + "/edited.json")
    let clean = try CogBench.run(
      ["same-counts", "clean.json", "clean2.json", "--other-build"], in: dir)
    #expect(clean.status == 0, "\(clean.stdout)")
    let edited = try CogBench.run(
      ["same-counts", "clean.json", "edited.json", "--other-build"], in: dir)
    #expect(edited.status == 1)
    #expect(edited.stdout.contains("different sources of commit"))
    #expect(edited.stdout.contains("Sources/CogCore/Graph.swift"))
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

  @Test("render writes the record with ratios against cog and log-scale charts")
  func render() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(complete: true, instructions: 100), to: dir + "/r.json")
    try "We chose X.\n".write(toFile: dir + "/notes.md", atomically: true, encoding: .utf8)
    let o = try CogBench.run(
      [
        "render", "r.json", "--out", "impl/perf.md", "--history", "impl/perf-history.md",
        "--charts", "impl/charts", "--notes", "notes.md", "--profiles", "profiles",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/impl/perf.md", encoding: .utf8)
    #expect(md.hasPrefix("<!-- generated by cog-bench render, do not edit -->"))
    #expect(md.contains("## kairo (quick)"))
    #expect(md.contains("| `kairo/deep` | simple | ok | 4 | 4.0 ns (2.0 ns–9.0 ns) | 2.00× |"))
    #expect(md.contains("We chose X."))
    #expect(md.contains("retains (quick) unavailable for 1 of 2 measured results: hooks failed"))
    #expect(md.contains("- `graphBytes` (bytes): heap bytes the case holds once built and run"))
    let wall = try String(
      contentsOfFile: dir + "/impl/charts/quick-kairo-wallTime.svg", encoding: .utf8)
    #expect(wall.contains("log scale"))
    #expect(wall.contains(">2.00×<"))
    #expect(
      FileManager.default.fileExists(atPath: dir + "/impl/charts/quick-kairo-instructions.svg"))
    #expect(FileManager.default.fileExists(atPath: dir + "/impl/perf-history.md"))
  }

  @Test("a partial run never becomes the record, and stale charts are removed")
  func partialRunsStayOutOfTheRecord() throws {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/runs", withIntermediateDirectories: true)
    var complete = syntheticResult(complete: true)
    complete["date"] = "2026-01-01T00:00:00Z"
    try write(complete, to: dir + "/runs/a-complete.json")
    var partial = syntheticResult(allocations: 99, cases: ["kairo/deep"])
    partial["date"] = "2026-01-02T00:00:00Z"  // newer
    try write(partial, to: dir + "/runs/b-partial.json")
    try FileManager.default.createDirectory(
      atPath: dir + "/impl/charts", withIntermediateDirectories: true)
    try "<svg/>".write(
      toFile: dir + "/impl/charts/quick-gone.svg", atomically: true, encoding: .utf8)
    let args = [
      "render", "--results-dir", "runs", "--out", "impl/perf.md", "--history",
      "impl/perf-history.md", "--charts", "impl/charts", "--notes", "none.md", "--profiles", "p",
    ]
    let o = try CogBench.run(args, in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    #expect(o.stdout.contains("removed 1 stale chart"))
    let md = try String(contentsOfFile: dir + "/impl/perf.md", encoding: .utf8)
    #expect(md.contains("runs/a-complete.json"))
    #expect(!md.contains("| 99 |"))
    let history = try String(contentsOfFile: dir + "/impl/perf-history.md", encoding: .utf8)
    #expect(history.contains("partial run"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/impl/charts/quick-gone.svg"))
    // Only partial runs: nothing is written.
    try FileManager.default.removeItem(atPath: dir + "/runs/a-complete.json")
    try FileManager.default.removeItem(atPath: dir + "/impl/perf.md")
    let none = try CogBench.run(args, in: dir)
    #expect(none.status == 1)
    #expect(none.stderr.contains("complete"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/impl/perf.md"))
  }
}
