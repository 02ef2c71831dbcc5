import CogBenchCases

/// The record's section on the object-graph model against swift-state-graph (issue 17), and
/// the label the model's comparisons with Cog carry elsewhere.
extension PerfMarkdown {
  static func stateGraphModelSection(_ current: [(String, ResultFile)]) -> [String] {
    let model = StateGraphReference.modelID
    let files = current.filter { $0.1.results.contains { $0.system == model } }
    guard !files.isEmpty else { return [] }
    var md = ["## The object-graph model against swift-state-graph", ""]
    md.append(
      "swift-state-graph does not build on Linux unmodified, so `\(model)` "
        + "(`Benchmarks/Baselines/ObjectGraph`) models its costs. Issue 17 measured the "
        + "library itself on a local Linux port (not part of this repository: its figures are "
        + "quoted, not measured here) beside the model of that time, on the shapes of the "
        + "`sinks/*` cases: one update writes the source, then reads every sink outside any "
        + "computation, on both. Per recomputed node = the instructions (callgrind) or "
        + "allocations of a counted sample ÷ (updates per sample × the computeds an update "
        + "reruns, the case's declared reruns, which the case checks exactly in every phase "
        + "and the tests check against Cog's run counter); the write and the sink reads "
        + "count with the update. swift-state-graph's instructions per node are issue 17's; "
        + "its allocations per node are issue 17's ratio (swift-state-graph ÷ the model "
        + "then) × the model-then allocations per node measured in "
        + "`\(StateGraphReference.modelThenResult)`. Within "
        + "\(fixed(StateGraphReference.tolerance, 1))× means 1/"
        + "\(fixed(StateGraphReference.tolerance, 1)) ≤ swift-state-graph ÷ model ≤ "
        + "\(fixed(StateGraphReference.tolerance, 1)).")
    md.append("")
    for (path, file) in files {
      let fidelity = ModelFidelity(file)
      md.append("`\(file.size.rawValue)` (`\(path)`): \(fidelity.summary)")
      md.append("")
      md.append(
        "| shape | case | swift-state-graph Ir/node (issue 17) | model Ir/node | "
          + "swift-state-graph ÷ model | swift-state-graph allocations/node (derived) | "
          + "model allocations/node | swift-state-graph ÷ model | within "
          + "\(fixed(StateGraphReference.tolerance, 1))× |")
      md.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
      for row in fidelity.rows {
        md.append(
          "| \(row.shape.name) | `\(row.shape.caseID)` | \(count(row.shape.instructionsPerNode)) | "
            + "\(count(row.instructions)) | \(factor(row.instructionFactor)) | "
            + "\(allocations(row.referenceAllocations)) | \(allocations(row.allocations)) | "
            + "\(factor(row.allocationFactor)) | \(within(row)) |")
      }
      md.append("")
    }
    let fidelity = ModelFidelity(files[0].1)
    md.append(
      "The model then, reproduced: issue 17's model column against the same cases measured at "
        + "the commit before the model changed (`\(StateGraphReference.modelThenResult)`"
        + (fidelity.thenUnavailable.map { ": unavailable, \($0)" } ?? "")
        + "); the instructions agreeing is what shows the cases do the issue's work.")
    md.append("")
    md.append(
      "| case | issue 17's model Ir/node | reproduced Ir/node | reproduced allocations/node | "
        + "issue 17's allocation ratio | swift-state-graph allocations/node |")
    md.append("|---|---:|---:|---:|---:|---:|")
    for row in fidelity.rows {
      md.append(
        "| `\(row.shape.caseID)` | \(count(row.shape.modelThenInstructionsPerNode)) | "
          + "\(count(row.thenInstructions)) | \(allocations(row.thenAllocations)) | "
          + "\(fixed(row.shape.allocationRatio, 1))× | \(allocations(row.referenceAllocations)) |")
    }
    md.append("")
    return md
  }

  /// The line under a family table that has model rows, unless the model is faithful.
  static func stateGraphModelFootnote(_ rows: [CaseResult], _ fidelity: ModelFidelity)
    -> [String]
  {
    guard rows.contains(where: { $0.system == StateGraphReference.modelID }) else { return [] }
    if fidelity.verdict == .faithful { return [] }
    return ["", "\(StateGraphReference.modelID): \(fidelity.summary)"]
  }

  /// The per-node table's note on a model row, unless the model is faithful.
  static func stateGraphModelNote(_ r: CaseResult, _ fidelity: ModelFidelity) -> String {
    guard r.system == StateGraphReference.modelID else { return "" }
    switch fidelity.verdict {
    case .faithful: return ""
    case .lowerBound(let f):
      return "swift-state-graph: at least this, measured up to \(fixed(f, 2))× more"
    case .upperBound(let f):
      return "swift-state-graph: at most this, measured up to \(fixed(f, 2))× less"
    case .neither, .unverified: return "not a bound of swift-state-graph (see its section)"
    }
  }

  private static func count(_ v: Double?) -> String { v.map { fixed($0, 0) } ?? "unavailable" }
  private static func allocations(_ v: Double?) -> String {
    v.map { fixed($0, 1) } ?? "unavailable"
  }
  private static func factor(_ v: Double?) -> String { v.map { fixed($0, 2) + "×" } ?? "–" }
  private static func within(_ row: ModelFidelity.Row) -> String {
    guard let i = row.instructionFactor, let a = row.allocationFactor else { return "unknown" }
    let t = StateGraphReference.tolerance
    let ok = [i, a].allSatisfy { $0 <= t && $0 >= 1 / t }
    return ok ? "yes" : "**no**"
  }
}
