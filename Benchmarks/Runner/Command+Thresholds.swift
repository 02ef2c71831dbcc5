import Foundation

@MainActor
enum ThresholdsCommand {
  static let spec = CommandSpec(
    "thresholds update <result.json>", summary: "write the thresholds file from a result file",
    maxPositionals: 2,
    about: """
      Rewrites the thresholds file for the result's size from every deterministic count of the
      result (within --systems and --metrics when given), keeping the file's tolerances, and
      prints every threshold it adds (+), removes (-) and changes (~). Commit the file after
      reviewing that list; its diff is one line per number.
      """,
    options: [
      OptionSpec(
        "thresholds", "PATH", "the thresholds file (default Results/thresholds/<size>.json)"),
      OptionSpec("systems", "GLOBS", "only the counts of these systems"),
      OptionSpec("metrics", "GLOBS", "only the counts of these metrics"),
      OptionSpec(
        "merge",
        "updates the counts a partial result has and keeps every other threshold"
      ),
      OptionSpec(
        "accept-regressions",
        "writes counts above their thresholds too (a regression accepted on purpose)"
      ),
      OptionSpec(
        "allow-dirty",
        "accepts a result from a working tree whose measured code differs from its commit"
      ),
      OptionSpec("allow-debug", "accepts a result from a debug build (plumbing tests only)"),
      OptionSpec("dry-run", "prints the changes and writes nothing"),
    ],
    notes: """
      It refuses, writing nothing:
        - a partial result: one that did not measure every case, or that lacks a system or
          metric the file has thresholds for, or whose count is unavailable where the file has
          one (unless --merge);
        - a count above its threshold (beyond the tolerance) unless --accept-regressions: an
          update ratchets improvements, a regression is accepted only on purpose;
        - a result from a working tree whose measured code (Package.swift, Sources, Layouts,
          Benchmarks) differs from its commit, unless --allow-dirty;
        - results whose case checks failed, debug builds (unless --allow-debug), builds with
          COG_INTERNAL_CHECKS, results with an injected regression, negative counts, and a
          corrupt thresholds file (repair or restore it: git checkout -- PATH).
      Exit: 0 written (or nothing to change), 1 refused or error.
      """)

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") || a.positionals.first != "update" {
      print(spec.help)
      return a.has("help") ? .ok : .failure
    }
    guard a.positionals.count == 2 else {
      throw BenchError("thresholds update needs exactly one result file")
    }
    let resultPath = a.positionals[1]
    let result = try ResultFile.read(resultPath)
    try refuseUnfit(
      result, resultPath, allowDirty: a.has("allow-dirty"), allowDebug: a.has("allow-debug"))
    let path = a["thresholds"] ?? ThresholdFile.defaultPath(for: result.size)
    let scope = try CheckScope.parse(
      systems: a["systems"], metrics: a["metrics"], in: result, path: resultPath)
    var previous: ThresholdFile?
    if FileManager.default.fileExists(atPath: path) { previous = try ThresholdFile.read(path) }
    if let previous, previous.size != result.size {
      throw BenchError(
        "\(path) holds \(previous.size.rawValue) thresholds, \(resultPath) is a \(result.size.rawValue) run"
      )
    }
    let plan = try ThresholdUpdate.plan(
      result, previous: previous, scope: scope, merge: a.has("merge"))
    for line in plan.lines { print(line) }
    var refusals: [String] = []
    if !plan.partial.isEmpty {
      refusals.append(
        "\(resultPath) is partial: \(plan.partial.count) threshold(s) would be lost ("
          + plan.partial.prefix(3).joined(separator: "; ")
          + (plan.partial.count > 3 ? "; …" : "")
          + "); measure the whole suite (scripts/ci-gate.sh), or pass --merge to update only "
          + "what it measured")
    }
    if !plan.raised.isEmpty && !a.has("accept-regressions") {
      refusals.append(
        "\(plan.raised.count) threshold(s) would rise (regressions: "
          + plan.raised.prefix(3).joined(separator: "; ") + (plan.raised.count > 3 ? "; …" : "")
          + "); fix them, or pass --accept-regressions to record them on purpose")
    }
    if !refusals.isEmpty {
      throw BenchError(refusals.joined(separator: "; ") + "; nothing written")
    }
    let updated = plan.file
    if updated.values.isEmpty {
      throw BenchError("\(resultPath) has no deterministic counts to record; nothing written")
    }
    let summary =
      "\(updated.values.count) thresholds (\(plan.added) added, \(plan.removed) removed, "
      + "\(plan.changed) changed)"
    if a.has("dry-run") {
      print("dry run: \(path) would hold \(summary); nothing written")
      return .ok
    }
    if let previous, plan.added + plan.removed + plan.changed == 0,
      previous.toolchain == updated.toolchain,
      previous.allocationCounter == updated.allocationCounter
    {
      print("\(path) already holds these \(updated.values.count) thresholds; nothing written")
      return .ok
    }
    try FileOutput.replace(try updated.encoded(), at: path)
    print("wrote \(path): \(summary)")
    return .ok
  }

  /// Results whose numbers must never become thresholds.
  static func refuseUnfit(
    _ result: ResultFile, _ path: String, allowDirty: Bool, allowDebug: Bool
  ) throws {
    let failed = result.results.filter { !$0.checks.passed }
    if !failed.isEmpty {
      throw BenchError(
        "\(path): \(failed.count) case × system result(s) failed their checks; "
          + "not recording thresholds from it")
    }
    if result.environment.build.configuration != "release" && !allowDebug {
      throw BenchError("\(path) comes from a debug build; thresholds need a release build")
    }
    for define in ["COG_INTERNAL_CHECKS", BuildFacts.noDiagnosticsDefine]
    where result.environment.build.defines.contains(define) {
      throw BenchError("\(path) comes from a build with \(define)")
    }
    if result.environment.git.dirty && !allowDirty {
      let files = result.environment.git.changedFiles ?? []
      throw BenchError(
        "\(path) was measured on a working tree whose measured code differs from commit "
          + "\(result.environment.git.commit.prefix(10))"
          + (files.isEmpty ? "" : " (\(files.prefix(3).joined(separator: ", ")))")
          + "; commit and measure again, or pass --allow-dirty")
    }
    if let injection = result.settings.injection,
      injection != InjectedSystem.Injection.none.rawValue
    {
      throw BenchError("\(path) measured an injected regression (\(injection)); not recording it")
    }
    if result.settings.regionsInOwnProcesses != true {
      throw BenchError(
        "\(path) was counted by an older cog-bench in one process for all regions; measure again")
    }
  }
}

