import Foundation

/// The record's "Diagnostics off" section (issue 26): what the core's tests for run counts and
/// explained turns cost a context that uses neither. `scripts/diagnostics-off-cost.sh` counts
/// the same cases on two builds of one commit, one as shipped and one with the tests compiled
/// out (COG_NO_DIAGNOSTICS), and writes both result files to one directory.
extension PerfMarkdown {
  /// What the tests may cost when off: at most 0.5% of a case's instructions (issue 26).
  static let diagnosticsOffTolerance = 0.005

  /// The newest pair in `dir`: the newest file built with COG_NO_DIAGNOSTICS, and the newest
  /// file of the same commit built without it; nil when there is no such pair.
  static func diagnosticsOffPair(in dir: String) throws
    -> (shipped: (String, ResultFile), off: (String, ResultFile))?
  {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    var shipped: [(String, ResultFile)] = []
    var off: [(String, ResultFile)] = []
    for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
      let path = "\(dir)/\(name)"
      let file = try ResultFile.read(path)
      if file.environment.build.defines.contains(BuildFacts.noDiagnosticsDefine) {
        off.append((path, file))
      } else {
        shipped.append((path, file))
      }
    }
    let newestFirst = { (a: (String, ResultFile), b: (String, ResultFile)) in
      (a.1.date, a.0) > (b.1.date, b.0)
    }
    for o in off.sorted(by: newestFirst) {
      let git = o.1.environment.git
      if let s = shipped.sorted(by: newestFirst).first(where: {
        $0.1.environment.git.commit == git.commit && $0.1.environment.git.dirty == git.dirty
      }) {
        return (s, o)
      }
    }
    return nil
  }

  static func diagnosticsOffSection(
    _ pair: (shipped: (String, ResultFile), off: (String, ResultFile))?
  ) -> [String] {
    guard let (shipped, off) = pair else { return [] }
    var rows: [(String, String, Int, Int, Double)] = []
    for r in shipped.1.results.sorted(by: { ($0.caseID, $0.system) < ($1.caseID, $1.system) }) {
      guard let on = r.value(.instructions)?.value,
        let without = off.1.results.first(where: { $0.caseID == r.caseID && $0.system == r.system }
        )?
        .value(.instructions)?.value, without > 0
      else { continue }
      rows.append((r.caseID, r.system, on, without, Double(on) / Double(without)))
    }
    guard !rows.isEmpty else { return [] }
    let over = rows.filter { $0.4 > 1 + diagnosticsOffTolerance }
    let worst = rows.map { $0.4 }.max() ?? 1
    var md = ["## Diagnostics off: what their tests cost", ""]
    md.append(
      "Run counts and explained turns (`Cogs.countsRuns`, `Cogs.explainsTurns`) cost a context "
        + "that uses neither one test per recompute, per turn and per made, released or evicted "
        + "row. `scripts/diagnostics-off-cost.sh` counts the same cases on two builds of commit "
        + "\(shipped.1.environment.git.commit.prefix(12))"
        + (shipped.1.environment.git.dirty ? " (dirty)" : "")
        + ": as shipped (`\(shipped.0)`) and with those tests compiled out (`\(off.0)`, "
        + "built with \(BuildFacts.noDiagnosticsDefine)). The goal: at most "
        + "\(fixed(diagnosticsOffTolerance * 100, 1))% more instructions as shipped. "
        + (over.isEmpty
          ? "Met on every case (the largest ratio is \(fixed(worst, 4)))."
          : "Not met on \(over.count) case(s): "
            + over.map { "`\($0.0)` (\(fixed($0.4, 4)))" }.joined(separator: ", ") + "."))
    md.append("")
    md.append("| case | system | Ir as shipped | Ir, tests compiled out | ratio |")
    md.append("|---|---|---:|---:|---:|")
    for r in rows {
      md.append("| `\(r.0)` | \(r.1) | \(r.2) | \(r.3) | \(fixed(r.4, 4)) |")
    }
    md.append("")
    return md
  }
}
