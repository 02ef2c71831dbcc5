import CogBenchCases
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

@MainActor
enum RenderCommand {
  static let spec = CommandSpec(
    "render [RESULT.json ...]",
    summary: "impl/perf.md, impl/perf-history.md and SVG charts from result files",
    maxPositionals: .max,
    about: """
      Renders the performance record from result files only (never typed numbers). Without
      RESULT arguments it reads every *.json in --results-dir. The newest COMPLETE run per
      size is current: every case, every system and every metric (what scripts/compare.sh
      measures; an unavailable counter is a gap, not a partial run). Partial runs (an ad-hoc
      `run --cases …`) never become the record: they are listed in the history, marked
      partial.
      """,
    options: [
      OptionSpec("results-dir", "DIR", "the result files (default Results/runs)"),
      OptionSpec(
        "out", "PATH",
        "the record (default impl/perf.md): environment, a table per family (case × system) with ratios against Cog's default system (id \"cog\") measured in the same run, counts, the object-graph model per recomputed node against swift-state-graph (issue 17's figures, quoted), profiler attribution from --profiles, gaps, and the prose of --notes"
      ),
      OptionSpec(
        "history", "PATH", "the numbers of older result files (default impl/perf-history.md)"),
      OptionSpec("charts", "DIR", "one SVG bar chart per family (default impl/charts)"),
      OptionSpec(
        "notes", "PATH",
        "included verbatim: decisions, trade-offs, withdrawals (default impl/perf-notes.md)"
      ),
      OptionSpec(
        "profiles", "DIR",
        "the committed profiles the record attributes from (default Results/profiles)"),
      OptionSpec(
        "thresholds-dir", "DIR",
        "the thresholds files (default Results/thresholds): the record's \"History\" (cog's gated counts at each measured commit, from every result file of a clean tree) flags changes beyond their tolerances"
      ),
      OptionSpec(
        "gate-power-dir", "DIR",
        "where `cog-bench gate-power` writes (default Results/gate-power): the newest file there is the record's \"Gate power\""
      ),
      OptionSpec(
        "memory-dir", "DIR",
        "where `cog-bench memory` writes (default Results/memory): the newest file there is the record's \"Memory across samples\""
      ),
      OptionSpec(
        "diagnostics-off-dir", "DIR",
        "where scripts/diagnostics-off-cost.sh writes (default Results/diagnostics-off): its newest pair of files (one commit, as shipped and with COG_NO_DIAGNOSTICS) is the record's \"Diagnostics off\""
      ),
      OptionSpec(
        "m6-dir", "DIR",
        "where `scripts/compare.sh m6` writes (default Results/m6): the newest result file there is the record's \"M6 comparison\" (the layout variants side by side; a partial run by design, never the main record)"
      ),
      OptionSpec(
        "add", "RESULT.json",
        "a new complete run (scripts/compare.sh writes one to .bench-tmp/runs/): copied into --results-dir, then rendered as the record. Refused (exit 3, nothing copied or written) when it lacks a counter the current record has (instructions not counted: no valgrind, or past a deadline; a counter that became unavailable). A partial run is never added (exit 1)."
      ),
      OptionSpec(
        "add-m6", "RESULT.json",
        "a new M6 run (scripts/compare.sh m6 writes one to .bench-tmp/m6/): copied into --m6-dir and rendered as the record's M6 section; refused (exit 3, nothing copied or written) when it lacks a counter the current M6 run has"
      ),
      OptionSpec("force", "with --add or --add-m6: adds a run that lacks counters, on purpose"),
    ],
    notes: """
      The record, the history and the charts directory are written aside and swapped in
      together: when one cannot be written, none changes (charts this render did not write
      are gone with the old directory).
      Exit: 0 ok, 1 error (an unreadable result file, an output that cannot be written, or no
      complete run: nothing is written), 3 --add refused: the run lacks counters the record has.
      """)

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    let out = a["out"] ?? "impl/perf.md"
    let historyPath = a["history"] ?? "impl/perf-history.md"
    let chartsDir = a["charts"] ?? "impl/charts"
    let notesPath = a["notes"] ?? "impl/perf-notes.md"
    let profilesDir = a["profiles"] ?? "Results/profiles"
    let resultsDir = a["results-dir"] ?? "Results/runs"
    let m6Dir = a["m6-dir"] ?? "Results/m6"
    var m6 = try PerfMarkdown.newestResult(in: m6Dir)
    let thresholdsDir = a["thresholds-dir"] ?? "Results/thresholds"
    let gatePower = try GatePowerFile.newest(in: a["gate-power-dir"] ?? "Results/gate-power")
    let memory = try MemoryFile.newest(in: a["memory-dir"] ?? "Results/memory")
    let diagnosticsOff = try PerfMarkdown.diagnosticsOffPair(
      in: a["diagnostics-off-dir"] ?? "Results/diagnostics-off")
    if a.has("force") && a["add"] == nil && a["add-m6"] == nil {
      throw BenchError("--force goes with --add or --add-m6")
    }
    if a["add"] != nil && a["add-m6"] != nil {
      throw BenchError("--add and --add-m6 are two renders: give one of them")
    }
    if a["add"] != nil && !a.positionals.isEmpty {
      throw BenchError("--add renders --results-dir; it takes no RESULT arguments")
    }
    var paths = a.positionals
    if paths.isEmpty {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: resultsDir)) ?? []
      paths = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
        "\(resultsDir)/\($0)"
      }
    }
    var files = try paths.map { ($0, try ResultFile.read($0)) }
    var added: String?
    if let addPath = a["add"] {
      let (path, file) = try add(
        addPath, to: resultsDir, records: files, force: a.has("force"))
      added = path
      files.append((path, file))
    }
    if let addPath = a["add-m6"] {
      let file = try ResultFile.read(addPath)
      let path = try admit(
        addPath, file, to: m6Dir, record: m6, what: "the M6 comparison", option: "--add-m6",
        force: a.has("force"))
      added = path
      m6 = (path, file)
    }
    do {
      try render(
        files, out: out, historyPath: historyPath, chartsDir: chartsDir, notesPath: notesPath,
        profilesDir: profilesDir, m6: m6, thresholdsDir: thresholdsDir, gatePower: gatePower,
        memory: memory, diagnosticsOff: diagnosticsOff)
    } catch {
      // The added run is not left behind in the record's home without its record.
      if let added { unlink(added) }
      throw error
    }
    if let added { print("added \(added) to the record") }
    return .ok
  }

  /// The newest complete file per size, ties broken by path.
  static func currentRecords(_ files: [(String, ResultFile)]) -> [CaseSize: (String, ResultFile)] {
    var current: [CaseSize: (String, ResultFile)] = [:]
    for (p, f) in files where f.partialReason() == nil {
      if let c = current[f.size], (c.1.date, c.0) >= (f.date, p) { continue }
      current[f.size] = (p, f)
    }
    return current
  }

  /// Copies the run at `path` into `dir` when it may become the record: complete, and with
  /// every counter the current record of its size has (unless `force`). Returns its new path.
  static func add(
    _ path: String, to dir: String, records: [(String, ResultFile)], force: Bool
  ) throws -> (String, ResultFile) {
    let file = try ResultFile.read(path)
    if let partial = file.partialReason() {
      throw BenchError(
        "\(path) is a partial run (\(partial)); partial runs never become the record; "
          + "nothing added")
    }
    let record = currentRecords(records)[file.size]
    return (
      try admit(
        path, file, to: dir, record: record, what: "the record", option: "--add", force: force),
      file
    )
  }

  /// Copies `file` (read from `path`) into `dir`, the home of `what`, unless it lacks a
  /// counter that `record`, the current one, has (exit 3; `force` copies it anyway). Returns
  /// the copy's path. `option` is the render option that adds it (named in the refusal).
  static func admit(
    _ path: String, _ file: ResultFile, to dir: String, record: (String, ResultFile)?,
    what: String, option: String, force: Bool
  ) throws -> String {
    let name = (path as NSString).lastPathComponent
    guard name.hasSuffix(".json") else { throw BenchError("\(path) is not a .json file") }
    if FileManager.default.fileExists(atPath: "\(dir)/\(name)") {
      throw BenchError(
        "\(dir)/\(name) exists: the run is in the record's home already (render without "
          + "--add renders it); nothing added")
    }
    if let (recordPath, record) = record, !force {
      let missing = file.missingCounters(comparedWith: record)
      if !missing.isEmpty {
        let list = missing.map {
          "\($0.metric) in \($0.regions) of \($0.of) regions (\($0.reason))"
        }
        throw BenchError(
          "\(path) was not added to \(what): it lacks counters that the current run "
            + "(\(recordPath)) has: \(list.joined(separator: "; ")); the record is unchanged. "
            + "Measure where they can be counted (scripts/compare.sh installs valgrind as root; "
            + "COG_BENCH_DEADLINE gives the instruction phase more time), or make this run "
            + "\(what) on purpose: \(CogBench.invocation) render \(option) \(shellQuoted(path)) "
            + "--force",
          exitCode: .notRecorded)
      }
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try FileOutput.writeNew(
      data, directory: dir, base: String(name.dropLast(".json".count)), ext: "json")
  }

  static func render(
    _ files: [(String, ResultFile)], out: String, historyPath: String, chartsDir: String,
    notesPath: String, profilesDir: String, m6: (String, ResultFile)?,
    thresholdsDir: String = "Results/thresholds", gatePower: (String, GatePowerFile)? = nil,
    memory: (String, MemoryFile)? = nil,
    diagnosticsOff: (shipped: (String, ResultFile), off: (String, ResultFile))? = nil
  ) throws {
    if files.isEmpty { throw BenchError("no result files to render (run cog-bench run first)") }
    let current = currentRecords(files)
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
    // The history flags changes beyond the gate's tolerances (the defaults without a file).
    var tolerances: [CaseSize: ThresholdFile] = [:]
    for size in current.keys {
      let path = "\(thresholdsDir)/\(size.rawValue).json"
      if FileManager.default.fileExists(atPath: path) {
        tolerances[size] = try ThresholdFile.read(path)
      }
    }

    var charts: [(String, Data)] = []
    let chartsRelative = relativePath(from: out, to: chartsDir)
    // The previous record of each size: the newest older complete run, for the trend.
    let previous = history.filter { $0.1.partialReason() == nil }
    let md = PerfMarkdown.render(
      current: ordered, profiles: profiles, m6: m6, previous: previous, all: files,
      tolerances: tolerances, gatePower: gatePower, memory: memory,
      diagnosticsOff: diagnosticsOff, notes: notes,
      notesPath: notesPath, chartsRelative: chartsRelative, charts: &charts)
    let historyMD = PerfMarkdown.renderHistory(history, currentCount: ordered.count)
    // Charts of an earlier record (another family, metric or size) go with the old directory.
    let written = Set(charts.map { $0.0 })
    let stale = ((try? FileManager.default.contentsOfDirectory(atPath: chartsDir)) ?? [])
      .filter { $0.hasSuffix(".svg") && !written.contains($0) }
    try FileOutput.replaceTogether(
      files: [(out, Data(md.utf8)), (historyPath, Data(historyMD.utf8))],
      directory: (chartsDir, charts))
    print(
      "wrote \(out), \(historyPath) and \(charts.count) chart(s) in \(chartsDir)"
        + (stale.isEmpty ? "" : "; removed \(stale.count) stale chart(s)"))
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
