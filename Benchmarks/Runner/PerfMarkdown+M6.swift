import CogBenchCases
import CogVariants
import Foundation

/// The M6 comparison in the record (issue 12, seed 000 §3.3, §4 and §9): every edge layout
/// with inline references on every case, every reference layout with the shared pool on the
/// keyed cases, and `cog` beside them for wall-time ratios measured in the same run. Rendered
/// from the newest result file of `scripts/compare.sh m6` (default directory `Results/m6`).
extension PerfMarkdown {
  /// The variants, in table order: the registered ones (`Variants.all`); the first is the
  /// baseline of the instruction ratios (the layouts `cog` binds, through the layout binding).
  static let m6Variants = Variants.all.map { $0.id }
  /// Cases whose dependencies or keys change every iteration: where prefix arrays are said to
  /// win (seed 000 §3.3) and where interning is said to cost (§4).
  static let m6ChurnCases = [
    "cog/key-churn", "cog/keyed-switch", "cog/dependency-churn", "kairo/unstable",
    "dynamic/6-100x15-dyn50",
  ]
  /// Where bytes per row are read: a 1,001-row graph (100 signals, 900 computeds reading 2
  /// each, one effect reading 100: 1,900 edges).
  static let m6MemoryCase = (id: "cog/peak-memory-1000", rows: 1001, edges: 1900)

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
    let ref = SystemCatalog.referenceID
    let base = m6Variants[0]
    let byKey = Dictionary(
      file.results.filter { $0.notApplicable == nil }.map { ("\($0.caseID)@\($0.system)", $0) },
      uniquingKeysWith: { a, _ in a })
    func r(_ c: String, _ s: String) -> CaseResult? { byKey["\(c)@\(s)"] }
    func count(_ c: String, _ s: String, _ m: Metric) -> Double? {
      r(c, s)?.value(m)?.value.map(Double.init)
    }
    func wall(_ c: String, _ s: String) -> Double? { r(c, s)?.value(.wallTime)?.median }
    let variants = m6Variants.filter { v in file.results.contains { $0.system == v } }
    let missing = m6Variants.filter { !variants.contains($0) }
    let cases = Array(Set(file.results.map { $0.caseID })).sorted()
    let failed = file.results.filter { !$0.checks.passed && $0.notApplicable == nil }

    md.append(
      "From `\(path)` (\(file.size.rawValue), commit "
        + "\(file.environment.git.commit.prefix(12))\(file.environment.git.dirty ? ", dirty" : ""), "
        + "\(file.date); \(file.environment.machine.cores) cores). Every edge layout runs with "
        + "inline references on every case; the interned and generic reference layouts run "
        + "with the shared pool on the keyed cases. Instruction ratios divide by `\(base)` "
        + "(the edge layout `cog` ships, with the inline references every edge layout runs "
        + "with, through the same binding); wall-time ratios divide by "
        + "`\(ref)` measured in the same run (medians; noisy on a shared machine, read the "
        + "counts first). Geometric means are over the cases both systems measured.")
    md.append("")
    if !missing.isEmpty {
      md.append(
        "Missing from this file: " + missing.map { "`\($0)`" }.joined(separator: ", ") + ".")
      md.append("")
    }
    if !failed.isEmpty {
      md.append(
        "**Case checks failed** on " + failed.map { "`\($0.id)`" }.joined(separator: ", ")
          + ": their numbers are not comparable.")
      md.append("")
    }

