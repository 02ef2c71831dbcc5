import Foundation

@MainActor
enum CheckCommand {
  static let help = """
    usage: cog-bench check <result.json> [--thresholds PATH] [--enforce-targets]

    Compares every deterministic count of the result (instructions, allocations, bytes,
    retains, releases) with the committed thresholds (default Results/thresholds/<size>.json)
    and fails both ways: a count above its threshold is a regression, one below it is an
    improvement that must be committed (ratcheted) with `cog-bench thresholds update`.
    --enforce-targets also fails when the reference system (cog) misses a steady-state
    target its case declares (no allocations, no retains/releases in steady iterations).
    A missing or corrupt thresholds file, a threshold for a count the result lacks, a count
    without threshold, or a case whose checks failed are errors.
    Exit: 0 equal within tolerance, 1 error, 2 regression, 4 improvements only.
    """

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try Arguments(
      arguments, valueOptions: ["thresholds"], flagOptions: ["enforce-targets"])
    if a.has("help") {
      print(help)
      return .ok
    }
    guard a.positionals.count == 1 else {
      throw BenchError("check needs exactly one result file (see cog-bench check --help)")
    }
    let resultPath = a.positionals[0]
    let result = try ResultFile.read(resultPath)
    let path = a["thresholds"] ?? ThresholdFile.defaultPath(for: result.size)
    let update = "cog-bench thresholds update \(resultPath) --thresholds \(path)"
    let thresholds: ThresholdFile
    do {
      thresholds = try ThresholdFile.read(path)
    } catch let e as BenchError {
      throw BenchError("\(e.message); to (re)generate it: \(update)")
    }
    var report = compare(result, thresholds)
    if a.has("enforce-targets") {
      for r in result.results where r.system == SystemCatalog.referenceID {
        for miss in r.steadyStateMisses ?? [] {
          report.errors += 1
          report.lines.append("ERROR \(r.id): \(miss)")
        }
      }
    }
    for line in report.lines { print(line) }
    print(
      "checked \(report.checked) counts: \(report.regressions) regression(s), "
        + "\(report.improvements) improvement(s), \(report.errors) error(s)")
    if report.errors > 0 {
      print("to accept these numbers as the new thresholds: \(update)")
      return .failure
    }
    if report.regressions > 0 {
      print("if the regression is intended, update the thresholds: \(update)")
      return .regression
    }
    if report.improvements > 0 {
      print("improvements must be ratcheted into the committed thresholds: \(update)")
      return .improvementsOnly
    }
    return .ok
  }

  struct Report {
    var lines: [String] = []
    var checked = 0
    var regressions = 0
    var improvements = 0
    var errors = 0
  }

  static func compare(_ result: ResultFile, _ thresholds: ThresholdFile) -> Report {
    var report = Report()
    func error(_ text: String) {
      report.errors += 1
      report.lines.append("ERROR \(text)")
    }
    if thresholds.size != result.size {
      error(
        "the thresholds are for size \(thresholds.size.rawValue), the result is \(result.size.rawValue)"
      )
    }
    if thresholds.allocationCounter != result.environment.build.allocationCounter {
      error(
        "the thresholds were recorded with the \(thresholds.allocationCounter) allocation "
          + "counter, the result with \(result.environment.build.allocationCounter)")
    }
    if thresholds.toolchain != result.environment.toolchain {
      error(
        "the thresholds were recorded with '\(thresholds.toolchain)', the result with "
          + "'\(result.environment.toolchain)'")
    }
    if result.environment.build.configuration != "release" {
      error("the result comes from a \(result.environment.build.configuration) build")
    }
    for r in result.results where !r.checks.passed {
      error("\(r.id): case checks failed: \(r.checks.failures.prefix(3).joined(separator: "; "))")
    }
    let byID = Dictionary(result.results.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for key in thresholds.values.keys.sorted() {
      let limit = thresholds.values[key]!
      guard let (id, metricName) = ThresholdFile.split(key), let m = Metric(rawValue: metricName)
      else {
        error("malformed threshold key '\(key)'")
        continue
      }
      guard let r = byID[id] else {
        error("\(key): the result has no \(id)")
        continue
      }
      if let na = r.notApplicable {
        error("\(key): \(id) is not applicable in the result (\(na))")
        continue
      }
      guard let v = r.value(m) else {
        error("\(key): the result did not measure \(m.rawValue)")
        continue
      }
      guard let value = v.value else {
        error("\(key): unavailable in the result (\(v.unavailable ?? "no value"))")
        continue
      }
      report.checked += 1
      let relative = thresholds.tolerance[m.rawValue] ?? 0
      let slack = Int((Double(limit) * relative).rounded(.up))
      let delta = value - limit
      let percent =
        limit == 0
        ? "" : " (\(delta > 0 ? "+" : "")\(fixed(Double(delta) * 100 / Double(limit), 2))%)"
      if delta > slack {
        report.regressions += 1
        report.lines.append("REGRESSION \(key): \(value) > threshold \(limit)\(percent)")
      } else if delta < -slack {
        report.improvements += 1
        report.lines.append("IMPROVEMENT \(key): \(value) < threshold \(limit)\(percent)")
      }
    }
    for r in result.results where r.notApplicable == nil {
      for m in Metric.allCases where m.isDeterministic {
        if r.value(m)?.value != nil, thresholds.values[ThresholdFile.key(r.id, m)] == nil {
          error("\(ThresholdFile.key(r.id, m)): no committed threshold")
        }
      }
    }
    return report
  }
}

