import CogBenchCases
import CogCounters
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Every count is taken in a process of its own: one `cog-bench __region` child per case ×
/// system for the counted sample (natively) and one per case × system for the instruction
/// sample (under callgrind). A region therefore runs after exactly the same work in every run
/// whatever else is selected, and the counts of `scripts/compare.sh` (every system, time
/// first) equal those of `scripts/ci-gate.sh` (the `cog*` systems, no time) for one binary.
///
/// Before, the counts ran in the process that had just timed every case: descriptor ids,
/// runtime caches and allocator state carried over from one region to the next, and
/// `cog/peak-memory-1000` counted 6,638 allocations after the time phase against 5,638
/// without it (Cog formatted its default labels at declaration; with ids past six digits the
/// label no longer fitted a small string). A process per region rules out the whole class.
///
/// What a child sees is fixed, because under callgrind even the lengths of paths move the
/// instructions of regions that allocate (measured: `cog/key-churn` counted 2,779,815 from
/// `/tmp/p1` and 2,780,015 from a longer folder, same binary): the run's work directory is
/// `/tmp/cog-bench-XXXXXX` (a fixed length wherever the clone is), the children run a copy
/// of the runner placed there, with that directory as their working directory, a fixed
/// argument vector and a fixed environment (`childEnvironment`); the plan comes on stdin and
/// the result goes to stdout, both files in the work directory.
@MainActor
enum RegionRun {
  enum Kind: String, Codable, Sendable {
    case counts
    case instructions
    /// Callgrind with its cache simulator (`CacheRun`): the cache metrics.
    case cache

    /// True for the kinds that run under valgrind.
    var usesValgrind: Bool { self != .counts }
  }

  /// What one child measures.
  struct Plan: Codable {
    var caseID: String
    var system: String
    var size: CaseSize
    var kind: Kind
    var metrics: [Metric]
  }

  /// What the parent gets back for one region.
  struct Measured {
    var result: CaseResult
    /// Instructions of the region (`.instructions` regions only).
    var instructions: CounterReading?
    /// The callgrind dump (`.instructions` and `.cache` regions), while the work directory
    /// exists.
    var dump: String?
  }

  /// The callgrind dump name of a region (one region per process).
  static let dumpName = "cog-bench-region"

  /// Environment variables a child inherits from the runner (when set); everything else in
  /// its environment is fixed, so that the environment of the shell that started the run
  /// cannot move a count.
  static let inheritedVariables = [
    "LD_LIBRARY_PATH", InjectedSystem.variable, "COG_FAKE_CLOCK_BASE_NS", "COG_FAKE_CLOCK_STEP_NS",
  ]

  /// A library the children load first (their `LD_PRELOAD`; the runner does not load it):
  /// scripts/clock-check.sh's fake clock (`scripts/fake-clock.c`, set by the two
  /// `COG_FAKE_CLOCK_*` variables above), which checks that no count depends on the values
  /// a clock returns.
  static let childPreloadVariable = "COG_BENCH_CHILD_PRELOAD"

  /// glibc picks its `memcpy`, `memset`, `strlen`, … by CPU features (IFUNCs), and the
  /// choice moves the instructions of regions that allocate or copy: `cog/peak-memory-1000`
  /// counted 8,482,791 with this machine's features and 8,348,098 with AVX2, ERMS and FSRM
  /// masked, as on an older CPU. Masking every optional feature glibc 2.36 selects by makes
  /// it take the baseline x86-64 (SSE2) versions on any machine, so the counts do not
  /// depend on which CPU the CI machine has (time is measured in the parent, unaffected).
  static let baselineCPUTunables =
    "glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512CD,-AVX512BW,-AVX512DQ,-AVX512VL,-ERMS,-FSRM,"
    + "-SSSE3,-SSE4_1,-SSE4_2,-POPCNT,-BMI1,-BMI2,-LZCNT,-MOVBE,-FMA,-F16C,-RTM,"
    + "-Fast_Unaligned_Load,-Fast_Unaligned_Copy,-AVX_Fast_Unaligned_Load,-Prefer_No_VZEROUPPER,"
    + "-Fast_Rep_String"

  static func childEnvironment() -> [String] {
    // jemalloc purges dirty pages on a wall-clock decay schedule, which would move the
    // instructions of allocating regions from run to run: never purge in a child.
    var environment = [
      "SWIFT_DETERMINISTIC_HASHING=1", "MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1",
      "GLIBC_TUNABLES=\(baselineCPUTunables)",
    ]
    for name in inheritedVariables {
      if let value = getenv(name) { environment.append("\(name)=\(String(cString: value))") }
    }
    if let preload = getenv(childPreloadVariable) {
      environment.append("LD_PRELOAD=\(String(cString: preload))")
    }
    return environment
  }

