import CogBenchCases
import Foundation

/// The record's first screen: the headline goals with what was measured and whether each is
/// met, the M6 comparison, the trend since the previous record, and links to the detail. It
/// only restates figures the sections below derive from the same result file.
extension PerfMarkdown {
  static func summarySection(
    _ current: [(String, ResultFile)], previous: [(String, ResultFile)],
    m6: (String, ResultFile)?, memory: (String, MemoryFile)? = nil
  ) -> [String] {
    var md: [String] = ["## Summary", ""]
    for (path, file) in current {
      let failed = file.results.filter { !$0.checks.passed }.count
      md.append(
        "From `\(path)` (`\(file.size.rawValue)`, commit "
          + "\(file.environment.git.commit.prefix(12))"
          + "\(file.environment.git.dirty ? " (dirty)" : ""), \(file.date)).")
      md.append("")
      md.append("| goal | measured | verdict |")
      md.append("|---|---|---|")
      for goal in goals(file, failedChecks: failed) {
        md.append("| \(goal.name) | \(escape(goal.measured)) | \(goal.verdict) |")
      }
      md.append("")
      if let (previousPath, before) = previous.first(where: { $0.1.size == file.size }) {
        md.append(trend(file, since: before, previousPath))
        md.append("")
      }
    }
    if let (path, file) = m6 {
      md.append(
        "M6 comparison of the edge and reference layouts: `\(path)` (commit "
          + "\(file.environment.git.commit.prefix(12))), in "
          + "[M6 comparison](#m6-comparison-edge-and-reference-layouts); the decision and its "
          + "reasons in [Decisions](#decisions-trade-offs-and-withdrawals) (\"M6\").")
      md.append("")
    }
    if let (path, file) = memory {
      md.append(memorySummary(path, file))
      md.append("")
    }
    var families: [String] = []
    for (_, file) in current {
      for f in Set(file.results.map { $0.family }).sorted() {
        families.append("[\(f)](#\(f)-\(file.size.rawValue))")
      }
    }
    md.append(
      "Detail below: [environment](#environment), "
        + "[per recomputed node](#instructions-per-recomputed-node), "
        + "[creation](#creation-per-row), [growth](#growth-with-graph-size), "
        + "[bytes per row](#bytes-per-row-and-per-edge), the families ("
        + families.joined(separator: ", ") + "), "
        + current.map { "[history](#history-\($0.1.size.rawValue))" }.joined(separator: ", ")
        + ", [gate power](#gate-power), "
        + "[profiles](#profiler-attribution), "
        + "[gaps](#gaps-in-the-measurements), [decisions](#decisions-trade-offs-and-withdrawals). "
        + "Older runs: `impl/perf-history.md`.")
    md.append("")
    return md
  }

  struct Goal {
    var name: String
    var measured: String
    var verdict: String
  }

  static func verdict(_ met: Bool?) -> String {
    guard let met else { return "unavailable" }
    return met ? "met" : "**not met**"
  }

