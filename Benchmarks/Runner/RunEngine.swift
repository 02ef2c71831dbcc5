import CogBenchCases
import CogBenchSystems
import CogCounters
import Foundation

/// `cog-bench run`'s engine: measures the selected cases × systems in phases (time and
/// native counts in this process, then counts, cache counters and instructions in child
/// processes, `RegionRun`) and assembles the result file. `RunCommand` parses, validates
/// (`RunOptions`) and writes; this measures.
@MainActor
struct RunEngine {
  let options: RunOptions
  /// When the command started: `--finish-within` counts from here.
  let started: UInt64

  /// The result of the whole run and the date it was assembled (its file name's).
  func measure() throws -> (ResultFile, Date) {
    var plan = MeasurePlan(
      cases: options.cases, systems: options.systems, size: options.size, samples: options.samples,
      warmupSamples: options.warmup,
      metrics: Set(options.metrics))
    plan.timeBudgetNanoseconds = UInt64(options.timeBudgetSeconds) * 1_000_000_000
    // The checkout as it was when measuring began: the binary was built from it, and files
    // edited during a long run are not what was measured.
    let checkout = RunEnvironment.git()
    let measurer = Measurer(plan: plan)
    var pairs: [(CaseInfo, SystemEntry)] = []
    for c in options.cases {
      for s in options.systems where measurer.notApplicable(c, s) == nil { pairs.append((c, s)) }
    }
    measurer.runTiming()
    let work = try RegionRun.makeWorkDirectory()
    defer { try? FileManager.default.removeItem(atPath: work) }
    let countMetrics = options.metrics.filter { $0.usesCountPhase }
    if !countMetrics.isEmpty {
      let counted = try RegionRun.run(
        pairs, kind: .counts, size: options.size, metrics: countMetrics, width: options.jobs,
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
      options.cacheCases.contains { $0.id == p.0.id }
        && options.cacheSystems.contains { $0.id == p.1.id }
    }
    if !options.cacheMetrics.isEmpty && !cachePairs.isEmpty {
      var left: Double?
      if let finishWithin = options.finishWithin {
        left = max(0, finishWithin - Double(BenchClock.monotonicNanoseconds() &- started) / 1e9)
      }
      try measureCache(
        cachePairs, metrics: options.cacheMetrics, size: options.size, into: &results,
        secondsLeft: left,
        workers: options.jobs, workDirectory: work)
    }

    var instructionBudget = options.instructionBudget
    if let finishWithin = options.finishWithin {
      let elapsed = Double(BenchClock.monotonicNanoseconds() &- started) / 1e9
      let left = max(0, finishWithin - elapsed - 15)
      instructionBudget = min(instructionBudget ?? left, left)
    }
    if options.metrics.contains(.instructions) {
      try measureInstructions(
        pairs, size: options.size, into: &results, instructionBudget: instructionBudget,
        workers: options.jobs,
        workDirectory: work)
    }

    var sources: [String: String] = [:]
    for m in options.metrics {
      switch m {
      case .instructions:
        sources[m.rawValue] =
          CallgrindRun.unavailableReason().map { "unavailable: \($0)" }
          ?? "callgrind client requests, Ir, \(InstructionScope.withoutAllocatorMarker) (malloc, "
          + "free and kin toggled off) (\(Shell.capture("valgrind", ["--version"]) ?? "valgrind"))"
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
    if options.metrics.contains(.instructions) {
      let perf = PerfInstructionProducer()
      if case .unavailable(let reason) = perf.availability {
        sources["hardwareInstructions"] = "unavailable: \(reason)"
      } else {
        sources["hardwareInstructions"] = "perf_event_open available (not used for gating)"
      }
    }

    let environment = RunEnvironment.current(allocationSource: allocations.source, git: checkout)
    if let provenance = environment.provenanceNote { note(provenance) }
    let date = Date()
    var file = ResultFile(
      schema: ResultFile.currentSchema, tool: "cog-bench", date: isoDate(date), size: options.size,
      environment: environment, counterSources: sources,
      settings: RunSettings(
        samples: options.samples, warmupSamples: options.warmup, metrics: options.metrics.sorted(),
        systems: options.systems.map { $0.id },
        instructionProcesses: options.metrics.contains(.instructions) ? options.jobs : nil,
        cases: options.cases.map { $0.id }, regionsInOwnProcesses: true,
        injection: options.systems.contains { $0.id == InjectedSystem.id }
          ? (try InjectedSystem.injection()).rawValue : nil),
      unavailableSystems: options.unavailableSystems,
      results: results.values.sorted { $0.id < $1.id })
    var storage: [String: StorageFigures] = [:]
    for s in options.systems { if let probe = s.storage { storage[s.id] = probe() } }
    if !storage.isEmpty { file.storage = storage }
    file.settings.complete = file.partialReason() == nil
    return (file, date)
  }

  /// The cache phase: one callgrind process with the cache simulator per chosen pair. Without
  /// valgrind every chosen pair records the cache metrics as unavailable with the reason.
  /// With a deadline (`secondsLeft`), pairs whose estimate does not fit are recorded as
  /// unavailable too, cheapest first as in the instruction phase.
  private func measureCache(
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
  func cacheSource(_ m: Metric, _ pairs: [(CaseInfo, SystemEntry)]) -> String {
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
  func cacheEstimate(_ p: (CaseInfo, SystemEntry), _ results: [String: CaseResult])
    -> Double
  {
    let r = results["\(p.0.id)@\(p.1.id)"]
    let native =
      (r?.value(.wallTime)?.median ?? 1e6) * Double(max(r?.iterationsPerSample ?? 1, 1)) / 1e9
    return 6 + native * 300
  }

  private func measureInstructions(
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