@MainActor
enum ThresholdsCommand {
  static let help = """
    usage: cog-bench thresholds update <result.json> [--thresholds PATH]

    Writes (atomically replaces) the thresholds file for the result's size (default
    Results/thresholds/<size>.json) with every deterministic count of the result, keeping
    the file's tolerances. Refuses results whose case checks failed, debug builds, and
    builds with COG_INTERNAL_CHECKS. Commit the file; its diff is one line per number.
    """

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try Arguments(arguments, valueOptions: ["thresholds"], flagOptions: [])
    if a.has("help") || a.positionals.first != "update" {
      print(help)
      return a.has("help") ? .ok : .failure
    }
    guard a.positionals.count == 2 else {
      throw BenchError("thresholds update needs exactly one result file")
    }
    let resultPath = a.positionals[1]
    let result = try ResultFile.read(resultPath)
    let failed = result.results.filter { !$0.checks.passed }
    if !failed.isEmpty {
      throw BenchError(
        "\(resultPath): \(failed.count) case × system result(s) failed their checks; "
          + "not recording thresholds from it")
    }
    if result.environment.build.configuration != "release" {
      throw BenchError("\(resultPath) comes from a debug build; thresholds need a release build")
    }
    if result.environment.build.defines.contains("COG_INTERNAL_CHECKS") {
      throw BenchError("\(resultPath) comes from a build with COG_INTERNAL_CHECKS")
    }
    let path = a["thresholds"] ?? ThresholdFile.defaultPath(for: result.size)
    var previous: ThresholdFile?
    if FileManager.default.fileExists(atPath: path) { previous = try ThresholdFile.read(path) }
    let updated = ThresholdFile.from(result, previous: previous)
    if updated.values.isEmpty {
      throw BenchError("\(resultPath) has no deterministic counts to record")
    }
    try FileOutput.replace(try updated.encoded(), at: path)
    let old = previous?.values ?? [:]
    let changed = updated.values.filter { old[$0.key] != $0.value }.count
    let removed = old.keys.filter { updated.values[$0] == nil }.count
    print(
      "wrote \(path): \(updated.values.count) thresholds (\(changed) new or changed, \(removed) removed)"
    )
    return .ok
  }
}
