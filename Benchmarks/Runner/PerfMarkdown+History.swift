import CogBenchCases
import Foundation

/// The record's "History": `cog`'s gated counts at each commit the committed result files
/// measured, oldest first, and the changes beyond the gate's tolerance, each attributed to the
/// commit first measured with it. Built only from result files (`Results/runs`).
extension PerfMarkdown {
  /// The gated counts the history follows (graph bytes and peak bytes are gated too, but
  /// older files lack them).
  static let historyMetrics: [Metric] = [
    .instructions, .allocations, .allocatedBytes, .retains, .releases,
  ]

  /// The cases of the history table and chart: the goals' cases and one of each family.
  static let historyHeadlineCases = [
    "kairo/deep", "kairo/diamond", "kairo/broad", "cellx/1000", "cog/deep-api",
    "cog/steady-turn", "dynamic/25-1000x5", "sbench/createComputations/create1to1",
  ]

  /// One commit's measurements of `cog`: the values of its result files of one size, newer
  /// files winning, keyed by threshold key (`case@cog metric`).
  struct HistoryPoint {
    var commit: String
    /// The newest of the commit's result files.
    var date: String
    var files: [String]
    var values: [String: Int]
    /// What its instruction counts include (the newest file's).
    var instructionScope: InstructionScope? = nil
  }

  /// A change beyond the tolerance between two consecutive measured commits.
  struct HistoryChange {
    var caseID: String
    var metric: Metric
    var before: Int
    var after: Int
    var beforeCommit: String
    /// The commit first measured with the new value.
    var commit: String

    var percent: Double? {
      before == 0 ? nil : Double(after - before) * 100 / Double(before)
    }
    var text: String {
      let change =
        percent.map { ($0 > 0 ? "+" : "") + fixed($0, 2) + "%" }
        ?? "\(after > before ? "+" : "")\(after - before)"
      return "`\(caseID)` \(metric.rawValue) \(before) → \(after) (\(change))"
    }
    /// Larger relative changes first; a change from 0 first of all.
    var rank: Double { percent.map { abs($0) } ?? .infinity }
  }

  /// The points of `size`, oldest first: result files of clean trees only (a dirty run's
  /// measured code is no commit's), without the test-only system.
  static func historyPoints(_ files: [(String, ResultFile)], size: CaseSize) -> (
    points: [HistoryPoint], dirty: Int
  ) {
    let reference = SystemCatalog.referenceID
    var dirty = 0
    var byCommit: [String: HistoryPoint] = [:]
    let ordered = files.filter { $0.1.size == size }.sorted {
      ($0.1.date, $0.0) < ($1.1.date, $1.0)
    }
    for (path, file) in ordered {
      if file.settings.injection != nil { continue }
      if file.environment.git.dirty || file.environment.git.commit == "none" {
        dirty += 1
        continue
      }
      var point =
        byCommit[file.environment.git.commit]
        ?? HistoryPoint(
          commit: file.environment.git.commit, date: file.date, files: [], values: [:])
      for r in file.results where r.system == reference && r.notApplicable == nil {
        // Counts a case cannot repeat exactly (another thread's work) are not gated.
        for m in historyMetrics
        where CheckScope.variableMetrics[r.caseID]?.contains(m.rawValue) != true {
          if let v = r.value(m)?.value { point.values[ThresholdFile.key(r.id, m)] = v }
        }
      }
      point.date = max(point.date, file.date)
      point.instructionScope = file.instructionScope ?? point.instructionScope
      point.files.append(path)
      byCommit[file.environment.git.commit] = point
    }
    let points = byCommit.values.filter { !$0.values.isEmpty }.sorted {
      ($0.date, $0.commit) < ($1.date, $1.commit)
    }
    return (points, dirty)
  }

  /// Every change beyond the tolerance (the thresholds file's, or the defaults) between a
  /// value and the previous measured value of the same count, in commit order.
  static func historyChanges(_ points: [HistoryPoint], tolerances: ThresholdFile?)
    -> [HistoryChange]
  {
    var last: [String: (value: Int, commit: String, scope: InstructionScope?)] = [:]
    var changes: [HistoryChange] = []
    for point in points {
      for key in point.values.keys.sorted() {
        let value = point.values[key]!
        defer { last[key] = (value, point.commit, point.instructionScope) }
        guard let before = last[key], let (id, metricName) = ThresholdFile.split(key),
          let metric = Metric(rawValue: metricName)
        else { continue }
        // Counted another way: not a change of the code (`InstructionScope`).
        if metric == .instructions && before.scope != point.instructionScope { continue }
        let tolerance =
          tolerances?.tolerance(of: key, metric: metric)
          ?? ThresholdFile.defaultTolerance[metric.rawValue] ?? 0
        let slack = Int((Double(before.value) * tolerance).rounded(.up))
        guard abs(value - before.value) > slack else { continue }
        changes.append(
          HistoryChange(
            caseID: String(id.split(separator: "@", maxSplits: 1)[0]), metric: metric,
            before: before.value, after: value, beforeCommit: before.commit,
            commit: point.commit))
      }
    }
    return changes
  }

