/// The compact table `run` prints: one line per case × system.
enum SummaryTable {
  static func render(_ file: ResultFile) -> String {
    let columns: [(String, Metric)] = [
      ("wall med", .wallTime), ("instr", .instructions), ("allocs", .allocations),
      ("retains", .retains), ("releases", .releases), ("graph B", .graphBytes),
    ].filter { file.settings.metrics.contains($0.1) }
    var lines: [String] = []
    let header =
      "case".padding(34) + "system".padding(14) + "checks".padding(8)
      + columns.map { $0.0.leftPadding(13) }.joined()
    lines.append(header)
    lines.append(String(repeating: "-", count: header.count))
    for r in file.results {
      var line = r.caseID.padding(34) + r.system.padding(14)
      if let na = r.notApplicable {
        lines.append(line + "n/a: \(na)")
        continue
      }
      line += (r.checks.passed ? "ok" : "FAIL").padding(8)
      for (_, m) in columns {
        line += cell(r.value(m), m).leftPadding(13)
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  static func cell(_ v: MetricValue?, _ m: Metric) -> String {
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
