import CogBenchCases
import CogBenchSystems
import CogCounters
import Foundation

@MainActor
enum RunCommand {
  static let spec = CommandSpec(
    "run", summary: "measure cases × systems, write a result file (.bench-tmp/runs/)",
    about: """
      Measures every selected case on every selected system and writes a new result file
      DIR/<date>-<size>-<commit>.json (never overwrites). DIR is a scratch folder git
      ignores: a run joins the record (Results/runs) only through `cog-bench render --add`
      (scripts/compare.sh does that), so an ad-hoc run never shows in the record or its
      history. GLOBS: comma-separated names or shell globs (see cog-bench list).
      """,
    options: [
      OptionSpec("cases", "GLOBS", "the cases (default: every case)"),
      OptionSpec("systems", "GLOBS", "the systems (default: every measurable system)"),
      OptionSpec(
        "metrics", "GLOBS",
        "default: every metric but the opt-in cache counters (see cog-bench list); '*' selects them too. When instructions are selected the runner re-runs itself under valgrind's callgrind for them; the cache counters (dataAccesses, d1Misses, llMisses) take one more callgrind process per region, with the cache simulator on (fixed geometry)."
      ),
      .size,
      OptionSpec("samples", "N", "timed samples per case × system (default 15 quick, 40 full)"),
      OptionSpec(
        "warmup", "N", "untimed samples before measuring (default 2; fewer when they are slow)"),
      OptionSpec(
        "time-budget", "S",
        "seconds of timed sampling per case over all systems (default 3 quick, 20 full); sampling stops there once every system has 3 samples"
      ),
      OptionSpec(
        "instructions-budget", "S",
        "estimated seconds for the callgrind phase (default: no limit). Regions that do not fit, estimated from their native median time, are recorded as unavailable with the estimate. Not for gating runs: which regions fit depends on time."
      ),
      OptionSpec(
        "finish-within", "S",
        "seconds for the whole run: the instruction budget becomes what is left after the native phases (minus 15 s)"
      ),
      OptionSpec(
        "jobs", "N",
        "callgrind processes run side by side in the instruction phase (default: one per core, at most 4). Each measures a fixed share of the regions (the same share in every run with the same selection), and the budget applies to each process. Native phases (time, counts) always run alone."
      ),
      OptionSpec(
        "cache-cases", "GLOBS",
        "the cases the cache counters are measured on (default: every selected one; the other results have none). The simulator is slow: scripts/compare.sh selects 'cellx/*' on 'cog*'."
      ),
      OptionSpec(
        "cache-systems", "GLOBS",
        "the systems the cache counters are measured on (as --cache-cases)"),
      OptionSpec(
        "cache-last-level", "BYTES",
        "the simulated last level's size in bytes (default 33554432, the 32 MiB L3; a power of two): 1048576 simulates the 1 MiB L2 as the last level, to count the misses that leave it. The result's counter sources name the geometry; compare cache counters only between equal geometries."
      ),
      OptionSpec("output-dir", "DIR", "where the result file goes (default .bench-tmp/runs)"),
      .allowDebug,
    ],
    notes: """
      Progress goes to stderr; a summary table and the result path to stdout.
      Exit: 0 ok, 1 usage error, failure or a case whose checks failed.
      """)

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    let size = try Selection.size(a["size"])
    let cases = try Selection.cases(a["cases"])
    let systems = try Selection.systems(a["systems"])
    let metrics = try Selection.metrics(a["metrics"])
    let samples = try a.int("samples", default: size == .quick ? 15 : 40, min: 1)
    let warmup = try a.int("warmup", default: 2, min: 0)
    let budgetSeconds = try a.int("time-budget", default: size == .quick ? 3 : 20, min: 0)
    let jobs = try a.int("jobs", default: CallgrindRun.defaultWorkers, min: 1)
    let started = BenchClock.monotonicNanoseconds()
    var instructionBudget: Double?
    var finishWithin: Double?
    if a["instructions-budget"] != nil {
      instructionBudget = Double(try a.int("instructions-budget", default: 0, min: 0))
    }
    if a["finish-within"] != nil {
      finishWithin = Double(try a.int("finish-within", default: 0, min: 0))
    }
    if instructionBudget != nil || finishWithin != nil {
      if !metrics.contains(.wallTime) {
        throw BenchError(
          "--instructions-budget needs wallTime among the metrics (it estimates from it)")
      }
    }
    let cacheMetrics = metrics.filter { $0.usesCacheSimulation }
    let cacheCases = try Selection.cases(a["cache-cases"]).filter { c in
      cases.contains { $0.id == c.id }
    }
    let cacheSystems = try Selection.systems(a["cache-systems"]).filter { s in
      systems.contains { $0.id == s.id }
    }
    if !cacheMetrics.isEmpty && (cacheCases.isEmpty || cacheSystems.isEmpty) {
      // Not an error: scripts select the cache regions once (`scripts/compare.sh`: CellX on
      // `cog*`) whatever cases a partial run measures.
      note(
        "cog-bench: warning: --cache-cases and --cache-systems select no measured case × "
          + "system: \(cacheMetrics.map { $0.rawValue }.joined(separator: ", ")) not measured")
    }
    if cacheMetrics.isEmpty
      && (a["cache-cases"] != nil || a["cache-systems"] != nil || a["cache-last-level"] != nil)
    {
      throw BenchError(
        "--cache-cases, --cache-systems and --cache-last-level need a cache metric in "
          + "--metrics (dataAccesses, d1Misses, llMisses)")
    }
    if a["cache-last-level"] != nil {
      let bytes = try a.int("cache-last-level", default: CacheRun.defaultLastLevelSize, min: 1)
      if let problem = CacheRun.validLastLevelSize(bytes) { throw BenchError(problem) }
      CacheRun.lastLevel.size = bytes
    }
    let outputDir = a["output-dir"] ?? ".bench-tmp/runs"
    if cases.isEmpty { throw BenchError("no cases selected") }
    if systems.isEmpty {
      throw BenchError(
        "none of the selected systems can be measured: "
          + Selection.unavailableSystems(a["systems"]).map { "\($0.key): \($0.value)" }.joined(
            separator: "; "))
    }
    try CogBench.requireMeasurableBuild(allowDebug: a.has("allow-debug"))
    CogBench.ensureDeterministicHashing()