/// What `thresholds update` would change, computed before anything is written.
@MainActor
struct ThresholdUpdate {
  var file: ThresholdFile
  var lines: [String] = []
  /// Thresholds the result cannot replace: not selected, or unavailable in it.
  var partial: [String] = []
  /// Thresholds that would rise beyond their tolerance.
  var raised: [String] = []
  var added = 0
  var removed = 0
  var changed = 0

  static func plan(
    _ result: ResultFile, previous: ThresholdFile?, scope: CheckScope, merge: Bool
  ) throws -> ThresholdUpdate {
    var measured: [String: Int] = [:]
    var unavailable: [String: String] = [:]
    var notApplicable: [String: String] = [:]
    var present: Set<String> = []
    for r in result.results {
      if let na = r.notApplicable {
        notApplicable[r.id] = na
        continue
      }
      present.insert(r.id)
      for m in Metric.allCases where m.isDeterministic && scope.includes(id: r.id, metric: m) {
        guard let v = r.value(m) else { continue }
        if let n = v.value {
          if n < 0 {
            throw BenchError("\(r.id) \(m.rawValue) is negative (\(n)); nothing written")
          }
          measured[ThresholdFile.key(r.id, m)] = n
        } else if let reason = v.unavailable {
          unavailable[ThresholdFile.key(r.id, m)] = reason
        }
      }
    }
    let selectedCases = Set(result.settings.cases ?? result.results.map { $0.caseID })
    let selectedSystems = Set(result.settings.systems)
    let selectedMetrics = Set(result.settings.metrics)
    let knownCases = Set(CaseCatalog.all.map { $0.id })
    let old = previous?.values ?? [:]
    var values = merge ? old : [:]
    var update = ThresholdUpdate(
      file: ThresholdFile(
        schema: ThresholdFile.currentSchema, size: result.size,
        toolchain: result.environment.toolchain,
        allocationCounter: result.environment.build.allocationCounter,
        tolerance: previous?.tolerance ?? ThresholdFile.defaultTolerance,
        toleranceOverrides: previous?.toleranceOverrides, values: [:]))

    // The suite must be whole, unless merging.
    if !merge {
      let systemsInScope = selectedSystems.filter { scope.includes(system: $0) }
      for c in knownCases.subtracting(selectedCases).sorted() where !systemsInScope.isEmpty {
        update.partial.append("case \(c) not measured")
      }
    }
    for key in old.keys.sorted() where measured[key] == nil {
      guard let (id, metricName) = ThresholdFile.split(key), let m = Metric(rawValue: metricName)
      else { continue }
      let parts = id.split(separator: "@", maxSplits: 1).map(String.init)
      let (caseID, system) = (parts[0], parts.count > 1 ? parts[1] : "")
      let why: String?
      if !scope.includes(id: id, metric: m) {
        why = nil  // outside --systems/--metrics: kept
        values[key] = old[key]
      } else if !knownCases.contains(caseID) {
        why = "the case no longer exists"
      } else if SystemCatalog.entry(system) == nil {
        why = "the system no longer exists"
      } else if let na = notApplicable[id] {
        why = "not applicable: \(na)"
      } else if !selectedCases.contains(caseID) || !selectedSystems.contains(system)
        || !selectedMetrics.contains(m) || !present.contains(id)
      {
        if !merge { update.partial.append("\(key) not measured") }
        continue
      } else if let reason = unavailable[key] {
        if !merge { update.partial.append("\(key) unavailable: \(reason)") }
        continue
      } else {
        why = "not in the result"
      }
      if let why, !merge {
        update.lines.append("- \(key) (was \(old[key]!)): \(why)")
        update.removed += 1
      }
    }
    for key in measured.keys.sorted() {
      let value = measured[key]!
      values[key] = value
      guard let was = old[key] else {
        update.lines.append("+ \(key) \(value)")
        update.added += 1
        continue
      }
      guard was != value else { continue }
      update.changed += 1
      let m = ThresholdFile.split(key).flatMap { Metric(rawValue: $0.metric) } ?? .allocations
      let rise = update.file.verdict(value, threshold: was, key: key, metric: m) == .regression
      if rise { update.raised.append("\(key) \(was) → \(value)") }
      update.lines.append(
        "~ \(key) \(was) → \(value)\(CheckCommand.percent(value, was))"
          + (rise ? " REGRESSION" : ""))
    }
    update.file.values = values
    if let overrides = update.file.toleranceOverrides {
      let kept = overrides.filter { values[$0.key] != nil }
      for key in overrides.keys.sorted() where kept[key] == nil {
        update.lines.append("- tolerance override of \(key) (its threshold is gone)")
      }
      update.file.toleranceOverrides = kept.isEmpty ? nil : kept
    }
    return update
  }
}
