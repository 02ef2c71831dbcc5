import CogBenchCases
import CogVariants
import Foundation

/// The M6 comparison in the record (issue 12, seed 000 §3.3, §4 and §9): every edge layout
/// with inline references on every case, every reference layout with the shared pool on the
/// keyed cases, and `cog` beside them for wall-time ratios measured in the same run. Rendered
/// from the newest result file of `scripts/compare.sh m6` (default directory `Results/m6`):
/// the numbers are `M6Model`'s, the seed's claims `SeedClaim.m6`; this writes the prose.
extension PerfMarkdown {
  static func m6Section(
    _ m6: (String, ResultFile)?, chartsRelative: String, charts: inout [(String, Data)]
  ) -> [String] {
    var md: [String] = ["## M6 comparison: edge and reference layouts", ""]
    guard let (path, file) = m6 else {
      md.append(
        "No M6 result file yet: `scripts/compare.sh m6` measures the set and writes one under "
          + "`Results/m6/`.")
      md.append("")
      return md
    }
    let m = M6Model(path: path, file: file)
    md += m6Introduction(m)
    md += m6PerVariant(m)
    md += m6PerCase(m)
    md += m6Focus(m, chartsRelative: chartsRelative, charts: &charts)
    md += m6Findings(m)
    return md
  }

  private static func dash(_ x: Double?, _ digits: Int) -> String {
    x.map { fixed($0, digits) } ?? "–"
  }

  private static func m6Introduction(_ m: M6Model) -> [String] {
    let git = m.file.environment.git
    var md = [
      "From `\(m.path)` (\(m.file.size.rawValue), commit "
        + "\(git.commit.prefix(12))\(git.dirty ? ", dirty" : ""), "
        + "\(m.file.date); \(m.file.environment.machine.cores) cores). Every edge layout runs "
        + "with inline references on every case; the interned and generic reference layouts run "
        + "with the shared pool on the keyed cases. Instruction ratios divide by `\(m.base)` "
        + "(the edge layout `cog` ships, with the inline references every edge layout runs "
        + "with, through the same binding); wall-time ratios divide by "
        + "`\(m.ref)` measured in the same run (medians; noisy on a shared machine, read the "
        + "counts first). Geometric means are over the cases both systems measured.",
      "",
    ]
    if !m.missing.isEmpty {
      md += [
        "Missing from this file: " + m.missing.map { "`\($0)`" }.joined(separator: ", ") + ".",
        "",
      ]
    }
    if !m.failed.isEmpty {
      md += [
        "**Case checks failed** on " + m.failed.map { "`\($0)`" }.joined(separator: ", ")
          + ": their numbers are not comparable.",
        "",
      ]
    }
    return md
  }

  private static func m6PerVariant(_ m: M6Model) -> [String] {
    var md = [
      "### Per variant", "",
      "| variant | cases | Ir × pool+inline, stable cases | Ir × pool+inline, churn cases "
        + "| wall × cog | `\(M6Model.steadyCase)` allocations / retains / releases "
        + "| `\(M6Model.refCreationCase)` allocations | graph bytes per row |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for v in m.perVariant {
      md.append(
        "| `\(v.id)` | \(v.measuredCases) | \(dash(v.irStable, 3)) | \(dash(v.irChurn, 3)) | "
          + "\(dash(v.wall, 2)) | " + v.steady.map { dash($0, 0) }.joined(separator: " / ")
          + " | \(dash(v.refAllocations, 0)) | \(dash(v.bytesPerRow, 0)) |")
    }
    let memory = M6Model.memoryCase
    md += [
      "",
      "Graph bytes per row: `graphBytes` of `\(memory.id)` (\(memory.rows) rows, "
        + "\(memory.edges) edges: columns, edges, values and descriptors together) "
        + "divided by its rows. The per-case table gives `graphBytes` of every keyed case.",
      "",
    ]
    return md
  }

  private static func m6PerCase(_ m: M6Model) -> [String] {
    var md = [
      "### Instructions per case (× `\(m.base)`) and per recomputed row", "",
      "| case | " + m.variants.map { "`\($0)`" }.joined(separator: " | ") + " |",
      "|---|" + m.variants.map { _ in "---:|" }.joined(),
    ]
    for (c, cells) in m.perCase {
      let text = cells.map { cell -> String in
        guard let x = cell.instructions else { return "–" }
        var t = fixed(x, 0)
        if let r = cell.ratio { t += " (\(fixed(r, 3)))" }
        if let perRow = cell.perRecomputedRow { t += "; \(fixed(perRow, 0))/row" }
        return t
      }
      md.append("| `\(c)` | " + text.joined(separator: " | ") + " |")
    }
    md.append("")
    return md
  }