    // A bad output directory fails now, not after minutes of measuring.
    try FileOutput.requireWritableDirectory(outputDir)

    var plan = MeasurePlan(
      cases: cases, systems: systems, size: size, samples: samples, warmupSamples: warmup,
      metrics: Set(metrics))
    plan.timeBudgetNanoseconds = UInt64(budgetSeconds) * 1_000_000_000
    // The checkout as it was when measuring began: the binary was built from it, and files
    // edited during a long run are not what was measured.
    let checkout = RunEnvironment.git()
    let measurer = Measurer(plan: plan)
    var pairs: [(CaseInfo, SystemEntry)] = []
    for c in cases {
      for s in systems where measurer.notApplicable(c, s) == nil { pairs.append((c, s)) }
    }
    measurer.runTiming()
    let work = try RegionRun.makeWorkDirectory()
    defer { try? FileManager.default.removeItem(atPath: work) }
    let countMetrics = metrics.filter { $0.usesCountPhase }
    if !countMetrics.isEmpty {
      let counted = try RegionRun.run(
        pairs, kind: .counts, size: size, metrics: countMetrics, width: jobs,
        workDirectory: work)
      for (_, m) in counted { measurer.merge(m.result) }
    }
    var results = measurer.results
    // Every measured pair has an entry, also when neither time nor counts were selected.
    for (c, s) in pairs where results["\(c.id)@\(s.id)"] == nil {
      results["\(c.id)@\(s.id)"] = measurer.entry(c, s)
    }
    let allocations = AllocationProducer()