  /// The valgrind arguments of an instruction child writing into `directory`.
  static func callgrindArguments(directory: String) -> [String] {
    [
      "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no", "--dump-instr=no",
      "--callgrind-out-file=\(directory)/cg.out", "--log-file=\(directory)/valgrind.log",
    ] + allocatorToggles
  }

  /// Collection stops inside the allocator's entry points: a region counts the instructions
  /// of Cog, the Swift runtime and the case, and not the allocator's, whose paths depend on
  /// what its caches and arenas hold, which differs with what else the binary holds
  /// (`cog/boundary-turn-100` and `sbench/createComputations/create1to4` on two layouts
  /// counted 228 instructions apart, all inside jemalloc, with another variant compiled
  /// beside them: impl/perf-notes.md, stop 37). Allocations and bytes are counted apart.
  static let allocatorToggles = [
    "malloc", "free", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
    "malloc_usable_size",
  ].map { "--toggle-collect=\($0)" }

  /// A new work directory `/tmp/cog-bench-XXXXXX` (not `$TMPDIR`: the length of every path
  /// a child sees must not depend on the machine) holding a copy of the runner, `cog-bench`,
  /// which the children execute.
  static func makeWorkDirectory() throws -> String {
    var template = Array("/tmp/cog-bench-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else {
      throw BenchError(
        "cannot create a work directory in /tmp: \(String(cString: strerror(errno)))")
    }
    let work = String(cString: template)
    do {
      try FileManager.default.copyItem(atPath: CallgrindRun.selfPath(), toPath: "\(work)/cog-bench")
    } catch {
      try? FileManager.default.removeItem(atPath: work)
      throw BenchError("cannot copy the runner into \(work): \(oneLine(error))")
    }
    return work
  }

  /// Measures every pair in its own child, `width` at a time. Not-applicable pairs must be
  /// filtered out by the caller. Progress goes to stderr.
  static func run(
    _ pairs: [(CaseInfo, SystemEntry)], kind: Kind, size: CaseSize, metrics: [Metric],
    width: Int, workDirectory: String
  ) throws -> [String: Measured] {
    let valgrind: String?
    if kind.usesValgrind {
      if let reason = CallgrindRun.unavailableReason() { throw BenchError(reason) }
      valgrind = Shell.which("valgrind")
    } else {
      valgrind = nil
    }
    let me = "\(workDirectory)/cog-bench"
    let environment = childEnvironment()
    var jobs: [ChildProcess.Job] = []
    var directories: [String] = []
    for (k, (c, s)) in pairs.enumerated() {
      let dir = "\(workDirectory)/\(kind.rawValue)-\(fixedWidth(k, 5))"
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      let plan = Plan(caseID: c.id, system: s.id, size: size, kind: kind, metrics: metrics)
      try JSONEncoder().encode(plan).write(to: URL(fileURLWithPath: "\(dir)/plan.json"))
      let job: ChildProcess.Job
      if let valgrind {
        let tool =
          kind == .cache
          ? CacheRun.arguments(directory: dir) : callgrindArguments(directory: dir)
        job = ChildProcess.Job(
          executable: valgrind, argv: ["valgrind"] + tool + [me, "__region"],
          environment: environment, directory: workDirectory, stdin: "\(dir)/plan.json",
          stdout: "\(dir)/out.json", stderr: "\(dir)/err.txt")
      } else {
        job = ChildProcess.Job(
          executable: me, argv: ["cog-bench", "__region"], environment: environment,
          directory: workDirectory, stdin: "\(dir)/plan.json", stdout: "\(dir)/out.json",
          stderr: "\(dir)/err.txt")
      }
      jobs.append(job)
      directories.append(dir)
    }
    let ids = pairs.map { "\($0.0.id)@\($0.1.id)" }
    let total = pairs.count
    final class Progress: @unchecked Sendable { var done = 0 }
    let progress = Progress()
    let label = kind.rawValue
    let outcomes = ChildProcess.runAll(jobs, width: width) { i, _ in
      progress.done += 1
      note("[\(label) \(progress.done)/\(total)] \(ids[i])")
    }
    var measured: [String: Measured] = [:]
    for (k, (c, s)) in pairs.enumerated() {
      measured[ids[k]] = collect(
        c, s, kind: kind, directory: directories[k], outcome: outcomes[k], metrics: metrics)
    }
    return measured
  }

