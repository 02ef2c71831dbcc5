import CogBenchSystems
import Foundation

/// Issue 13's "growth with graph size" in the record: CellX at three sizes per `cog*` system
/// (instructions, simulated cache traffic and wall time per cell, and the 5,000 ÷ 1,000
/// ratio against the goal), and each layout's bytes per row and per edge.
extension PerfMarkdown {
  /// The CellX cases, smallest first, and what one cell (a layer) holds.
  static let growthCases = [1000, 2500, 5000]
  static let cellRows = 8
  static let cellEdges = 10
  /// The goal: wall time per cell at 5,000 layers within this factor of 1,000 layers'.
  static let growthGoal = 1.2
  /// The goal for L2 misses per cell (issue 25): 5,000 layers' within this factor of 1,000
  /// layers', judged only where the simulated last level is the VMs' L2 (`l2Bytes`).
  static let l2Goal = 1.1
  static let l2Bytes = 1_048_576

  /// The simulated last level of a file's cache counters, in bytes, read from the counter
  /// source the runner wrote (`CacheRun.geometryDescription`: "… LL 1 MiB 16-way …"); nil
  /// when the file has no cache counters or names no size.
  static func simulatedLastLevel(_ file: ResultFile) -> Int? {
    guard let source = file.counterSources[Metric.llMisses.rawValue],
      let range = source.range(of: #"LL [0-9]+ (MiB|KiB)"#, options: .regularExpression)
    else { return nil }
    let parts = source[range].split(separator: " ")
    guard let n = Int(parts[1]) else { return nil }
    return n * (parts[2] == "MiB" ? 1_048_576 : 1024)
  }

  /// L2 misses per cell on `system`, 5,000 layers' over 1,000 layers'; nil unless the file's
  /// last level is the L2 and both sizes were measured.
  static func l2Ratio(_ file: ResultFile, _ system: String) -> Double? {
    guard simulatedLastLevel(file) == l2Bytes,
      let big = countPerCell(file, system, growthCases.last!, .llMisses),
      let small = countPerCell(file, system, growthCases.first!, .llMisses), small > 0
    else { return nil }
    return big / small
  }

  /// A counted metric of `cellx/<layers>` on `system` per cell: the sample's count over its
  /// iterations and layers; nil where it was not counted.
  static func countPerCell(_ file: ResultFile, _ system: String, _ layers: Int, _ metric: Metric)
    -> Double?
  {
    guard let r = file.result("cellx/\(layers)", system), r.notApplicable == nil,
      let v = r.value(metric)?.value
    else { return nil }
    return Double(v) / Double(max(r.iterationsPerSample, 1) * layers)
  }
  /// The goals for storage (issue 13): bytes per row excluding values and edges, per edge.
  static let rowBytesGoal = 64
  static let edgeBytesGoal = 24.0

  /// The systems of the section, in the record's order: `cog`, then its layouts.
  static func growthSystems(_ file: ResultFile) -> [String] {
    let present = Set(
      file.results.filter { $0.caseID.hasPrefix("cellx/") && $0.notApplicable == nil }
        .map { $0.system })
    return file.settings.systems.filter { SystemCatalog.runsCog($0) && present.contains($0) }
  }

  static func growthSection(_ current: [(String, ResultFile)]) -> [String] {
    var md: [String] = ["## Growth with graph size", ""]
    var any = false
    for (path, file) in current {
      let systems = growthSystems(file)
      guard !systems.isEmpty else { continue }
      any = true
      md.append(
        "CellX at \(growthCases.map { fixed(Double($0), 0) }.joined(separator: ", ")) layers "
          + "(`\(file.size.rawValue)`, from `\(path)`). One cell is one layer: \(cellRows) rows "
          + "(4 computeds, 4 effects) and \(cellEdges) edges, all rerun by the sample's batch. "
          + "Figures are per cell: instructions (callgrind), data accesses and simulated "
          + "D1 / LL data misses (`dataAccesses`, `d1Misses`, `llMisses`: "
          + (file.counterSources[Metric.d1Misses.rawValue] ?? "not measured in this run")
          + "), and wall time per cell: the median and the fastest sample. The last row of "
          + "each system divides 5,000 layers' figure by 1,000 layers'; the goal is wall time "
          + "per cell flat within \(fixed((growthGoal - 1) * 100, 0))% (ratio ≤ "
          + "\(fixed(growthGoal, 2))), met only when both the medians' and the fastest "
          + "samples' ratios are (on a shared machine a median can hide a growth that every "
          + "sample's floor shows, and the other way round). Where the simulated last level "
          + "is the VMs' 1 MiB L2 (the main job's geometry), the LL misses are L2 misses, "
          + "with a goal of their own: flat within \(fixed((l2Goal - 1) * 100, 0))% (ratio ≤ "
          + "\(fixed(l2Goal, 2))), shown after the wall-time verdict.")
      md.append("")
      md.append(
        "| system | layers | Ir/cell | data accesses/cell | D1 misses/cell | LL misses/cell "
          + "| wall time/cell (median) | wall time/cell (fastest) | goal |")
      md.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
      for s in systems {
        // A column: a metric, and for time which statistic of the samples.
        typealias Column = (metric: Metric, fastest: Bool)
        func perCell(_ layers: Int, _ c: Column) -> Double? {
          if let x = countPerCell(file, s, layers, c.metric) { return x }
          guard let r = file.result("cellx/\(layers)", s), r.notApplicable == nil else {
            return nil
          }
          let v = r.value(c.metric)
          if let x = c.fastest ? v?.min : v?.median { return x / Double(layers) }
          return nil
        }
        func cell(_ layers: Int, _ c: Column) -> String {
          guard let r = file.result("cellx/\(layers)", s) else { return "–" }
          if let x = perCell(layers, c) {
            return c.metric.isTime
              ? formatNanoseconds(x) : fixed(x, c.metric == .llMisses ? 2 : 1)
          }
          return r.value(c.metric)?.unavailable != nil ? "unavailable" : "–"
        }
        let columns: [Column] =
          [Metric.instructions, .dataAccesses, .d1Misses, .llMisses].map { ($0, false) }
          + [(.wallTime, false), (.wallTime, true)]
        for layers in growthCases {
          md.append(
            "| \(s) | \(layers) | " + columns.map { cell(layers, $0) }.joined(separator: " | ")
              + " | |")
        }
        func ratio(_ c: Column) -> Double? {
          guard let a = perCell(growthCases.last!, c), let b = perCell(growthCases.first!, c),
            b > 0
          else { return nil }
          return a / b
        }
        let times = [ratio((.wallTime, false)), ratio((.wallTime, true))]
        var goal =
          times.contains { $0 == nil }
          ? "–" : times.allSatisfy { $0! <= growthGoal } ? "met" : "**not met**"
        if let l2 = l2Ratio(file, s) {
          goal += "; L2 misses " + (l2 <= l2Goal ? "met" : "**not met**")
        }
        md.append(
          "| \(s) | \(growthCases.last!) ÷ \(growthCases.first!) | "
            + columns.map { ratio($0).map { fixed($0, 2) + "×" } ?? "–" }
            .joined(separator: " | ") + " | \(goal) |")
      }
      md.append("")
    }
    if !any {
      md.append("No result measured the CellX cases on a `cog*` system.")
      md.append("")
    }
    md.append(contentsOf: storageSection(current))
    return md
  }

  static func storageSection(_ current: [(String, ResultFile)]) -> [String] {
    var md: [String] = ["## Bytes per row and per edge", ""]
    var any = false
    for (path, file) in current {
      guard let storage = file.storage, !storage.isEmpty else { continue }
      any = true
      md.append(
        "Per layout (`\(file.size.rawValue)`, from `\(path)`), read from the structures the "
          + "core and the layout's edge store report on the layout's own store type "
          + "(`StorageProbe`: column strides and capacities, exact and machine-independent). "
          + "Bytes per row exclude values and edges: the core's row columns plus the store's "
          + "row part (list heads; for an inline layout, the row's record with its inline "
          + "edge slots, which then hold the first edges at no further cost). Bytes per edge "
          + "are what the store adds per edge when each dependent row reads 2, or 4, "
          + "dependencies. Goals (issue 13): at most \(rowBytesGoal) bytes per row, "
          + "\(fixed(edgeBytesGoal, 0)) per edge. For comparison, the last column is the whole "
          + "heap per row as a graph grows (values, edges, closures, behaviour objects and "
          + "column growth included): `graphBytes` of `cellx/5000` minus `cellx/2500`, over "
          + "the \(cellRows * 2500) rows between them.")
      md.append("")
      md.append(
        "| system | row columns | edge store per row | bytes per row (goal ≤ \(rowBytesGoal)) "
          + "| bytes per edge, 2 deps/row | bytes per edge, 4 deps/row (goal ≤ "
          + "\(fixed(edgeBytesGoal, 0))) | heap per row, all in (CellX) |")
      md.append("|---|---:|---:|---:|---:|---:|---:|")
      let order = file.settings.systems.filter { storage[$0] != nil }
      for s in order {
        let f = storage[s]!
        let rowGoal = f.bytesPerRow <= rowBytesGoal ? "met" : "**not met**"
        let worstEdge = max(f.bytesPerEdgeAt2, f.bytesPerEdgeAt4)
        let edgeGoal = worstEdge <= edgeBytesGoal ? "met" : "**not met**"
        var allIn = "–"
        if let big = file.result("cellx/5000", s)?.value(.graphBytes)?.value,
          let small = file.result("cellx/2500", s)?.value(.graphBytes)?.value
        {
          allIn = fixed(Double(big - small) / Double(cellRows * 2500), 0)
        }
        md.append(
          "| \(s) | \(f.rowColumnBytes) | \(f.edgeStoreRowBytes) | \(f.bytesPerRow) (\(rowGoal)) "
            + "| \(fixed(f.bytesPerEdgeAt2, 1)) | \(fixed(f.bytesPerEdgeAt4, 1)) (\(edgeGoal)) "
            + "| \(allIn) |")
      }
      md.append("")
    }
    if !any {
      md.append(
        "No storage figures in the current result file (written by a runner from before they "
          + "existed): `scripts/compare.sh` records them.")
      md.append("")
    }
    return md
  }
}
