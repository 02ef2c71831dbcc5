import Foundation

@MainActor
enum CheckCommand {
  static let spec = CommandSpec(
    "check <result.json>", summary: "compare a result file with committed thresholds",
    maxPositionals: 1,
    about: """
      Compares the result's gated counts with the committed thresholds and fails both ways: a
      count above its threshold is a regression, one below it is an improvement that must be
      committed (ratcheted) with `cog-bench thresholds update`.
      """,
    options: [
      OptionSpec(
        "thresholds", "PATH", "the thresholds file (default Results/thresholds/<size>.json)"),
      OptionSpec(
        "systems", "GLOBS",
        "compare only these systems, on both sides: the thresholds of other systems are not required. Default: what the gate gates, 'cog*'. Every pattern must match a system the result measured, and something must be checked: an empty selection is an error."
      ),
      OptionSpec(
        "metrics", "GLOBS",
        "compare only these metrics (as --systems). Default: the metrics of `cog-bench list --gate-metrics`."
      ),
      OptionSpec(
        "enforce-targets",
        "a steady-state target its case declares (no allocations, no retains/releases in steady iterations) that Cog misses, on any of its layouts (cog, cog[<edges>+<keys>]), is a regression too; the baselines' misses are reported, not gated"
      ),
      OptionSpec("allow-debug", "accepts a result from a debug build (plumbing tests only)"),
    ],
    notes: """
      A partial result (a run of some cases, systems or metrics) is checked on what it
      measured only; the thresholds outside it are counted and not required.
      Errors (exit 1): a selection that matches nothing, a missing or corrupt thresholds file,
      a result from another size, toolchain or allocation counter, a debug build, a case whose
      checks failed, a threshold for a count the result lacks, a count without threshold.
      A failing check prints a roll-up first (regions regressed or improved, the worst change
      per metric), then one line per count (and the roll-up again after more than 20), then
      the verdict with the commands to run, which work when pasted.
      Exit: 0 equal within tolerance, 1 error, 2 regression or missed target (whatever else
      improved), 4 improvements only.
      """)

