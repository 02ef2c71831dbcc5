import CogBenchCases
import Foundation

/// The record's "Memory across samples": whether a case's resident memory stays flat from
/// sample to sample once warm (the state built for one sample dies with it, as the JS
/// originals' garbage does), and the bytes of a descriptor, from the newest
/// `Results/memory/` file.
extension PerfMarkdown {
  static func memorySection(_ memory: (String, MemoryFile)?) -> [String] {
    var md: [String] = ["## Memory across samples", ""]
    guard let (path, f) = memory else {
      md.append(
        "No memory result yet: `cog-bench memory` measures resident memory across the samples "
          + "of the creation cases, into `Results/memory/`.")
      md.append("")
      return md
    }
    md.append(
      "From `\(path)` (commit \(f.commit.prefix(12))\(f.dirty ? " (dirty)" : ""), \(f.date), "
        + "\(f.configuration) build, `\(f.size.rawValue)` size, \(escape(f.machine))). Each "
        + "case × system ran in a process of its own, its samples as the time phase runs them "
        + "(`beforeSample`, which drops the last sample's state, then the sample); the resident "
        + "set (`/proc/self/statm`; jemalloc without decay, so pages freed go back at once) "
        + "was read after each. Flat: after \(f.warmupSamples) warm-up "
        + "sample(s), no sample more than \(fixed(f.tolerancePercent, 0))% from the first warm "
        + "one.")
    md.append("")
    md.append(
      "| case | system | samples | RSS, first warm sample | RSS, last | largest change once "
        + "warm | flat |")
    md.append("|---|---|---:|---:|---:|---:|---|")
    for s in f.series {
      let warm =
        s.residentBytes.indices.contains(f.warmupSamples)
        ? s.residentBytes[f.warmupSamples] : nil
      let drift = s.drift(warmup: f.warmupSamples)
      md.append(
        "| `\(s.caseID)` | `\(s.system)` | \(s.residentBytes.count) | "
          + "\(warm.map(megabytes) ?? "–") | \(s.residentBytes.last.map(megabytes) ?? "–") | "
          + "\(drift.map { fixed($0, 2) + "%" } ?? "–") | "
          + "\(drift.map { $0 <= f.tolerancePercent ? "yes" : "**no**" } ?? "–") |")
    }
    md.append("")
    md.append(
      "Bytes per descriptor (`cog`, an `Int` state; instance sizes from the class metadata): "
        + "a manual cog \(f.descriptors.manualCog) (goal ≤ 64), an automatic cog "
        + "\(f.descriptors.automaticCog) (the cog and its behavior object; its body's closure "
        + "context comes on top). Bytes per row and per edge: \"Bytes per row and per edge\" "
        + "above.")
    md.append("")
    if let s = f.scale {
      md.append(
        "Bytes per state at scale: \(s.states / 2) manual sources and \(s.states / 2) automatic "
          + "cogs each reading one source, every computed read once in one context, in a "
          + "process of its own (`StorageProbe.statesAtScale`): "
          + "\(s.heapBytesPerState.map { fixed($0, 1) + " bytes of live heap" } ?? "live heap not counted (\(s.heapUnavailable ?? "unavailable"))") "
          + "and \(fixed(s.residentBytesPerState, 1)) bytes of resident memory per state, all "
          + "in: descriptors, closures, rows, values, edges, the context's maps and the app's "
          + "two arrays of descriptors (goal ≤ 200, issue 23).")
      if let split = s.heapSplit {
        md.append("")
        md.append(
          "Live heap by phase: each source \(fixed(split.perSource, 1)) bytes (its `Cog` and "
            + "its array slot), each computed \(fixed(split.perComputed, 1)) (its `Cog`, "
            + "behavior, closure context and array slot), and the context "
            + "\(fixed(split.contextPerState, 1)) per state (rows, values, edges and maps).")
      }
      md.append("")
    }
    return md
  }

  /// Issue 23's memory goals in one line, for the summary.
  static func memorySummary(_ path: String, _ f: MemoryFile) -> String {
    let flat = f.series.filter {
      ($0.drift(warmup: f.warmupSamples) ?? .infinity) <= f.tolerancePercent
    }
    var line =
      "Memory (`\(path)`, commit \(f.commit.prefix(12)), [detail](#memory-across-samples)): "
      + "resident memory flat across samples in \(flat.count) of \(f.series.count) series "
      + "(≤ \(fixed(f.tolerancePercent, 0))% once warm); a manual cog \(f.descriptors.manualCog) "
      + "bytes (goal ≤ 64: \(f.descriptors.manualCog <= 64 ? "met" : "**not met**"))"
    if let s = f.scale {
      let perState = s.heapBytesPerState ?? s.residentBytesPerState
      line +=
        "; \(fixed(perState, 0)) bytes per state at \(s.states / 2) sources + \(s.states / 2) "
        + "computeds (\(s.heapBytesPerState == nil ? "resident" : "live heap"); goal ≤ 200: "
        + "\(perState <= 200 ? "met" : "**not met**"))"
    }
    return line + "."
  }

  static func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1_048_576, 1) + " MiB" }
}