    // The cache phase runs before the instructions: a handful of regions the record needs
    // (scripts/compare.sh: CellX × cog*), while the instruction phase takes what is left of a
    // deadline (its estimate runs over on a loaded machine, which left no time for them).
    let cachePairs = pairs.filter { p in
      cacheCases.contains { $0.id == p.0.id } && cacheSystems.contains { $0.id == p.1.id }
    }
    if !cacheMetrics.isEmpty && !cachePairs.isEmpty {
      var left: Double?
      if let finishWithin {
        left = max(0, finishWithin - Double(BenchClock.monotonicNanoseconds() &- started) / 1e9)
      }
      try measureCache(
        cachePairs, metrics: cacheMetrics, size: size, into: &results, secondsLeft: left,
        workers: jobs, workDirectory: work)
    }

    if let finishWithin {
      let elapsed = Double(BenchClock.monotonicNanoseconds() &- started) / 1e9
      let left = max(0, finishWithin - elapsed - 15)
      instructionBudget = min(instructionBudget ?? left, left)
    }
    if metrics.contains(.instructions) {
      try measureInstructions(
        pairs, size: size, into: &results, instructionBudget: instructionBudget, workers: jobs,
        workDirectory: work)
    }

    var sources: [String: String] = [:]
    for m in metrics {
      switch m {
      case .instructions:
        sources[m.rawValue] =
          CallgrindRun.unavailableReason().map { "unavailable: \($0)" }
          ?? "callgrind client requests, Ir (\(Shell.capture("valgrind", ["--version"]) ?? "valgrind"))"
      case .allocations, .allocatedBytes, .peakBytes, .graphBytes:
        sources[m.rawValue] = allocations.sourceDescription
      case .retains, .releases: sources[m.rawValue] = ARCProducer.source
      case .registrars: sources[m.rawValue] = "the system's own count (registrarCount)"
      case .wallTime: sources[m.rawValue] = "CLOCK_MONOTONIC"
      case .cpuTime: sources[m.rawValue] = "CLOCK_THREAD_CPUTIME_ID"
      case .dataAccesses, .d1Misses, .llMisses:
        sources[m.rawValue] = cacheSource(m, cachePairs)
      }
    }
    if metrics.contains(.instructions) {
      let perf = PerfInstructionProducer()
      if case .unavailable(let reason) = perf.availability {
        sources["hardwareInstructions"] = "unavailable: \(reason)"
      } else {
        sources["hardwareInstructions"] = "perf_event_open available (not used for gating)"
      }
    }

