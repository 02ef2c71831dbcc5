import Foundation

@MainActor
enum CheckCommand {
  static let help = """
    usage: cog-bench check <result.json> [--thresholds PATH] [--systems GLOBS]
                           [--metrics GLOBS] [--enforce-targets] [--allow-debug]

    Compares every deterministic count of the result (instructions, allocations, bytes,
    retains, releases) with the committed thresholds (default Results/thresholds/<size>.json)
    and fails both ways: a count above its threshold is a regression, one below it is an
    improvement that must be committed (ratcheted) with `cog-bench thresholds update`.
      --systems, --metrics  compare only these systems and metrics (globs), on both sides:
                   the thresholds of other systems and metrics are not required
      --enforce-targets  a steady-state target its case declares (no allocations, no
                   retains/releases in steady iterations) that Cog misses, on any of its
                   layouts (cog, cog[<edges>+<keys>]), is a regression too; the baselines'
                   misses are reported, not gated
      --allow-debug  accept a result from a debug build (plumbing tests only)
    Errors (exit 1): a missing or corrupt thresholds file, a result from another size,
    toolchain or allocation counter, a debug build, a case whose checks failed, a threshold
    for a count the result lacks, a count without threshold.
    Exit: 0 equal within tolerance, 1 error, 2 regression or missed target (whatever else
    improved), 4 improvements only.
    """

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try Arguments(
      arguments, valueOptions: ["thresholds", "systems", "metrics"],
      flagOptions: ["enforce-targets", "allow-debug"], maxPositionals: 1)
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
    // A missing file may be created from the result; a corrupt one must be repaired or
    // restored, not overwritten from whatever result is at hand.
    if !FileManager.default.fileExists(atPath: path) {
      throw BenchError(
        "thresholds file \(path) does not exist; to create it from this result: "
          + "cog-bench thresholds update \(resultPath) --thresholds \(path)")
    }
    let thresholds = try ThresholdFile.read(path)
    let scope = CheckScope(
      systems: a["systems"].map(Selector.init), metrics: try a["metrics"].map(Selection.metrics))
    var report = compare(
      result, thresholds, scope: scope, allowDebug: a.has("allow-debug"))
    if a.has("enforce-targets") {
      for r in result.results
      where SystemCatalog.runsCog(r.system) && scope.includes(system: r.system) {
        for miss in r.steadyStateMisses ?? [] {
          report.regressions += 1
          report.lines.append("REGRESSION \(r.id): steady-state \(miss)")
        }
      }
    }
    for line in report.lines { print(line) }
    print(
      "checked \(report.checked) counts: \(report.regressions) regression(s), "
        + "\(report.improvements) improvement(s), "
        + "\(report.inputErrors + report.coverageErrors) error(s)")
    let update = "cog-bench thresholds update \(resultPath) --thresholds \(path)"
    if report.inputErrors > 0 {
      print("the result cannot be compared with these thresholds: fix the errors above")
      return .failure
    }
    if report.coverageErrors > 0 {
      print(
        "the result and the thresholds cover different counts (a case, system or metric was "
          + "added or removed); after review, record the new coverage: \(update)")
      return .failure
    }
    if report.regressions > 0 {
      print(
        "a regression is fixed, not ratcheted: find its cause (cog-bench profile <case> "
          + "--system <system>); if it is intended, record it after review with: \(update) "
          + "--accept-regressions")
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
    /// The result is not comparable (size, toolchain, counter, build, failed checks).
    var inputErrors = 0
    /// Counts without thresholds, or thresholds without counts.
    var coverageErrors = 0
  }