    // Summary per variant.
    func geomean(_ ratios: [Double]) -> Double? {
      let usable = ratios.filter { $0 > 0 && $0.isFinite }
      guard !usable.isEmpty else { return nil }
      return exp(usable.map { log($0) }.reduce(0, +) / Double(usable.count))
    }
    func irRatios(_ v: String, _ subset: [String]) -> [Double] {
      subset.compactMap { c in
        guard let a = count(c, v, .instructions), let b = count(c, base, .instructions), b > 0
        else { return nil }
        return a / b
      }
    }
    func wallRatios(_ v: String, _ subset: [String]) -> [Double] {
      subset.compactMap { c in
        guard let a = wall(c, v), let b = wall(c, ref), b > 0 else { return nil }
        return a / b
      }
    }
    let stable = cases.filter { !m6ChurnCases.contains($0) }
    md.append("### Per variant")
    md.append("")
    md.append(
      "| variant | cases | Ir × pool+inline, stable cases | Ir × pool+inline, churn cases "
        + "| wall × cog | `cog/steady-turn` allocations / retains / releases "
        + "| `cog/box-ref-creation` allocations | graph bytes per row |")
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for v in variants {
      let measured = cases.filter { r($0, v) != nil }
      let steady = ["allocations", "retains", "releases"].map { m -> String in
        guard let metric = Metric(rawValue: m), let x = count("cog/steady-turn", v, metric) else {
          return "–"
        }
        return fixed(x, 0)
      }
      let refAlloc = count("cog/box-ref-creation", v, .allocations).map { fixed($0, 0) } ?? "–"
      let perRow = count(m6MemoryCase.id, v, .graphBytes).map {
        fixed($0 / Double(m6MemoryCase.rows), 0)
      }
      md.append(
        "| `\(v)` | \(measured.count) | "
          + "\(geomean(irRatios(v, stable)).map { fixed($0, 3) } ?? "–") | "
          + "\(geomean(irRatios(v, m6ChurnCases)).map { fixed($0, 3) } ?? "–") | "
          + "\(geomean(wallRatios(v, measured)).map { fixed($0, 2) } ?? "–") | "
          + steady.joined(separator: " / ") + " | \(refAlloc) | \(perRow ?? "–") |")
    }
    md.append("")
    md.append(
      "Graph bytes per row: `graphBytes` of `\(m6MemoryCase.id)` (\(m6MemoryCase.rows) rows, "
        + "\(m6MemoryCase.edges) edges: columns, edges, values and descriptors together) "
        + "divided by its rows. The per-case table gives `graphBytes` of every keyed case.")
    md.append("")

    // Per case.
    md.append("### Instructions per case (× `\(base)`) and per recomputed row")
    md.append("")
    md.append("| case | " + variants.map { "`\($0)`" }.joined(separator: " | ") + " |")
    md.append("|---|" + variants.map { _ in "---:|" }.joined())
    for c in cases {
      let cells = variants.map { v -> String in
        guard let x = count(c, v, .instructions) else { return "–" }
        var cell = fixed(x, 0)
        if v != base, let b = count(c, base, .instructions), b > 0 {
          cell += " (\(fixed(x / b, 3)))"
        }
        if let res = r(c, v), let n = res.recomputesPerIteration, n > 0 {
          cell += "; \(fixed(x / Double(n * max(res.iterationsPerSample, 1)), 0))/row"
        }
        return cell
      }
      md.append("| `\(c)` | " + cells.joined(separator: " | ") + " |")
    }
    md.append("")

    // Churn and keyed cases: counts and wall time side by side.
    let keyed = cases.filter { c in
      r(c, "cog[pool+interned]") != nil || r(c, "cog[pool+typed]") != nil
    }
    let focus = Array(Set(m6ChurnCases + keyed)).sorted().filter { cases.contains($0) }
    if !focus.isEmpty {
      md.append("### Churn and keyed cases")
      md.append("")
      md.append(
        "Per variant: instructions × `\(base)`, wall time × `\(ref)` (same run), "
          + "allocations / retains / releases per sample, graph bytes.")
      md.append("")
      md.append(
        "| case | variant | Ir × base | wall × cog | alloc / retain / release | graph bytes |")
      md.append("|---|---|---:|---:|---:|---:|")
      for c in focus {
        for v in variants where r(c, v) != nil {
          let ir = count(c, v, .instructions).flatMap { x in
            count(c, base, .instructions).map { fixed(x / $0, 3) }
          }
          let w = wall(c, v).flatMap { x in wall(c, ref).map { fixed(x / $0, 2) } }
          let arc = [Metric.allocations, .retains, .releases].map {
            count(c, v, $0).map { fixed($0, 0) } ?? "–"
          }
          let bytes = count(c, v, .graphBytes).map { fixed($0, 0) } ?? "–"
          md.append(
            "| `\(c)` | `\(v)` | \(ir ?? "–") | \(w ?? "–") | \(arc.joined(separator: " / ")) "
              + "| \(bytes) |")
        }
      }
      md.append("")
      let rows = file.results.filter {
        focus.contains($0.caseID) && ($0.system == ref || variants.contains($0.system))
      }
      for metric in [Metric.instructions, .wallTime] {
        guard
          let svg = BarChart.svg(
            family: "M6 churn and keyed", size: file.size, rows: rows, metric: metric)
        else { continue }
        let name = "m6-\(file.size.rawValue)-churn-keyed-\(metric.rawValue).svg"
        charts.append((name, Data(svg.chart.utf8)))
        md.append("![M6 churn and keyed cases: \(svg.caption)](\(chartsRelative)/\(name))")
        md.append("")
      }
    }

