/// The compact table `run` prints: one line per case × system, every column with its unit,
/// and ratios against the reference system (`cog`) of the same run; then the metrics that
/// could not be counted, with why.
enum SummaryTable {
  struct Column {
    var title: String
    var metric: Metric
    /// Also a `÷ cog` column.
    var ratio: Bool
  }

  @MainActor
  static func render(_ file: ResultFile) -> String {
    let ref = SystemCatalog.referenceID
    let columns = [
      Column(title: "wall/iter", metric: .wallTime, ratio: true),
      Column(title: "Ir/sample", metric: .instructions, ratio: true),
      Column(title: "allocs/sample", metric: .allocations, ratio: true),
      Column(title: "retains/sample", metric: .retains, ratio: false),
      Column(title: "releases/sample", metric: .releases, ratio: false),
      Column(title: "graph bytes", metric: .graphBytes, ratio: false),
    ].filter { file.settings.metrics.contains($0.metric) }
    let hasRef = file.results.contains { $0.system == ref }
    let byCase = Dictionary(
      file.results.filter { $0.system == ref }.map { ($0.caseID, $0) },
      uniquingKeysWith: { a, _ in a })
    var lines: [String] = []
    // Name columns as wide as their longest entry, so long ids do not push a row out of line.
    let caseWidth = file.results.map(\.caseID.count).reduce("case".count, max) + 2
    let systemWidth = file.results.map(\.system.count).reduce("system".count, max) + 2
    var header =
      "case".padding(caseWidth) + "system".padding(systemWidth) + "checks".padding(7)
      + "iters".leftPadding(6)
    for c in columns {
      header += c.title.leftPadding(16)
      if c.ratio && hasRef { header += "÷ \(ref)".leftPadding(9) }
    }
    lines.append(header)
    lines.append(String(repeating: "-", count: header.count))
    for r in file.results {
      var line = r.caseID.padding(caseWidth) + r.system.padding(systemWidth)
      if let na = r.notApplicable {
        lines.append(line + "n/a: \(na)")
        continue
      }
      line +=
        (r.checks.passed ? "ok" : "FAIL").padding(7) + String(r.iterationsPerSample).leftPadding(6)
      for c in columns {
        line += cell(r.value(c.metric)).leftPadding(16)
        if c.ratio && hasRef {
          let v = r.value(c.metric)?.comparable
          let base = byCase[r.caseID]?.value(c.metric)?.comparable
          line += PerfMarkdown.ratio(v, base).leftPadding(9)
        }
      }
      lines.append(line)
    }
    lines.append("")
    lines.append(
      "Counts are per sample (iters = iterations per sample), times per iteration (median); "
        + (hasRef
          ? "÷ \(ref) = this system's value over Cog's in this run (> 1×: more than Cog)." : ""))
    lines.append(contentsOf: missingCounters(file))
    return lines.joined(separator: "\n")
  }

  /// "Missing counters" lines: each metric unavailable somewhere, how often, and why.
  static func missingCounters(_ file: ResultFile) -> [String] {
    var reasons: [String: [String]] = [:]
    let measured = file.results.filter { $0.notApplicable == nil }
    for r in measured {
      for (m, v) in r.metrics { if let u = v.unavailable { reasons[m, default: []].append(u) } }
    }
    guard !reasons.isEmpty else { return ["Missing counters: none."] }
    var lines = ["Missing counters (recorded as unavailable in the result file, never as 0):"]
    for m in reasons.keys.sorted() {
      let all = reasons[m]!
      let distinct = Array(Set(all)).sorted()
      var line =
        "  \(m): unavailable for \(all.count) of \(measured.count) results: "
        + distinct.prefix(2).joined(separator: "; ")
      if distinct.count > 2 { line += "; … (\(distinct.count) distinct reasons)" }
      lines.append(line)
    }
    return lines
  }

  static func cell(_ v: MetricValue?) -> String {
    guard let v else { return "-" }
    if v.unavailable != nil { return "unavail" }
    if let n = v.value { return String(n) }
    if let median = v.median { return formatNanoseconds(median) }
    return "-"
  }
}

/// `1234.5` → `1.23 µs`.
func formatNanoseconds(_ ns: Double) -> String {
  if ns >= 1_000_000 { return fixed(ns / 1_000_000, 2) + " ms" }
  if ns >= 1_000 { return fixed(ns / 1_000, 2) + " µs" }
  return fixed(ns, 1) + " ns"
}

/// A decimal with `digits` fraction digits, without Foundation's locale.
func fixed(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (abs(value) * scale).rounded()
  let whole = Int(rounded / scale)
  let fraction = Int(rounded) - whole * Int(scale)
  let sign = value < 0 && rounded != 0 ? "-" : ""
  if digits == 0 { return sign + String(whole) }
  let f = String(fraction)
  return sign + String(whole) + "." + String(repeating: "0", count: digits - f.count) + f
}
