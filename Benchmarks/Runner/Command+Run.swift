import CogBenchCases
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
    let started = BenchClock.monotonicNanoseconds()
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    let options = try RunOptions(a)
    if let bytes = options.cacheLastLevel { CacheRun.lastLevel.size = bytes }
    try CogBench.requireMeasurableBuild(allowDebug: options.allowDebug)
    CogBench.ensureDeterministicHashing()
    // A bad output directory fails now, not after minutes of measuring.
    try FileOutput.requireWritableDirectory(options.outputDir)

    let (file, date) = try RunEngine(options: options, started: started).measure()
    let environment = file.environment
    let commit =
      environment.git.commit == "none" ? "nocommit" : String(environment.git.commit.prefix(10))
    let base =
      "\(fileDate(date))-\(options.size.rawValue)-\(commit)\(environment.git.dirty ? "-dirty" : "")"
    let path = try FileOutput.writeNew(
      try file.encoded(), directory: options.outputDir, base: base, ext: "json")
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