  private static func m6Focus(
    _ m: M6Model, chartsRelative: String, charts: inout [(String, Data)]
  ) -> [String] {
    guard !m.focusCases.isEmpty else { return [] }
    var md = [
      "### Churn and keyed cases", "",
      "Per variant: instructions × `\(m.base)`, wall time × `\(m.ref)` (same run), "
        + "allocations / retains / releases per sample, graph bytes.",
      "",
      "| case | variant | Ir × base | wall × cog | alloc / retain / release | graph bytes |",
      "|---|---|---:|---:|---:|---:|",
    ]
    for row in m.focus {
      md.append(
        "| `\(row.caseID)` | `\(row.variant)` | \(dash(row.ir, 3)) | \(dash(row.wall, 2)) | "
          + row.arc.map { dash($0, 0) }.joined(separator: " / ") + " | "
          + "\(dash(row.graphBytes, 0)) |")
    }
    md.append("")
    let rows = m.file.results.filter {
      m.focusCases.contains($0.caseID) && ($0.system == m.ref || m.variants.contains($0.system))
    }
    for metric in [Metric.instructions, .wallTime] {
      guard
        let svg = BarChart.svg(
          family: "M6 churn and keyed", size: m.file.size, rows: rows, metric: metric)
      else { continue }
      let name = "m6-\(m.file.size.rawValue)-churn-keyed-\(metric.rawValue).svg"
      charts.append((name, Data(svg.chart.utf8)))
      md += ["![M6 churn and keyed cases: \(svg.caption)](\(chartsRelative)/\(name))", ""]
    }
    return md
  }

  /// What the numbers say, next to what the seed reports (`SeedClaim.m6`).
  private static func m6Findings(_ m: M6Model) -> [String] {
    let lines = m.findings.map { finding -> String in
      switch finding {
      case .fewestOnStable(let claim, let best, let means):
        return "Seed: \(claim.text). Here: fewest on the stable cases in geometric mean is "
          + "`\(best)` (" + means.map { "`\($0.0)` \(fixed($0.1, 3))" }.joined(separator: ", ")
          + "): " + (best == m.base ? "agrees." : "**disagrees**.")
      case .churnCase(let c, let best, let prefixIr, let prefixWall):
        return "`\(c)`: fewest instructions `\(best)`"
          + (prefixIr.map { "; prefix arrays \(fixed($0, 3))× the pool" } ?? "")
          + (prefixWall.map { ", wall time \(fixed($0, 2))× the pool" } ?? "") + "."
      case .churnClaim(let claim):
        return "Seed: \(claim.text); compare the churn rows above (instructions, wall time, "
          + "retains)."
      case .overflow(let claim, let variant, let mean, let wins):
        return "Seed: \(claim.text). Here: `\(variant)` is \(fixed(mean, 3))× the pool in "
          + "geometric mean and has the fewest instructions (by more than 1%) on "
          + "\(wins.count) case(s)"
          + (wins.isEmpty ? "" : " (" + wins.map { "`\($0)`" }.joined(separator: ", ") + ")")
          + ": " + (wins.isEmpty ? "agrees." : "**disagrees** on those cases.")
      case .referenceLayout(let claim, let f):
        return "Seed: \(claim.text). Here: `\(f.variant)` is \(dash(f.onKeyed, 3))× the inline "
          + "references' instructions on the keyed cases in geometric mean, "
          + "\(dash(f.diamond, 3))× on `\(f.diamondCase)`, and its wall time on "
          + "`\(f.churnCase)` is \(dash(f.churnWall, 2))× the inline one's."
      }
    }
    return ["### Against the seed's findings", ""] + lines.map { "- " + $0 } + [
      "",
      "The decision (which layouts Cog ships) and its reasons are in the notes below "
        + "(`impl/perf-notes.md`, \"M6\").",
      "",
    ]
  }

  /// The newest result file in `dir` (by date, then path), or nil when there is none.
  static func newestResult(in dir: String) throws -> (String, ResultFile)? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    var newest: (String, ResultFile)?
    for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
      let path = "\(dir)/\(name)"
      let file = try ResultFile.read(path)
      if let n = newest, (n.1.date, n.0) >= (file.date, path) { continue }
      newest = (path, file)
    }
    return newest
  }
}
