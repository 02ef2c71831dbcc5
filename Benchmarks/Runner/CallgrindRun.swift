import CogBenchCases
import CogCounters
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Instruction counts: the runner re-executes itself under callgrind, the child measures one
/// region per case × system (`Measurer.runInstructionRegions`), and the parent reads the
/// `summary:` line of each per-region dump.
@MainActor
enum CallgrindRun {
  struct Outcome {
    /// Region id (`case@system`) → instructions.
    var instructions: [String: CounterReading]
    var regions: [InstructionRegion]
    /// Every case × system the child saw, including those not applicable.
    var entries: [CaseResult]
    /// Region id → dump file (kept while `workDirectory` exists).
    var dumps: [String: String]
    var workDirectory: String
  }

  /// Why instructions cannot be counted here, or nil.
  static func unavailableReason() -> String? {
    if !CallgrindProducer.isCompiled {
      return "built without <valgrind/callgrind.h> (install Debian's valgrind package, rebuild)"
    }
    if Shell.which("valgrind") == nil {
      return "valgrind is not on PATH (apt-get install valgrind)"
    }
    return nil
  }

  /// The path of the running executable.
  static func selfPath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return String(cString: buffer) }
    return CommandLine.arguments[0]
  }

  /// The callgrind child that measures region `caseIndex` × `systemIndex` when `workers`
  /// children run side by side: a fixed assignment (not a balance of estimated costs), so
  /// that each child measures the same regions in the same order in every run and allocating
  /// regions see the same allocator history. Adding the indices spreads each system's
  /// regions, the slow baselines' included, over all children.
  static func worker(caseIndex: Int, systemIndex: Int, workers: Int) -> Int {
    (caseIndex + systemIndex) % max(workers, 1)
  }

  /// How many callgrind children run at once by default: one per core, at most 4 (each child
  /// is single-threaded; instruction counts do not depend on what runs beside them).
  static var defaultWorkers: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

  /// Runs `cases` × `systems` (those in `only`, when given) under callgrind, split over up to
  /// `workers` children that run in parallel (see `worker(caseIndex:systemIndex:workers:)`).
  static func run(
    caseIDs: [String], systemIDs: [String], size: CaseSize, only: Set<String>? = nil,
    workers: Int = 1
  ) throws -> Outcome {
    if let reason = unavailableReason() { throw BenchError(reason) }
    let work = ".bench-tmp/callgrind-\(getpid())-\(BenchClock.monotonicNanoseconds())"
    var shares = [[String]](repeating: [], count: max(workers, 1))
    for (ci, c) in caseIDs.enumerated() {
      for (si, sys) in systemIDs.enumerated() {
        let id = "\(c)@\(sys)"
        if let only, !only.contains(id) { continue }
        shares[worker(caseIndex: ci, systemIndex: si, workers: shares.count)].append(id)
      }
    }
    // One child when nothing is filtered and one worker: its plan lists no region filter.
    let jobs: [(directory: String, only: [String]?)] =
      shares.count == 1 && only == nil
      ? [("\(work)/w0", nil)]
      : shares.enumerated().filter { !$0.element.isEmpty }.map {
        ("\(work)/w\($0.offset)", $0.element)
      }
    for job in jobs {
      try FileManager.default.createDirectory(
        atPath: job.directory, withIntermediateDirectories: true)
    }
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    // jemalloc purges dirty pages on a wall-clock decay schedule, which moves instruction
    // counts of allocating regions from run to run; purge never in the instruction child.
    environment["MALLOC_CONF"] = "dirty_decay_ms:-1,muzzy_decay_ms:-1"
    let valgrind = Shell.which("valgrind")!
    let me = selfPath()
    var inputs: [(arguments: [String], plan: String)] = []
    for job in jobs {
      let plan = ChildPlan(cases: caseIDs, systems: systemIDs, size: size, only: job.only)
      // The plan goes in on stdin and the region list comes back on stdout, so the child's
      // arguments (and with them its stack layout) are the same in every run.
      let planText = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
      let arguments = [
        "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no", "--dump-instr=no",
        "--callgrind-out-file=\(job.directory)/cg.out.%p",
        "--log-file=\(job.directory)/valgrind.log", me, "__instructions",
      ]
      inputs.append((arguments, planText))
    }
    note(
      "running the instruction phase under callgrind in \(jobs.count) process(es) "
        + "(this takes a while)")
    let outputs = Shell.runConcurrently(
      inputs.map { (valgrind, $0.arguments, environment, $0.plan) })
    var regions: [InstructionRegion] = []
    var entries: [String: CaseResult] = [:]
    var instructions: [String: CounterReading] = [:]
    var files: [String: String] = [:]
    for (job, output) in zip(jobs, outputs) {
      guard let o = output else { throw BenchError("cannot start valgrind") }
      guard o.status == 0 else {
        let log =
          (try? String(contentsOfFile: "\(job.directory)/valgrind.log", encoding: .utf8)) ?? ""
        let tail = log.split(separator: "\n").suffix(5).joined(separator: " | ")
        throw BenchError(
          "the callgrind child failed with status \(o.status); valgrind log "
            + "\(job.directory)/valgrind.log: \(tail)")
      }
      guard let child = try? JSONDecoder().decode(ChildOutput.self, from: Data(o.stdout.utf8))
      else { throw BenchError("the callgrind child wrote no region list on its stdout") }
      let dumps = try parseDumps(in: job.directory)
      for r in child.regions {
        if let d = dumps[r.name] {
          instructions[r.id] = .available(d.instructions)
          files[r.id] = d.path
        } else {
          instructions[r.id] = .unavailable("callgrind wrote no dump for region \(r.name)")
        }
      }
      regions += child.regions
      for e in child.entries where entries[e.id] == nil { entries[e.id] = e }
    }
    return Outcome(
      instructions: instructions, regions: regions,
      entries: entries.values.sorted { $0.id < $1.id }, dumps: files, workDirectory: work)
  }

  /// Reads every numbered dump `cg.out.<pid>.<n>` (the final un-numbered program-termination
  /// dump is ignored: its totals are not meaningful) and returns region name → count.
  static func parseDumps(in directory: String) throws -> [String: (instructions: Int, path: String)]
  {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    var result: [String: (Int, String)] = [:]
    for name in names where name.hasPrefix("cg.out.") {
      let parts = name.split(separator: ".")
      guard parts.count == 4 else { continue }
      let path = "\(directory)/\(name)"
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
      var region: String?
      var summary: Int?
      for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        if line.hasPrefix("desc: Trigger: Client Request: ") {
          region = String(line.dropFirst("desc: Trigger: Client Request: ".count))
        } else if line.hasPrefix("summary:") {
          summary = Int(line.dropFirst("summary:".count).trimmingWhitespace())
        }
        if region != nil && summary != nil { break }
      }
      if let region, let summary { result[region] = (summary, path) }
    }
    return result
  }

  /// The `__instructions` child: reads the plan from stdin, measures its regions and writes
  /// the region list to stdout.
  static func child() throws {
    let data = FileHandle.standardInput.readDataToEndOfFile()
    guard let plan = try? JSONDecoder().decode(ChildPlan.self, from: data) else {
      throw BenchError("cannot read the instruction plan from stdin")
    }
    let cases = try plan.cases.map { id in
      guard let c = CaseRegistry.all.info(for: id) else {
        throw BenchError("unknown case \(id)")
      }
      return c
    }
    let systems = try plan.systems.map { id in
      guard let s = SystemCatalog.all.first(where: { $0.id == id }) else {
        throw BenchError("unknown system \(id)")
      }
      return s
    }
    var measurePlan = MeasurePlan(
      cases: cases, systems: systems, size: plan.size, samples: 1,
      warmupSamples: MeasurePlan.countedWarmupSamples, metrics: [.instructions])
    measurePlan.instructionIDs = plan.only.map(Set.init)
    let measurer = Measurer(plan: measurePlan)
    let regions = measurer.runInstructionRegions()
    let output = ChildOutput(
      regions: regions, entries: measurer.results.values.sorted { $0.id < $1.id })
    FileHandle.standardOutput.write(try JSONEncoder().encode(output))
  }

  struct ChildOutput: Codable {
    var regions: [InstructionRegion]
    var entries: [CaseResult]
  }

  struct ChildPlan: Codable {
    var cases: [String]
    var systems: [String]
    var size: CaseSize
    var only: [String]?
  }
}
