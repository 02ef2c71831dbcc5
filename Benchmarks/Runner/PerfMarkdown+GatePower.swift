import CogBenchCases
import Foundation

/// The record's "Gate power": how often the gate cries wolf on one binary, and which
/// injected regressions it catches, from the newest `Results/gate-power/` file.
extension PerfMarkdown {
  static func gatePowerSection(_ power: (String, GatePowerFile)?) -> [String] {
    var md: [String] = ["## Gate power", ""]
    guard let (path, f) = power else {
      md.append(
        "No gate-power result yet: `scripts/gate-power.sh` measures the gate's false alarms "
          + "and the injected regressions it catches, into `Results/gate-power/`.")
      md.append("")
      return md
    }
    md.append(
      "From `\(path)` (commit \(f.commit.prefix(12))\(f.dirty ? " (dirty)" : ""), \(f.date), "
        + "\(f.configuration) build; cases \(f.cases.map { "`\($0)`" }.joined(separator: ", ")); "
        + "metrics \(f.metrics.joined(separator: ", "))).")
    md.append("")
    md.append(
      "- A/A: the same binary measured \(f.aa.runs) times on `\(SystemCatalog.referenceID)`, "
        + "each run after the first checked against thresholds from the first: "
        + "**\(f.aa.falseAlarms) false alarm(s) in \(f.aa.checks) check(s)** (target 0)"
        + (f.aa.alarms.isEmpty
          ? "."
          : ": " + f.aa.alarms.prefix(5).map { "`\(escape($0))`" }.joined(separator: "; ")))
    md.append(
      "- Injected regressions (system `\(InjectedSystem.id)`: Cog plus a cost per iteration, "
        + "checked against its own counts without it): caught when `check` exits 2 with a "
        + "regression of the injected metric on the case. An instruction injection is a loop "
        + "sized to the share of the case's instructions; the measured share is in brackets.")
    md.append("")
    let cases = f.cases
    md.append(
      "| injected per iteration | " + cases.map { "`\($0)`" }.joined(separator: " | ") + " |")
    md.append("|---|" + cases.map { _ in "---|" }.joined())
    var kinds: [(String, (GatePowerFile.InjectionOutcome) -> Bool)] = []
    let percents = Array(Set(f.injections.compactMap { $0.targetPercent })).sorted()
    for p in percents {
      kinds.append(("+\(fixed(p, p < 1 ? 1 : 0))% instructions", { $0.targetPercent == p }))
    }
    kinds.append(("one allocation", { $0.kind == "allocation" }))
    kinds.append(("one retain", { $0.kind == "retain" }))
    for (label, matches) in kinds {
      var row = "| \(label) |"
      for c in cases {
        guard let o = f.injections.first(where: { $0.caseID == c && matches($0) }) else {
          row += " – |"
          continue
        }
        var cell = o.caught ? "caught" : "**missed**"
        if let m = o.measuredPercent {
          cell += " (+\(fixed(m, m < 1 ? 2 : 1))%)"
        } else if let b = o.baseline, let m = o.measured {
          cell += " (\(b) → \(m))"
        }
        row += " \(cell) |"
      }
      md.append(row)
    }
    md.append("")
    return md
  }
}
