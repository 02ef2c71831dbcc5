import CogBenchCases

/// `cog-bench run`'s options, validated: every usage error is thrown here, before anything
/// is measured (`RunCommand.spec` declares them).
@MainActor
struct RunOptions {
  let size: CaseSize
  let cases: [CaseInfo]
  let systems: [SystemEntry]
  let metrics: [Metric]
  let samples: Int
  let warmup: Int
  let timeBudgetSeconds: Int
  /// Callgrind processes side by side.
  let jobs: Int
  /// Estimated seconds for the instruction phase (`nil`: no limit).
  let instructionBudget: Double?
  /// Seconds for the whole run (`nil`: no deadline).
  let finishWithin: Double?
  let cacheMetrics: [Metric]
  let cacheCases: [CaseInfo]
  let cacheSystems: [SystemEntry]
  /// The simulated last level's size, when given.
  let cacheLastLevel: Int?
  let outputDir: String
  let allowDebug: Bool
  /// The selected systems this build cannot measure, with the reason (recorded in the file).
  let unavailableSystems: [String: String]

  init(_ a: Arguments) throws {
    size = try Selection.size(a["size"])
    cases = try Selection.cases(a["cases"])
    systems = try Selection.systems(a["systems"])
    metrics = try Selection.metrics(a["metrics"])
    samples = try a.int("samples", default: size == .quick ? 15 : 40, min: 1)
    warmup = try a.int("warmup", default: 2, min: 0)
    timeBudgetSeconds = try a.int("time-budget", default: size == .quick ? 3 : 20, min: 0)
    jobs = try a.int("jobs", default: CallgrindRun.defaultWorkers, min: 1)
    instructionBudget =
      a["instructions-budget"] != nil
      ? Double(try a.int("instructions-budget", default: 0, min: 0)) : nil
    finishWithin =
      a["finish-within"] != nil ? Double(try a.int("finish-within", default: 0, min: 0)) : nil
    if (instructionBudget != nil || finishWithin != nil) && !metrics.contains(.wallTime) {
      throw BenchError(
        "--instructions-budget needs wallTime among the metrics (it estimates from it)")
    }
    cacheMetrics = metrics.filter { $0.usesCacheSimulation }
    let cases = cases
    let systems = systems
    cacheCases = try Selection.cases(a["cache-cases"]).filter { c in
      cases.contains { $0.id == c.id }
    }
    cacheSystems = try Selection.systems(a["cache-systems"]).filter { s in
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
      cacheLastLevel = bytes
    } else {
      cacheLastLevel = nil
    }
    outputDir = a["output-dir"] ?? ".bench-tmp/runs"
    allowDebug = a.has("allow-debug")
    unavailableSystems = Selection.unavailableSystems(a["systems"])
    if cases.isEmpty { throw BenchError("no cases selected") }
    if systems.isEmpty {
      throw BenchError(
        "none of the selected systems can be measured: "
          + unavailableSystems.map { "\($0.key): \($0.value)" }.joined(separator: "; "))
    }
  }
}