  static func historySection(
    _ files: [(String, ResultFile)], sizes: [CaseSize], tolerances: [CaseSize: ThresholdFile],
    chartsRelative: String, charts: inout [(String, Data)]
  ) -> [String] {
    var md: [String] = []
    for size in sizes {
      let (points, dirty) = historyPoints(files, size: size)
      md.append("## History (\(size.rawValue))")
      md.append("")
      guard !points.isEmpty else {
        md.append("No result file of a clean tree measured `\(SystemCatalog.referenceID)` yet.")
        md.append("")
        continue
      }
      let changes = historyChanges(points, tolerances: tolerances[size])
      let toleranceSource =
        tolerances[size] != nil
        ? "`Results/thresholds/\(size.rawValue).json`'s tolerances (its per-region overrides included)"
        : "the default tolerances"
      md.append(
        "`\(SystemCatalog.referenceID)`'s gated counts (\(historyMetrics.map { "`\($0.rawValue)`" }.joined(separator: ", "))) "
          + "at each commit the result files in `Results/runs` measured, oldest first "
          + "(\(points.count) commits; \(dirty) run(s) of a dirty tree left out: their code is "
          + "no commit's). A change beyond \(toleranceSource) is flagged and attributed to the "
          + "commit first measured with it; the commits between it and the one measured before "
          + "were not measured. `cog-bench attribute <case> --system cog --from <before> --to "
          + "<after>` explains one by function.")
      md.append("")
      for (p, q) in zip(points, points.dropFirst())
      where p.instructionScope != nil && q.instructionScope != nil
        && p.instructionScope != q.instructionScope
      {
        md.append(
          "Instruction counts from `\(q.commit.prefix(10))` on are \(q.instructionScope!.rawValue)"
            + ", before it \(p.instructionScope!.rawValue) (impl/perf-notes.md, Stop 37): the two "
            + "are not compared, and no change across it is flagged.")
        md.append("")
      }
      if let svg = historyChart(points, size: size) {
        let name = "\(size.rawValue)-history-instructions.svg"
        charts.append((name, Data(svg.utf8)))
        md.append(
          "![instructions of the headline cases at each commit, ÷ the newest](\(chartsRelative)/\(name))"
        )
        md.append("")
      }
      let cases = historyHeadlineCases.filter { c in
        points.contains {
          $0.values[ThresholdFile.key("\(c)@\(SystemCatalog.referenceID)", .instructions)] != nil
        }
      }
      md.append(
        "Instructions per sample of the headline cases; \"flagged\" counts the changes beyond the "
          + "tolerance first measured at the commit, over every case and gated metric.")
      md.append("")
      md.append(
        "| commit | date | " + cases.map { "`\($0)`" }.joined(separator: " | ") + " | flagged |")
      md.append("|---|---|" + cases.map { _ in "---:|" }.joined() + "---:|")
      for p in points {
        var row = "| `\(p.commit.prefix(10))` | \(p.date.prefix(10)) |"
        for c in cases {
          let v = p.values[ThresholdFile.key("\(c)@\(SystemCatalog.referenceID)", .instructions)]
          row += " \(v.map(String.init) ?? "–") |"
        }
        row += " \(changes.filter { $0.commit == p.commit }.count) |"
        md.append(row)
      }
      md.append("")
      if changes.isEmpty {
        md.append("No change beyond the tolerance.")
        md.append("")
        continue
      }
      md.append(
        "Flagged changes, by commit (rises ↑ and falls ↓; five shown, rises first, each the "
          + "largest relative change):")
      md.append("")
      for p in points {
        let here = changes.filter { $0.commit == p.commit }
        guard let first = here.first else { continue }
        let up = here.filter { $0.after > $0.before }.count
        // Regressions first: a reader of a gate's history looks for those.
        let shown = here.sorted {
          ($0.after > $0.before ? 1 : 0, $0.rank, $1.caseID)
            > ($1.after > $1.before ? 1 : 0, $1.rank, $0.caseID)
        }.prefix(5)
        md.append(
          "- `\(p.commit.prefix(10))` (\(p.date.prefix(10)), after `\(first.beforeCommit.prefix(10))`): "
            + "\(here.count) change(s), \(up) ↑ \(here.count - up) ↓: "
            + shown.map { $0.text }.joined(separator: "; ")
            + (here.count > shown.count ? "; and \(here.count - shown.count) more" : ""))
      }
      md.append("")
    }
    return md
  }