  /// The goals the sections below judge, for one result file.
  static func goals(_ file: ResultFile, failedChecks: Int) -> [Goal] {
    var goals: [Goal] = []
    let cogResults = file.results.filter {
      SystemCatalog.runsCog($0.system) && $0.notApplicable == nil
    }

    // Instructions per recomputed row on deepPropagation (the mission's unit).
    let target = perNodeTarget
    var perNode = Goal(
      name:
        "instructions per recomputed row, `\(target.caseID)` on `cog` (≤ \(target.instructions))",
      measured: "not measured", verdict: verdict(nil))
    if let r = file.result(target.caseID, SystemCatalog.referenceID),
      let rows = r.recomputesPerIteration
    {
      if let ir = r.value(.instructions)?.value {
        let value = Double(ir) / Double(rows * max(r.iterationsPerSample, 1))
        perNode.measured = fixed(value, 0)
        perNode.verdict = verdict(value <= Double(target.instructions))
      } else {
        perNode.measured = "unavailable"
      }
    }
    goals.append(perNode)

    // Allocations per created row (issue 13), on Cog and its layouts.
    var creation = Goal(
      name: "allocations per created row, Cog and its layouts (≤ 1 per manual cog, ≤ 2 per "
        + "automatic cog or reaction)", measured: "no creation case", verdict: verdict(nil))
    var judged = 0
    var missed: [String] = []
    var worst: (ratio: Double, text: String)?
    for r in cogResults {
      guard let n = r.createdRowsPerIteration, let kind = r.createdRowKind,
        let v = r.value(.allocations)?.value
      else { continue }
      judged += 1
      let perRow = Double(v) / Double(n * max(r.iterationsPerSample, 1))
      let ratio = perRow / Double(kind.allocationTarget)
      if ratio > 1 { missed.append(r.id) }
      if worst == nil || ratio > worst!.ratio {
        worst = (ratio, "\(fixed(perRow, 3)) of ≤ \(kind.allocationTarget) (`\(r.id)`)")
      }
    }
    if let worst {
      creation.measured = "\(judged - missed.count) of \(judged) met; highest \(worst.text)"
      creation.verdict = verdict(missed.isEmpty)
    }
    goals.append(creation)

    // Steady-state targets the cases declare, on Cog and its layouts.
    let misses = cogResults.flatMap { r in (r.steadyStateMisses ?? []).map { _ in r.id } }
    goals.append(
      Goal(
        name: "steady state: no allocations, retains or releases where a case declares it, "
          + "Cog and its layouts",
        measured: misses.isEmpty
          ? "no miss in \(cogResults.count) regions"
          : "\(misses.count) miss(es): "
            + misses.prefix(3).map { "`\($0)`" }.joined(separator: ", "),
        verdict: verdict(misses.isEmpty)))

    // Wall time per cell flat with graph size (CellX), on `cog`.
    var growth = Goal(
      name: "wall time per cell flat with graph size, CellX \(growthCases.last!) ÷ "
        + "\(growthCases.first!) layers on `cog` (≤ \(fixed(growthGoal, 2))×)",
      measured: "not measured", verdict: verdict(nil))
    func perCell(_ layers: Int, fastest: Bool) -> Double? {
      let v = file.result("cellx/\(layers)", SystemCatalog.referenceID)?.value(.wallTime)
      return (fastest ? v?.min : v?.median).map { $0 / Double(layers) }
    }
    let ratios = [false, true].compactMap { fastest -> Double? in
      guard let big = perCell(growthCases.last!, fastest: fastest),
        let small = perCell(growthCases.first!, fastest: fastest), small > 0
      else { return nil }
      return big / small
    }
    if ratios.count == 2 {
      growth.measured = "\(fixed(ratios[0], 2))× (medians), \(fixed(ratios[1], 2))× (fastest)"
      growth.verdict = verdict(ratios.allSatisfy { $0 <= growthGoal })
    }
    goals.append(growth)

    // L2 misses per cell flat with graph size (CellX, issue 25), on `cog`: judged only where
    // the simulated last level is the L2.
    var l2 = Goal(
      name: "L2 misses per cell flat with graph size, CellX \(growthCases.last!) ÷ "
        + "\(growthCases.first!) layers on `cog` (≤ \(fixed(l2Goal, 2))×, simulated 1 MiB last "
        + "level)", measured: "not measured", verdict: verdict(nil))
    if let ratio = l2Ratio(file, SystemCatalog.referenceID) {
      l2.measured = "\(fixed(ratio, 2))×"
      l2.verdict = verdict(ratio <= l2Goal)
    } else if let size = simulatedLastLevel(file), size != l2Bytes {
      l2.measured = "not measured: this run's simulated last level is \(size / 1024) KiB"
    }
    goals.append(l2)

    // Bytes per row and per edge of the shipped layouts (issue 13).
    var storage = Goal(
      name: "bytes per row (≤ \(rowBytesGoal)) and per edge (≤ \(fixed(edgeBytesGoal, 0))), "
        + "`cog`", measured: "not recorded", verdict: verdict(nil))
    if let f = file.storage?[SystemCatalog.referenceID] {
      let edge = max(f.bytesPerEdgeAt2, f.bytesPerEdgeAt4)
      storage.measured = "\(f.bytesPerRow) per row, \(fixed(edge, 1)) per edge"
      storage.verdict = verdict(f.bytesPerRow <= rowBytesGoal && edge <= edgeBytesGoal)
    }
    goals.append(storage)

    // The object-graph model stands for swift-state-graph only when it is within tolerance.
    if file.results.contains(where: { $0.system == StateGraphReference.modelID }) {
      let fidelity = ModelFidelity(file)
      let within = "within \(fixed(StateGraphReference.tolerance, 1))×"
      let (measured, v): (String, String) =
        switch fidelity.verdict {
        case .faithful: ("every `sinks/*` shape \(within)", verdict(true))
        case .lowerBound(let factor):
          ("swift-state-graph up to \(fixed(factor, 2))× the model", verdict(false))
        case .upperBound(let factor):
          ("the model up to \(fixed(factor, 2))× swift-state-graph", verdict(false))
        case .neither(let low, let high):
          ("\(fixed(low, 2))× to \(fixed(high, 2))×", verdict(false))
        case .unverified(let why): (why, "unverified")
        }
      goals.append(
        Goal(
          name: "the object-graph model stands for swift-state-graph (\(within))",
          measured: measured, verdict: v))
    }

    goals.append(
      Goal(
        name: "case checks (every system's run counts and values)",
        measured: failedChecks == 0
          ? "all \(file.results.filter { $0.notApplicable == nil }.count) passed"
          : "\(failedChecks) failed",
        verdict: verdict(failedChecks == 0)))

    // Whether the gated counters were all taken: a gap here weakens every goal above.
    let measured = file.results.filter { $0.notApplicable == nil }
    var gaps: [String] = []
    for m in Metric.gated where file.settings.metrics.contains(m) {
      let missing = measured.filter { $0.value(m)?.value == nil }.count
      if missing > 0 { gaps.append("\(m.rawValue) missing in \(missing)") }
    }
    goals.append(
      Goal(
        name: "gated counters taken in every measured region (\(measured.count))",
        measured: gaps.isEmpty ? "all" : gaps.joined(separator: "; "),
        verdict: verdict(gaps.isEmpty)))
    return goals
  }

