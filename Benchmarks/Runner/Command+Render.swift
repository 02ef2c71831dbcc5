import CogBenchCases
import Foundation

@MainActor
enum RenderCommand {
  static let help = """
    usage: cog-bench render [RESULT.json ...] [--results-dir DIR] [--out PATH]
                            [--history PATH] [--charts DIR] [--notes PATH]
                            [--profiles DIR] [--m6-dir DIR]

    Renders the performance record from result files only (never typed numbers):
      --out       impl/perf.md: environment, a table per family (case × system) with ratios
                  against Cog's default system (id "cog") measured in the same run, counts,
                  the object-graph model per recomputed node against swift-state-graph
                  (issue 17's figures, quoted; its ratios to Cog say "at least" or "at most"
                  when it is not within 1.3×), profiler attribution from DIR profiles,
                  gaps, and the prose of --notes
                  (impl/perf-notes.md, included verbatim: decisions, trade-offs, withdrawals)
      --history   impl/perf-history.md: the numbers of older result files (retired)
      --charts    impl/charts: one SVG bar chart per family
      --m6-dir    where `scripts/compare.sh m6` writes (default Results/m6): the newest
                  result file there is the record's "M6 comparison" section (the layout
                  variants side by side; a partial run by design, never the main record)
    Without RESULT arguments it reads every *.json in --results-dir (default Results/runs).
    The newest COMPLETE run per size is current: every case, every system and every metric
    (what scripts/compare.sh measures; an unavailable counter is a gap, not a partial run).
    Partial runs (an ad-hoc `run --cases …`) never become the record: they are listed in the
    history, marked partial. Charts in --charts that this render did not write are removed.
    Exit: 0 ok, 1 error (an unreadable result file, or no complete run: nothing is written).
    """

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try Arguments(
      arguments,
      valueOptions: ["results-dir", "out", "history", "charts", "notes", "profiles", "m6-dir"],
      flagOptions: [])
    if a.has("help") {
      print(help)
      return .ok
    }
    let out = a["out"] ?? "impl/perf.md"
    let historyPath = a["history"] ?? "impl/perf-history.md"
    let chartsDir = a["charts"] ?? "impl/charts"
    let notesPath = a["notes"] ?? "impl/perf-notes.md"
    let profilesDir = a["profiles"] ?? "Results/profiles"
    let m6 = try PerfMarkdown.newestResult(in: a["m6-dir"] ?? "Results/m6")
    var paths = a.positionals
    if paths.isEmpty {
      let dir = a["results-dir"] ?? "Results/runs"
      let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
      paths = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
        "\(dir)/\($0)"
      }
    }
    if paths.isEmpty { throw BenchError("no result files to render (run cog-bench run first)") }
    let files = try paths.map { ($0, try ResultFile.read($0)) }
    // The newest complete file per size is current; ties broken by path.
    var current: [CaseSize: (String, ResultFile)] = [:]
    for (p, f) in files where f.partialReason() == nil {
      if let c = current[f.size], (c.1.date, c.0) >= (f.date, p) { continue }
      current[f.size] = (p, f)
    }
    if current.isEmpty {
      throw BenchError(
        "none of the \(files.count) result file(s) is a complete suite run (every case, "
          + "system and metric: scripts/compare.sh writes one); partial runs never become the "
          + "record; nothing written")
    }
    let currentPaths = Set(current.values.map { $0.0 })
    let history = files.filter { !currentPaths.contains($0.0) }.sorted { $0.1.date > $1.1.date }
    let ordered = CaseSize.allCases.compactMap { current[$0] }
    let profiles = loadProfiles(profilesDir)
    let notes = try? String(contentsOfFile: notesPath, encoding: .utf8)

    var charts: [(String, Data)] = []
    let chartsRelative = relativePath(from: out, to: chartsDir)
    let md = PerfMarkdown.render(
      current: ordered, profiles: profiles, m6: m6, notes: notes, notesPath: notesPath,
      chartsRelative: chartsRelative, charts: &charts)
    let historyMD = PerfMarkdown.renderHistory(history, currentCount: ordered.count)
    for (name, data) in charts { try FileOutput.replace(data, at: "\(chartsDir)/\(name)") }
    try FileOutput.replace(Data(md.utf8), at: out)
    try FileOutput.replace(Data(historyMD.utf8), at: historyPath)
    // Charts of an earlier record (another family, metric or size) would outlive it.
    let written = Set(charts.map { $0.0 })
    var removed = 0
    for name in (try? FileManager.default.contentsOfDirectory(atPath: chartsDir)) ?? []
    where name.hasSuffix(".svg") && !written.contains(name) {
      if (try? FileManager.default.removeItem(atPath: "\(chartsDir)/\(name)")) != nil {
        removed += 1
      }
    }
    print(
      "wrote \(out), \(historyPath) and \(charts.count) chart(s) in \(chartsDir)"
        + (removed > 0 ? "; removed \(removed) stale chart(s)" : ""))
    return .ok
  }

  static func loadProfiles(_ dir: String) -> [String: ProfileFile] {
    var newest: [String: ProfileFile] = [:]
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    for name in names where name.hasSuffix(".json") {
      guard let data = FileManager.default.contents(atPath: "\(dir)/\(name)"),
        let p = try? JSONDecoder().decode(ProfileFile.self, from: data),
        p.schema == ProfileFile.currentSchema
      else { continue }
      let key = "\(p.size.rawValue) \(p.id)\(p.cache.map { " cache \($0.geometry)" } ?? "")"
      if let old = newest[key], old.date >= p.date { continue }
      newest[key] = p
    }
    return newest
  }

  /// `charts` as seen from the directory of `file` (both relative to the working directory).
  static func relativePath(from file: String, to dir: String) -> String {
    let fromDir = (file as NSString).deletingLastPathComponent.split(separator: "/")
    let target = dir.split(separator: "/")
    var common = 0
    while common < fromDir.count, common < target.count, fromDir[common] == target[common] {
      common += 1
    }
    let ups = Array(repeating: "..", count: fromDir.count - common)
    let rest = target[common...].map(String.init)
    let parts = ups + rest
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }
}