  /// A line per headline case: its instructions at each commit divided by its newest value,
  /// on a logarithmic axis centred on 1× (above 1× = more than now).
  static func historyChart(_ points: [HistoryPoint], size: CaseSize) -> String? {
    let ref = SystemCatalog.referenceID
    let cases = historyHeadlineCases.filter { c in
      points.contains { $0.values[ThresholdFile.key("\(c)@\(ref)", .instructions)] != nil }
    }
    var series: [(String, [(Int, Double)])] = []
    for c in cases {
      let key = ThresholdFile.key("\(c)@\(ref)", .instructions)
      guard let newest = points.last(where: { $0.values[key] != nil })?.values[key], newest > 0
      else { continue }
      let line = points.enumerated().compactMap { k, p -> (Int, Double)? in
        guard let v = p.values[key], v > 0 else { return nil }
        return (k, Double(v) / Double(newest))
      }
      series.append((c, line))
    }
    let values = series.flatMap { $0.1.map { $0.1 } }
    guard points.count >= 2, !values.isEmpty else { return nil }
    let axis = BarChart.Axis(values: values, centredOnOne: true)
    let left = 60.0
    let top = 34.0
    let plotWidth = 620.0
    let plotHeight = 260.0
    func x(_ k: Int) -> Double { left + Double(k) * plotWidth / Double(max(points.count - 1, 1)) }
    func y(_ v: Double) -> Double {
      top + plotHeight - (log10(v) - axis.low) / (axis.high - axis.low) * plotHeight
    }
    var body: [String] = []
    for t in axis.ticks {
      body.append(
        "<line x1=\"\(fixed(left, 1))\" y1=\"\(fixed(y(t), 1))\" x2=\"\(fixed(left + plotWidth, 1))\" y2=\"\(fixed(y(t), 1))\" stroke=\"\(t == 1 ? "#333" : "#ccc")\"\(t == 1 ? "" : " stroke-dasharray=\"2,3\"")/>"
      )
      body.append(BarChart.text(left - 4, y(t) + 4, BarChart.ratioLabel(t), anchor: "end"))
    }
    for (k, p) in points.enumerated() {
      body.append(
        "<text x=\"\(fixed(x(k), 1))\" y=\"\(fixed(top + plotHeight + 12, 1))\" text-anchor=\"end\" transform=\"rotate(-45 \(fixed(x(k), 1)) \(fixed(top + plotHeight + 12, 1)))\">\(p.commit.prefix(7))</text>"
      )
    }
    for (n, (c, line)) in series.enumerated() {
      let colour = BarChart.palette[n % BarChart.palette.count]
      let path = line.map { "\(fixed(x($0.0), 1)),\(fixed(y($0.1), 1))" }.joined(separator: " ")
      body.append(
        "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>")
      for (k, v) in line {
        body.append(
          "<circle cx=\"\(fixed(x(k), 1))\" cy=\"\(fixed(y(v), 1))\" r=\"2.5\" fill=\"\(colour)\"/>"
        )
      }
      let ly = top + 12 + Double(n) * 15
      body.append(
        "<rect x=\"\(fixed(left + plotWidth + 14, 1))\" y=\"\(fixed(ly - 9, 1))\" width=\"10\" height=\"10\" fill=\"\(colour)\"/>"
      )
      body.append(BarChart.text(left + plotWidth + 28, ly, c, anchor: "start"))
    }
    let width = left + plotWidth + 260
    let height = top + plotHeight + 60
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(fixed(width, 0))" height="\(fixed(height, 0))" font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      \(BarChart.text(8, 16, "history (\(size.rawValue)): cog instructions at each commit ÷ the newest (log scale; above 1× = more than now)", anchor: "start", weight: "bold"))
      \(body.joined(separator: "\n"))
      </svg>

      """
  }
}