  static func compare(
    _ result: ResultFile, _ thresholds: ThresholdFile, scope: CheckScope = CheckScope(),
    allowDebug: Bool = false
  ) -> Report {
    var report = Report()
    func inputError(_ text: String) {
      report.inputErrors += 1
      report.lines.append("ERROR \(text)")
    }
    func coverageError(_ text: String) {
      report.coverageErrors += 1
      report.lines.append("ERROR \(text)")
    }
    if thresholds.size != result.size {
      inputError(
        "the thresholds are for size \(thresholds.size.rawValue), the result is \(result.size.rawValue)"
      )
    }
    if thresholds.allocationCounter != result.environment.build.allocationCounter {
      inputError(
        "the thresholds were recorded with the \(thresholds.allocationCounter) allocation "
          + "counter, the result with \(result.environment.build.allocationCounter)")
    }
    if thresholds.toolchain != result.environment.toolchain {
      inputError(
        "the thresholds were recorded with '\(thresholds.toolchain)', the result with "
          + "'\(result.environment.toolchain)'")
    }
    if result.environment.build.configuration != "release" && !allowDebug {
      inputError("the result comes from a \(result.environment.build.configuration) build")
    }
    if result.settings.regionsInOwnProcesses != true {
      inputError(
        "the result's counts were taken in one process for all regions (an older cog-bench), "
          + "so they depend on what ran before them; measure again")
    }
    for r in result.results where !r.checks.passed && scope.includes(system: r.system) {
      inputError(
        "\(r.id): case checks failed: \(r.checks.failures.prefix(3).joined(separator: "; "))")
    }
    let byID = Dictionary(result.results.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for key in thresholds.values.keys.sorted() {
      let limit = thresholds.values[key]!
      guard let (id, metricName) = ThresholdFile.split(key), let m = Metric(rawValue: metricName)
      else {
        inputError("malformed threshold key '\(key)'")
        continue
      }
      guard scope.includes(id: id, metric: m) else { continue }
      guard let r = byID[id] else {
        coverageError("\(key): the result has no \(id)")
        continue
      }
      if let na = r.notApplicable {
        coverageError("\(key): \(id) is not applicable in the result (\(na))")
        continue
      }
      guard let v = r.value(m) else {
        coverageError("\(key): the result did not measure \(m.rawValue)")
        continue
      }
      guard let value = v.value else {
        inputError("\(key): unavailable in the result (\(v.unavailable ?? "no value"))")
        continue
      }
      report.checked += 1
      switch thresholds.verdict(value, threshold: limit, key: key, metric: m) {
      case .within: break
      case .regression:
        report.regressions += 1
        report.lines.append(
          "REGRESSION \(key): \(value) > threshold \(limit)\(percent(value, limit))")
      case .improvement:
        report.improvements += 1
        report.lines.append(
          "IMPROVEMENT \(key): \(value) < threshold \(limit)\(percent(value, limit))")
      }
    }
    for r in result.results where r.notApplicable == nil {
      for m in Metric.allCases where m.isDeterministic && scope.includes(id: r.id, metric: m) {
        if r.value(m)?.value != nil, thresholds.values[ThresholdFile.key(r.id, m)] == nil {
          coverageError("\(ThresholdFile.key(r.id, m)): no committed threshold")
        }
      }
    }
    return report
  }

  /// ` (+1.25%)`, or nothing for a zero threshold.
  static func percent(_ value: Int, _ limit: Int) -> String {
    guard limit != 0 else { return "" }
    let delta = value - limit
    return " (\(delta > 0 ? "+" : "")\(fixed(Double(delta) * 100 / Double(limit), 2))%)"
  }
}

/// The systems and metrics a check (or a merge of thresholds) covers; nil: all.
struct CheckScope {
  var systems: Selector?
  var metrics: [Metric]?

  func includes(system: String) -> Bool { systems?.matches(system) ?? true }

  /// Whether the count `metric` of result `id` (`case@system`) is compared: its system and
  /// metric are selected, and its case does not declare the metric variable
  /// (`CaseDescription.variableMetrics`: counts that include other threads' work).
  @MainActor
  func includes(id: String, metric: Metric) -> Bool {
    let system = id.split(separator: "@").last.map(String.init) ?? id
    let caseID = id.split(separator: "@").first.map(String.init) ?? id
    if CheckScope.variableMetrics[caseID]?.contains(metric.rawValue) == true { return false }
    return includes(system: system) && (metrics?.contains(metric) ?? true)
  }

  /// Each case's variable metrics, from the registry.
  @MainActor static let variableMetrics: [String: Set<String>] = Dictionary(
    CaseCatalog.all.filter { !$0.variableMetrics.isEmpty }.map {
      ($0.id, $0.variableMetrics)
    }, uniquingKeysWith: { a, _ in a })
}