  /// One line: how Cog's counts and times moved since the previous complete run.
  static func trend(_ file: ResultFile, since before: ResultFile, _ path: String) -> String {
    let reference = SystemCatalog.referenceID
    let old = Dictionary(
      before.results.filter { $0.system == reference }.map { ($0.caseID, $0) },
      uniquingKeysWith: { a, _ in a })
    var irRatios: [Double] = []
    var wallRatios: [Double] = []
    var changed: [String: Int] = [:]
    var compared = 0
    for r in file.results where r.system == reference && r.notApplicable == nil {
      guard let o = old[r.caseID], o.notApplicable == nil else { continue }
      compared += 1
      if let a = r.value(.instructions)?.value, let b = o.value(.instructions)?.value, b > 0 {
        irRatios.append(Double(a) / Double(b))
      }
      if let a = r.value(.wallTime)?.median, let b = o.value(.wallTime)?.median, b > 0 {
        wallRatios.append(a / b)
      }
      for m in Metric.gated where m != .instructions {
        if let a = r.value(m)?.value, let b = o.value(m)?.value, a != b {
          changed[m.rawValue, default: 0] += 1
        }
      }
    }
    func geomean(_ x: [Double]) -> String {
      x.isEmpty ? "–" : fixed(exp(x.map { log($0) }.reduce(0, +) / Double(x.count)), 3) + "×"
    }
    let moved = changed.keys.sorted().map { "\($0) in \(changed[$0]!)" }
    var instructions = "instructions \(geomean(irRatios)) in geometric mean"
    if let now = file.instructionScope, let then = before.instructionScope, now != then {
      instructions =
        "instructions not compared (counted \(then.rawValue) there, \(now.rawValue) here: "
        + "impl/perf-notes.md, Stop 37)"
    }
    return "Since the previous record (`\(path)`, commit "
      + "\(before.environment.git.commit.prefix(12))), over the \(compared) regions of `cog` "
      + "both measured: \(instructions), median wall "
      + "time \(geomean(wallRatios)) (a shared machine: read the counts first); other gated "
      + "counts changed: \(moved.isEmpty ? "none" : moved.joined(separator: ", ")). Per "
      + "commit: `impl/perf-history.md`."
  }
}