    let environment = RunEnvironment.current(allocationSource: allocations.source, git: checkout)
    let date = Date()
    var file = ResultFile(
      schema: ResultFile.currentSchema, tool: "cog-bench", date: isoDate(date), size: size,
      environment: environment, counterSources: sources,
      settings: RunSettings(
        samples: samples, warmupSamples: warmup, metrics: metrics.sorted(),
        systems: systems.map { $0.id },
        instructionProcesses: metrics.contains(.instructions) ? jobs : nil,
        cases: cases.map { $0.id }, regionsInOwnProcesses: true,
        injection: systems.contains { $0.id == InjectedSystem.id }
          ? (try InjectedSystem.injection()).rawValue : nil),
      unavailableSystems: Selection.unavailableSystems(a["systems"]),
      results: results.values.sorted { $0.id < $1.id })
    var storage: [String: StorageFigures] = [:]
    for s in systems { if let probe = s.storage { storage[s.id] = probe() } }
    if !storage.isEmpty { file.storage = storage }
    file.settings.complete = file.partialReason() == nil
    let commit =
      environment.git.commit == "none" ? "nocommit" : String(environment.git.commit.prefix(10))
    let base =
      "\(fileDate(date))-\(size.rawValue)-\(commit)\(environment.git.dirty ? "-dirty" : "")"
    let path = try FileOutput.writeNew(
      try file.encoded(), directory: outputDir, base: base, ext: "json")
    print(SummaryTable.render(file))
    print("wrote \(path)")
    let failed = file.results.filter { !$0.checks.passed }
    if !failed.isEmpty {
      for r in failed {
        note("checks failed: \(r.id): \(r.checks.failures.prefix(3).joined(separator: "; "))")
      }
      throw BenchError("\(failed.count) case × system result(s) failed their checks")
    }
    return .ok
  }

  /// The cache phase: one callgrind process with the cache simulator per chosen pair. Without
  /// valgrind every chosen pair records the cache metrics as unavailable with the reason.
  /// With a deadline (`secondsLeft`), pairs whose estimate does not fit are recorded as
  /// unavailable too, cheapest first as in the instruction phase.
  private static func measureCache(
    _ pairs: [(CaseInfo, SystemEntry)], metrics: [Metric], size: CaseSize,
    into results: inout [String: CaseResult], secondsLeft: Double?, workers: Int,
    workDirectory: String
  ) throws {
    func id(_ p: (CaseInfo, SystemEntry)) -> String { "\(p.0.id)@\(p.1.id)" }
    func mark(_ p: (CaseInfo, SystemEntry), _ reason: String) {
      for m in metrics { results[id(p)]?.metrics[m.rawValue] = .unavailable(m, reason) }
    }
    if let reason = CallgrindRun.unavailableReason() {
      note("cog-bench: warning: cache counters unavailable: \(reason)")
      for p in pairs { mark(p, reason) }
      return
    }
    var chosen = pairs
    if let secondsLeft {
      // About twice an instruction region (the simulator runs over the build too), and a
      // few seconds to start valgrind and build the case uninstrumented.
      var spent = 0.0
      let capacity = max(0, secondsLeft - 15) * Double(max(workers, 1))
      chosen = []
      let estimated = pairs.map { ($0, cacheEstimate($0, results)) }
        .sorted { ($0.1, id($0.0)) < ($1.1, id($1.0)) }
      for (p, seconds) in estimated {
        if spent + seconds <= capacity {
          spent += seconds
          chosen.append(p)
        } else {
          mark(p, "not counted: over the run's deadline (about \(Int(seconds.rounded(.up))) s)")
        }
      }
    }
    note(
      "running \(chosen.count) cache region(s) under callgrind --cache-sim=yes, one process "
        + "each, \(workers) at a time")
    let measured = try RegionRun.run(
      chosen, kind: .cache, size: size, metrics: metrics, width: workers,
      workDirectory: workDirectory)
    for (key, m) in measured {
      guard var r = results[key] else { continue }
      r.merge(m.result)
      results[key] = r
    }
  }

  /// The counter source of a cache metric: the tool, geometry and events, and the pairs.
  static func cacheSource(_ m: Metric, _ pairs: [(CaseInfo, SystemEntry)]) -> String {
    if let reason = CallgrindRun.unavailableReason() { return "unavailable: \(reason)" }
    var cases: [String] = []
    var systems: [String] = []
    for (c, s) in pairs {
      if !cases.contains(c.id) { cases.append(c.id) }
      if !systems.contains(s.id) { systems.append(s.id) }
    }
    let version = Shell.capture("valgrind", ["--version"]) ?? "valgrind"
    let events = (m.cacheEvents ?? []).joined(separator: " + ")
    return "callgrind --cache-sim=yes (\(CacheRun.geometryDescription)) over the "
      + "client-request window, \(events) (\(version)); measured on "
      + cases.joined(separator: ", ") + " × " + systems.joined(separator: ", ")
  }

  /// Estimated seconds of one cache region: starting valgrind and building the case
  /// uninstrumented, then the simulator over the build and the sample. Measured on CellX ×
  /// `cog*` with 2 processes on a loaded 2-core VM: 8–11 s per region for native samples of
  /// 2–20 ms. Cases without a native time count as 1 ms.
  static func cacheEstimate(_ p: (CaseInfo, SystemEntry), _ results: [String: CaseResult])
    -> Double
  {
    let r = results["\(p.0.id)@\(p.1.id)"]
    let native =
      (r?.value(.wallTime)?.median ?? 1e6) * Double(max(r?.iterationsPerSample ?? 1, 1)) / 1e9
    return 6 + native * 300
  }

  private static func measureInstructions(
    _ pairs: [(CaseInfo, SystemEntry)], size: CaseSize, into results: inout [String: CaseResult],
    instructionBudget: Double?, workers: Int, workDirectory: String
  ) throws {
    func id(_ p: (CaseInfo, SystemEntry)) -> String { "\(p.0.id)@\(p.1.id)" }
    if let reason = CallgrindRun.unavailableReason() {
      note("cog-bench: warning: instructions unavailable: \(reason)")
      for p in pairs {
        results[id(p)]?.metrics[Metric.instructions.rawValue] = .unavailable(.instructions, reason)
      }
      return
    }
    var chosen = pairs
    if let budget = instructionBudget {
      // One instrumented sample runs about 60x slower than native, each uninstrumented warm-up
      // sample about 8x, and starting valgrind takes about a second; the build is not counted
      // in the estimate. Cheapest regions first, so that the budget (wall seconds, with
      // `workers` processes side by side) covers as many as it can.
      var estimates: [(index: Int, native: Double, seconds: Double)] = []
      for (k, p) in pairs.enumerated() {
        guard let r = results[id(p)], let median = r.value(.wallTime)?.median else { continue }
        let native = median * Double(max(r.iterationsPerSample, 1)) / 1e9
        estimates.append(
          (k, native, 1 + native * (60 + 8 * Double(MeasurePlan.countedWarmupSamples))))
      }
      estimates.sort { ($0.seconds, id(pairs[$0.index])) < ($1.seconds, id(pairs[$1.index])) }
      var keep: Set<Int> = []
      var spent = 0.0
      let capacity = budget * Double(max(workers, 1))
      for e in estimates {
        if spent + e.seconds <= capacity {
          spent += e.seconds
          keep.insert(e.index)
        } else {
          results[id(pairs[e.index])]?.metrics[Metric.instructions.rawValue] = .unavailable(
            .instructions,
            "not counted: over the instruction budget of \(Int(budget)) s (one sample takes "
              + "\(formatNanoseconds(e.native * 1e9)) natively, about \(Int(e.seconds.rounded(.up))) s "
              + "under callgrind)")
        }
      }
      chosen = pairs.enumerated().filter { keep.contains($0.offset) }.map { $0.element }
      note(
        "instruction phase: \(chosen.count) of \(pairs.count) regions fit the budget of "
          + "\(Int(budget)) s with \(workers) process(es) side by side (estimated "
          + "\(Int(spent / Double(max(workers, 1)))) s)")
    }
    note(
      "running \(chosen.count) instruction region(s) under callgrind, one process each, "
        + "\(workers) at a time (this takes a while)")
    let measured = try RegionRun.run(
      chosen, kind: .instructions, size: size, metrics: [.instructions], width: workers,
      workDirectory: workDirectory)
    for (key, m) in measured {
      guard var r = results[key] else { continue }
      r.merge(m.result)
      results[key] = r
    }
  }
}

func isoDate(_ date: Date) -> String {
  let f = ISO8601DateFormatter()
  f.formatOptions = [.withInternetDateTime]
  f.timeZone = TimeZone(identifier: "UTC")
  return f.string(from: date)
}

func fileDate(_ date: Date) -> String {
  let f = DateFormatter()
  f.locale = Locale(identifier: "en_US_POSIX")
  f.timeZone = TimeZone(identifier: "UTC")
  f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
  return f.string(from: date)
}