    // What the numbers say, next to what the seed reports.
    md.append("### Against the seed's findings")
    md.append("")
    var findings: [String] = []
    let edgeVariants = variants.filter { $0.hasSuffix("+inline]") }
    let stableMeans = edgeVariants.compactMap { v in geomean(irRatios(v, stable)).map { (v, $0) } }
    if let best = stableMeans.min(by: { $0.1 < $1.1 }) {
      let agrees = best.0 == base
      findings.append(
        "Seed: the shared pool used the fewest instructions for mostly stable dependencies. "
          + "Here: fewest on the stable cases in geometric mean is `\(best.0)` ("
          + stableMeans.map { "`\($0.0)` \(fixed($0.1, 3))" }.joined(separator: ", ") + "): "
          + (agrees ? "agrees." : "**disagrees**."))
    }
    let churnPresent = m6ChurnCases.filter { c in edgeVariants.contains { r(c, $0) != nil } }
    for c in churnPresent {
      let ir = edgeVariants.compactMap { v in count(c, v, .instructions).map { (v, $0) } }
      guard let best = ir.min(by: { $0.1 < $1.1 }) else { continue }
      let prefixWall = wall(c, "cog[prefix+inline]").flatMap { p in wall(c, base).map { p / $0 } }
      findings.append(
        "`\(c)`: fewest instructions `\(best.0)`"
          + (count(c, "cog[prefix+inline]", .instructions).flatMap { p in
            count(c, base, .instructions).map { "; prefix arrays \(fixed(p / $0, 3))× the pool" }
          } ?? "")
          + (prefixWall.map { ", wall time \(fixed($0, 2))× the pool" } ?? "") + ".")
    }
    findings.append(
      "Seed: prefix arrays used fewer instructions under high churn, with no wall-time gain and "
        + "extra ARC work; compare the churn rows above (instructions, wall time, retains).")
    let innerMeans = edgeVariants.compactMap { v in geomean(irRatios(v, cases)).map { (v, $0) } }
    if let overflow = innerMeans.first(where: { $0.0.hasPrefix("cog[overflow") }) {
      let wins = cases.filter { c in
        guard let o = count(c, overflow.0, .instructions) else { return false }
        // A win is fewer instructions than every other edge layout by more than 1%.
        return edgeVariants.allSatisfy { v in
          v == overflow.0 || (count(c, v, .instructions) ?? .infinity) > o * 1.01
        }
      }
      findings.append(
        "Seed: inline storage won neither. Here: `\(overflow.0)` is \(fixed(overflow.1, 3))× the "
          + "pool in geometric mean and has the fewest instructions (by more than 1%) on "
          + "\(wins.count) case(s)"
          + (wins.isEmpty ? "" : " (" + wins.map { "`\($0)`" }.joined(separator: ", ") + ")")
          + ": " + (wins.isEmpty ? "agrees." : "**disagrees** on those cases."))
    }
    for (v, claim) in [
      ("cog[pool+interned]", "interning saved about 2% of instructions but made churn 4% slower"),
      ("cog[pool+typed]", "the generic form was 6% slower on the keyed diamond"),
    ] where variants.contains(v) {
      let onKeyed = geomean(irRatios(v, keyed))
      let diamond = count("cog/keyed-diamond", v, .instructions).flatMap { x in
        count("cog/keyed-diamond", base, .instructions).map { x / $0 }
      }
      let churnWall = wall("cog/key-churn", v).flatMap { x in
        wall("cog/key-churn", base).map { x / $0 }
      }
      findings.append(
        "Seed: \(claim). Here: `\(v)` is \(onKeyed.map { fixed($0, 3) } ?? "–")× the inline "
          + "references' instructions on the keyed cases in geometric mean, "
          + "\(diamond.map { fixed($0, 3) } ?? "–")× on `cog/keyed-diamond`, and its wall time on "
          + "`cog/key-churn` is \(churnWall.map { fixed($0, 2) } ?? "–")× the inline one's.")
    }
    md.append(contentsOf: findings.map { "- " + $0 })
    md.append("")
    md.append(
      "The decision (which layouts Cog ships) and its reasons are in the notes below "
        + "(`impl/perf-notes.md`, \"M6\").")
    md.append("")
    return md
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