  /// What the gate gates when `--systems` is not given: Cog and its layouts.
  static let gatedSystems = "cog*"

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    guard a.positionals.count == 1 else {
      throw BenchError("check needs exactly one result file (see cog-bench check --help)")
    }
    let resultPath = a.positionals[0]
    let result = try ResultFile.read(resultPath)
    var scope = try CheckScope.parse(
      systems: a["systems"], metrics: a["metrics"], in: result, path: resultPath)
    if a["systems"] == nil { scope.systems = Selector(gatedSystems) }
    if a["metrics"] == nil { scope.metrics = Metric.gated }
    let systemsText = a["systems"] ?? gatedSystems
    // The default as the result measured it, so that the update command accepts it.
    let metricsText =
      a["metrics"]
      ?? Metric.gated.filter { result.settings.metrics.contains($0) }.map { $0.rawValue }
      .joined(separator: ",")
    let path = a["thresholds"] ?? ThresholdFile.defaultPath(for: result.size)
    // The update command as it works when pasted: the same scope, --merge for a partial
    // result, and the flags the result needs to be accepted at all.
    var update = [
      CogBench.invocation, "thresholds", "update", shellQuoted(resultPath), "--thresholds",
      shellQuoted(path), "--systems", shellQuoted(systemsText), "--metrics",
      shellQuoted(metricsText),
    ]
    if result.environment.git.dirty { update.append("--allow-dirty") }
    if a.has("allow-debug") { update.append("--allow-debug") }
    // A missing file may be created from the result; a corrupt one must be repaired or
    // restored, not overwritten from whatever result is at hand.
    if !FileManager.default.fileExists(atPath: path) {
      throw BenchError(
        "thresholds file \(path) does not exist; to create it from this result: "
          + update.joined(separator: " "))
    }
    let thresholds = try ThresholdFile.read(path)
    var report = compare(
      result, thresholds, scope: scope, allowDebug: a.has("allow-debug"))
    if a.has("enforce-targets") {
      for r in result.results
      where SystemCatalog.runsCog(r.system) && scope.includes(system: r.system) {
        for miss in r.steadyStateMisses ?? [] {
          report.regressions += 1
          report.changes.append(.init(id: r.id, metric: "steady-state target", miss: miss))
          report.lines.append("REGRESSION \(r.id): steady-state \(miss)")
        }
      }
    }
    if report.checked == 0 && report.inputErrors + report.coverageErrors == 0 {
      throw BenchError(
        "checked 0 counts: systems '\(systemsText)' and metrics '\(metricsText)' select no "
          + "count of \(resultPath) that has a threshold in \(path); nothing was gated")
    }
    // The roll-up before the detail, and again after a long one, where a log's tail shows it.
    let rollUp = report.rollUp()
    for line in rollUp { print(line) }
    for line in report.lines { print(line) }
    if report.lines.count > 20 { for line in rollUp { print(line) } }
    print(
      "checked \(report.checked) counts: \(report.regressions) regression(s), "
        + "\(report.improvements) improvement(s), "
        + "\(report.inputErrors + report.coverageErrors) error(s)")
    if report.outside > 0 {
      update.append("--merge")
      print(
        "a partial result (\(result.partialReason() ?? "not every region")): checked on its "
          + "own regions only; \(report.outside) threshold(s) outside it were not checked")
    }
    if result.environment.git.dirty {
      print(
        "\(resultPath) was measured on a working tree whose measured code differs from its "
          + "commit: thresholds should come from a committed tree (commit, measure again)")
    }
    let command = update.joined(separator: " ")
    if report.inputErrors > 0 {
      print("the result cannot be compared with these thresholds: fix the errors above")
      return .failure
    }
    if report.coverageErrors > 0 {
      print(
        "the result and the thresholds cover different counts (a case, system or metric was "
          + "added or removed); after review, record the new coverage with: \(command)")
      return .failure
    }
    if report.regressions > 0 {
      // Where to start, as a command that runs: the worst instruction regression's
      // differential profile (threshold's commit → now), else the worst region's profile.
      let regressions = report.changes.filter { $0.isRegression }
      let instructions = regressions.filter {
        $0.metric == Metric.instructions.rawValue && $0.miss == nil
      }
      let worst = (instructions.isEmpty ? regressions : instructions).max { $0.rank < $1.rank }
      let parts = (worst?.id ?? "").split(separator: "@", maxSplits: 1).map(String.init)
      if parts.count == 2 {
        let region = "\(shellQuoted(parts[0])) --system \(shellQuoted(parts[1]))"
        print(
          instructions.isEmpty
            ? "find its cause, starting with the worst region: \(CogBench.invocation) profile "
              + region
            : "find its cause, starting with the worst instruction regression (by function, "
              + "the threshold's commit against now): \(CogBench.invocation) attribute \(region)"
              + (result.size == .quick ? "" : " --size \(result.size.rawValue)")
              + (a["thresholds"] == nil ? "" : " --thresholds \(shellQuoted(path))"))
      }
      print(
        "a regression is fixed, not ratcheted; if it is intended, record it after review "
          + "with: \(command) --accept-regressions")
      return .regression
    }
    if report.improvements > 0 {
      print("improvements must be ratcheted into the committed thresholds: \(command)")
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
    /// Thresholds of regions or metrics a partial result did not select: not checked.
    var outside = 0
    /// Every regression and improvement, for the roll-up.
    var changes: [Change] = []

    struct Change {
      var id: String
      var metric: String
      var value = 0
      var limit = 0
      /// A missed steady-state target (a regression without a threshold).
      var miss: String?

      var isRegression: Bool { miss != nil || value > limit }
      /// The relative change; a change from a zero threshold ranks above every relative one.
      var rank: Double {
        limit == 0 ? .infinity : Double(abs(value - limit)) / Double(limit)
      }
      var text: String {
        if let miss { return "\(id): \(miss)" }
        let delta = value - limit
        let change =
          limit == 0
          ? "\(delta > 0 ? "+" : "")\(delta)"
          : "\(delta > 0 ? "+" : "")\(fixed(Double(delta) * 100 / Double(limit), 2))%"
        return "\(change) (\(id): \(value) \(delta > 0 ? ">" : "<") \(limit))"
      }
    }

    /// The regions that regressed (or improved) and the worst change per metric, so a
    /// failing gate can be read before its hundreds of detail lines.
    func rollUp() -> [String] {
      var out: [String] = []
      for regression in [true, false] {
        let picked = changes.filter { $0.isRegression == regression }
        if picked.isEmpty { continue }
        var regions: [String] = []
        for c in picked where !regions.contains(c.id) { regions.append(c.id) }
        let verb = regression ? "regressed" : "improved"
        out.append(
          "\(regions.count) region\(regions.count == 1 ? "" : "s") \(verb): "
            + regions.prefix(10).joined(separator: ", ")
            + (regions.count > 10 ? ", and \(regions.count - 10) more" : ""))
        var worst: [String: Change] = [:]
        var order: [String] = []
        for c in picked {
          guard let w = worst[c.metric] else {
            worst[c.metric] = c
            order.append(c.metric)
            continue
          }
          if (c.rank, abs(c.value - c.limit)) > (w.rank, abs(w.value - w.limit)) {
            worst[c.metric] = c
          }
        }
        out.append(
          "  \(regression ? "worst" : "largest") change per metric: "
            + order.map { "\($0) \(worst[$0]!.text)" }.joined(separator: "; "))
      }
      return out
    }
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
    // What the run selected: a threshold of an existing case or system it did not select, or
    // of a metric it did not measure, is outside a partial result (not a missing count).
    let selectedCases = result.settings.cases.map { Set($0) }
    let selectedSystems = Set(result.settings.systems)
    let selectedMetrics = Set(result.settings.metrics)
    let knownCases = Set(CaseCatalog.all.map { $0.id })
    for key in thresholds.values.keys.sorted() {
      let limit = thresholds.values[key]!
      guard let (id, metricName) = ThresholdFile.split(key), let m = Metric(rawValue: metricName)
      else {
        inputError("malformed threshold key '\(key)'")
        continue
      }
      guard scope.includes(id: id, metric: m) else { continue }
      let parts = id.split(separator: "@", maxSplits: 1).map(String.init)
      let (caseID, system) = (parts[0], parts.count > 1 ? parts[1] : "")
      if (knownCases.contains(caseID) && selectedCases.map({ !$0.contains(caseID) }) == true)
        || (SystemCatalog.entry(system) != nil && !selectedSystems.contains(system))
        || !selectedMetrics.contains(m)
      {
        report.outside += 1
        continue
      }
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
        report.changes.append(.init(id: id, metric: m.rawValue, value: value, limit: limit))
        report.lines.append(
          "REGRESSION \(key): \(value) > threshold \(limit)\(percent(value, limit))")
      case .improvement:
        report.improvements += 1
        report.changes.append(.init(id: id, metric: m.rawValue, value: value, limit: limit))
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

  /// `--systems` and `--metrics` over the result at `path` (nil: all), each pattern required
  /// to match a system of the result or a count it measured: a pattern that matches nothing
  /// is a typo or the wrong result, never an empty check.
  @MainActor
  static func parse(systems: String?, metrics: String?, in result: ResultFile, path: String)
    throws -> CheckScope
  {
    var scope = CheckScope()
    if let systems {
      let selector = try Selector.parse(systems, option: "systems")
      var measured: [String] = []
      for r in result.results where !measured.contains(r.system) { measured.append(r.system) }
      let unmatched = selector.unmatched(in: measured)
      if !unmatched.isEmpty {
        throw BenchError(
          "--systems: \(unmatched.joined(separator: ", ")) matches no system of \(path) "
            + "(it has \(measured.joined(separator: ", ")))")
      }
      scope.systems = selector
    }
    if let metrics {
      let selector = try Selector.parse(metrics, option: "metrics")
      _ = try Selection.metrics(metrics)  // unknown names: the error that lists the metrics
      let counts = Metric.allCases.filter { m in
        m.isDeterministic && result.settings.metrics.contains(m)
      }.map { $0.rawValue }
      let unmatched = selector.unmatched(in: counts)
      if !unmatched.isEmpty {
        throw BenchError(
          "--metrics: \(unmatched.joined(separator: ", ")) matches no count \(path) measured "
            + "(its counts: \(counts.joined(separator: ", ")); times are never compared)")
      }
      scope.metrics = Metric.allCases.filter { $0.isDeterministic && selector.matches($0.rawValue) }
    }
    return scope
  }

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