  /// Reads one child's output; a child that failed is recorded as failed checks with every
  /// metric it was to measure unavailable (never as a count).
  private static func collect(
    _ c: CaseInfo, _ s: SystemEntry, kind: Kind, directory: String,
    outcome: ChildProcess.Outcome, metrics: [Metric]
  ) -> Measured {
    let id = "\(c.id)@\(s.id)"
    var problem: String?
    switch outcome {
    case .cannotStart(let reason): problem = reason
    case .exited(let status):
      if status != 0 {
        let err = (try? String(contentsOfFile: "\(directory)/err.txt", encoding: .utf8)) ?? ""
        let lines = err.split(separator: "\n").filter { !$0.isEmpty }
        let tail = lines.suffix(2).joined(separator: " | ")
        problem =
          "the \(kind.rawValue) process of \(id) exited with status \(status)"
          + (tail.isEmpty ? "" : ": \(tail)")
        if kind.usesValgrind {
          // The work directory is removed when the run ends: say here what valgrind said.
          let log = (try? String(contentsOfFile: "\(directory)/valgrind.log", encoding: .utf8))
          problem! += ": " + valgrindDiagnosis(log: log ?? "")
        }
      }
    }
    var output: CaseResult?
    if problem == nil {
      let data = FileManager.default.contents(atPath: "\(directory)/out.json") ?? Data()
      output = try? JSONDecoder().decode(CaseResult.self, from: data)
      if output == nil { problem = "the \(kind.rawValue) process of \(id) wrote no result" }
    }
    guard var result = output, problem == nil else {
      var failed = CaseResult(
        id: id, caseID: c.id, family: c.family, system: s.id, notApplicable: nil,
        iterationsPerSample: 0, checks: CheckOutcome(passed: false, failures: [problem!]),
        metrics: [:])
      for m in metrics { failed.metrics[m.rawValue] = .unavailable(m, problem!) }
      return Measured(
        result: failed, instructions: kind == .instructions ? .unavailable(problem!) : nil)
    }
    guard kind.usesValgrind, result.notApplicable == nil else {
      return Measured(result: result)
    }
    if kind == .cache {
      let dumps = (try? CacheRun.parseEventDumps(in: directory)) ?? [:]
      for m in metrics where m.usesCacheSimulation {
        guard let events = dumps[dumpName]?.events else {
          result.metrics[m.rawValue] = .unavailable(
            m, "callgrind wrote no cache dump for \(id) in \(directory)")
          continue
        }
        switch CacheRun.reading(m, events) {
        case .success(let n): result.metrics[m.rawValue] = .count(m, .available(n))
        case .failure(let e): result.metrics[m.rawValue] = .unavailable(m, e.message)
        }
      }
      return Measured(result: result, dump: dumps[dumpName]?.path)
    }
    let dumps = (try? CallgrindRun.parseDumps(in: directory)) ?? [:]
    if let d = dumps[dumpName] {
      result.metrics[Metric.instructions.rawValue] = .count(
        .instructions, .available(d.instructions))
      return Measured(result: result, instructions: .available(d.instructions), dump: d.path)
    }
    let reason = "callgrind wrote no dump for \(id) in \(directory)"
    result.metrics[Metric.instructions.rawValue] = .unavailable(.instructions, reason)
    return Measured(result: result, instructions: .unavailable(reason))
  }

  /// The `__region` child: reads its plan from stdin, measures the one region, writes the
  /// case result as JSON to stdout.
  static func child() throws {
    let data = FileHandle.standardInput.readDataToEndOfFile()
    guard let plan = try? JSONDecoder().decode(Plan.self, from: data) else {
      throw BenchError("cannot read the region plan from stdin")
    }
    guard let c = CaseRegistry.all.info(for: plan.caseID) else {
      throw BenchError("unknown case \(plan.caseID)")
    }
    guard let s = SystemCatalog.entry(plan.system) else {
      throw BenchError("unknown system \(plan.system)")
    }
    let measurer = Measurer(
      plan: MeasurePlan(
        cases: [c], systems: [s], size: plan.size, samples: 1,
        warmupSamples: MeasurePlan.countedWarmupSamples, metrics: Set(plan.metrics)))
    switch plan.kind {
    case .counts: try measurer.countRegion(c, s)
    case .instructions: try measurer.instructionRegion(c, s)
    case .cache: try measurer.cacheRegion(c, s)
    }
    FileHandle.standardOutput.write(try JSONEncoder().encode(measurer.entry(c, s)))
  }
}

/// `n` in decimal, zero-padded to `width` digits.
func fixedWidth(_ n: Int, _ width: Int) -> String {
  let digits = String(n)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// What a failed callgrind child's log says, in one line: a known cause with its remedy, or
/// the log's last lines.
func valgrindDiagnosis(log: String) -> String {
  if log.contains("unhandled dwarf2 abbrev form") || log.contains("Possibly corrupted debuginfo") {
    return "valgrind cannot read the runner's debug info (DWARF 5, from the C targets); build "
      + "it with `swift build -c release -Xcc -gdwarf-4` as scripts/ci-gate.sh does"
  }
  let lines = log.split(separator: "\n").map {
    $0.replacing(#/^==\d+== ?/#, with: "").trimmingCharacters(in: .whitespaces)
  }.filter { !$0.isEmpty }
  if lines.isEmpty { return "valgrind wrote no log" }
  return "valgrind: " + lines.suffix(3).joined(separator: " | ")
}
