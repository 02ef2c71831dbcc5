import CogBenchCases
import Foundation

// Issue 13's unit for creation: what one created row costs (allocations, instructions,
// retains), for the cases that declare the rows an iteration creates (`createdRows`).

extension PerfMarkdown {
  static func creationSection(_ current: [(String, ResultFile)]) -> [String] {
    var rows: [String] = []
    for (_, file) in current {
      let declaring = file.results
        .filter { $0.createdRowsPerIteration != nil && $0.notApplicable == nil }
        .sorted { ($0.caseID, $0.system) < ($1.caseID, $1.system) }
      for r in declaring {
        let created = r.createdRowsPerIteration! * max(r.iterationsPerSample, 1)
        func per(_ m: Metric, _ format: String) -> String {
          guard let v = r.value(m)?.value else { return "unavailable" }
          return String(format: format, Double(v) / Double(created))
        }
        let allocations = per(.allocations, "%.3f")
        var target = ""
        if let kind = r.createdRowKind, SystemCatalog.runsCog(r.system) {
          func check(_ m: Metric, _ limit: Int, _ unit: String) -> String {
            guard let v = r.value(m)?.value else { return "≤ \(limit)\(unit)" }
            let met = Double(v) / Double(created) <= Double(limit)
            return "≤ \(limit)\(unit)" + (met ? " (met)" : " (**not met**)")
          }
          target = check(.allocations, kind.allocationTarget, "")
          if let bytes = kind.allocatedBytesTarget {
            target += ", " + check(.allocatedBytes, bytes, " B")
          }
        }
        rows.append(
          "| `\(r.caseID)` | \(r.system) | \(file.size.rawValue) | "
            + "\(r.createdRowsPerIteration!) \(r.createdRowKind?.rawValue ?? "") | "
            + "\(allocations) | \(per(.allocatedBytes, "%.1f")) | \(target) | "
            + "\(per(.instructions, "%.0f")) | \(per(.retains, "%.2f")) |")
      }
    }
    var md: [String] = ["## Creation per row", ""]
    if rows.isEmpty {
      md.append("No result declares the rows an iteration creates.")
      md.append("")
      return md
    }
    md.append(
      "Counts of a sample divided by the rows it created (iterations × the case's declared "
        + "rows per iteration: signals are manual cogs, effects are reactions; "
        + "`cog/first-read` counts the rows that first reads of fresh signals make). The "
        + "targets, on Cog and its layouts: at most 1 allocation per manual cog, 2 per "
        + "automatic cog or reaction (issue 13); at most 64 allocated bytes per manual cog "
        + "(issue 25).")
    md.append("")
    md.append(
      "| case | system | size | rows/iteration | allocations/row | bytes/row | target | Ir/row "
        + "| retains/row |")
    md.append("|---|---|---|---:|---:|---:|---|---:|---:|")
    md.append(contentsOf: rows)
    md.append("")
    return md
  }
}
