import CogBenchCases
import CogBenchSystems
import CogCounters
import Foundation

/// `cog-bench memory`: resident memory across the samples of a case, as the time phase runs
/// them (`beforeSample`, which drops the last sample's state, then the sample's iterations),
/// each case × system in a child process of its own so that no other case's memory is in it.
@MainActor
enum MemoryCommand {
  static let spec = CommandSpec(
    "memory",
    summary: "resident memory across samples (flat once warm?), descriptor bytes",
    about: """
      Measures the process's resident memory (RSS, /proc/self/statm; jemalloc without decay,
      so freed pages leave at once) after every sample of each case on each system, one child
      process per case × system. A series is flat when, after the first --warmup samples, no
      sample is more than \(fixed(tolerance, 0))% away from the first warm one. Also records the bytes
      of Cog's descriptor objects (a manual Cog<Int>; an automatic one with its behavior),
      and, in a child process of its own, the bytes per state at --scale.
      """,
    options: [
      OptionSpec("cases", "LIST", "the cases (default \(defaultCases.joined(separator: ",")))"),
      OptionSpec("systems", "LIST", "the systems (default cog)"),
      OptionSpec("size", "quick|full", "the case size (default full)"),
      OptionSpec("samples", "N", "samples per series (default 24)"),
      OptionSpec("warmup", "N", "samples before the series must be flat (default 4)"),
      OptionSpec(
        "scale", "N",
        "bytes per state at N sources plus N computeds each reading one source (default 1000000; 0 skips it)"
      ),
      OptionSpec("output-dir", "DIR", "where the result goes (default Results/memory)"),
      .allowDebug,
    ],
    notes: """
      Writes DIR/<date>-<size>-<commit>[-dirty].json, which `cog-bench render` shows as the
      record's "Memory across samples". Linux only.
      Exit: 0 measured and every series flat, 2 a series not flat, 1 error.
      """)

  static let defaultCases = [
    "sbench/createSignals", "sbench/createComputations/create1to1", "cellx/1000", "cellx/5000",
  ]
  static let tolerance = 5.0

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    let cases = try Selection.cases(a["cases"] ?? defaultCases.joined(separator: ","))
    let systems = try Selection.systems(a["systems"] ?? SystemCatalog.referenceID)
    let size = try a["size"].map { try Selection.size($0) } ?? .full
    let samples = try a.int("samples", default: 24, min: 2)
    let warmup = try a.int("warmup", default: 4, min: 0)
    let scaleStates = try a.int("scale", default: 1_000_000, min: 0)
    if warmup + 2 > samples {
      throw BenchError(
        "--samples \(samples) leaves fewer than two samples after --warmup \(warmup)")
    }
    try CogBench.requireMeasurableBuild(allowDebug: a.has("allow-debug"))
    _ = try MemoryFile.residentBytes()
    let me = CallgrindRun.selfPath()
    let date = Date()
    var series: [MemoryFile.Series] = []
    let pairs = cases.flatMap { c in systems.map { (c, $0) } }
    for (k, (c, s)) in pairs.enumerated() {
      note("[memory \(k + 1)/\(pairs.count)] \(c.id)@\(s.id)")
      // jemalloc returns freed pages at once (no decay): the resident set is then what the
      // process holds, not what the allocator kept after a sample's state died.
      var environment = ProcessInfo.processInfo.environment
      environment["MALLOC_CONF"] = "dirty_decay_ms:0,muzzy_decay_ms:0"
      guard
        let o = Shell.run(
          me, ["__memory", c.id, s.id, size.rawValue, String(samples)], environment: environment)
      else { throw BenchError("cannot start \(me)") }
      if o.status == 3 { continue }  // not applicable to this system
      guard o.status == 0, let data = o.stdout.data(using: .utf8),
        let one = try? JSONDecoder().decode(MemoryFile.Series.self, from: data)
      else {
        throw BenchError(
          "the memory process of \(c.id)@\(s.id) failed (exit \(o.status)): "
            + o.stderr.split(separator: "\n").suffix(2).joined(separator: " / "))
      }
      series.append(one)
    }
    if series.isEmpty { throw BenchError("no selected case applies to the selected systems") }
    var scale: MemoryFile.Scale?
    if scaleStates > 0 {
      note("[memory scale] \(scaleStates) sources + \(scaleStates) computeds on cog")
      var environment = ProcessInfo.processInfo.environment
      environment["MALLOC_CONF"] = "dirty_decay_ms:0,muzzy_decay_ms:0"
      guard
        let o = Shell.run(me, ["__memory-scale", String(scaleStates)], environment: environment),
        o.status == 0, let data = o.stdout.data(using: .utf8),
        let one = try? JSONDecoder().decode(MemoryFile.Scale.self, from: data)
      else {
        throw BenchError("the memory scale process failed: cannot measure bytes per state")
      }
      scale = one
    }

    let env = RunEnvironment.current(allocationSource: .interposer)
    let sizes = StorageProbe.cogDescriptorBytes()
    let result = MemoryFile(
      schema: MemoryFile.currentSchema, date: isoDate(date), size: size,
      commit: env.git.commit, dirty: env.git.dirty, toolchain: env.toolchain,
      configuration: BuildFacts.configuration,
      machine: "\(env.machine.cpuModel), \(env.machine.cores) cores, \(env.machine.kernel)",
      warmupSamples: warmup, tolerancePercent: tolerance,
      descriptors: MemoryFile.DescriptorBytes(
        manualCog: sizes.manual, automaticCog: sizes.automatic),
      series: series, scale: scale)
    var data = try ResultFile.encoder().encode(result)
    data.append(0x0A)
    let path = try FileOutput.writeNew(
      data, directory: a["output-dir"] ?? "Results/memory",
      base: "\(fileDate(date))-\(size.rawValue)-\(env.git.commit.prefix(10))"
        + (env.git.dirty ? "-dirty" : ""), ext: "json")
    for line in PerfMarkdown.memorySection((path, result)).dropFirst(2) { print(line) }
    print("wrote \(path)")
    let flat = series.allSatisfy { ($0.drift(warmup: warmup) ?? 0) <= tolerance }
    return flat ? .ok : .regression
  }

  /// The `__memory-scale` child: `<n>`; builds `StorageProbe.statesAtScale(n)` and prints the
  /// bytes per state as JSON (`MemoryFile.Scale`).
  static func scaleChild(_ arguments: [String]) throws -> ExitCode {
    guard arguments.count == 1, let n = Int(arguments[0]), n > 0 else {
      throw BenchError("__memory-scale takes <states per kind>")
    }
    let allocations = AllocationProducer()
    allocations.reset()
    allocations.hook()
    let phases = try StorageProbe.statesAtScale(n) {
      (try MemoryFile.residentBytes(), allocations.snapshot().liveBytes)
    }
    allocations.unhook()
    let states = 2 * n
    var heap: Double?
    var split: MemoryFile.HeapSplit?
    var why: String?
    if let b = phases.before.1.value, let s = phases.afterSources.1.value,
      let c = phases.afterComputeds.1.value, let a = phases.after.1.value
    {
      heap = Double(a - b) / Double(states)
      split = MemoryFile.HeapSplit(
        perSource: Double(s - b) / Double(n), perComputed: Double(c - s) / Double(n),
        contextPerState: Double(a - c) / Double(states))
    } else {
      why = phases.after.1.unavailableReason ?? phases.before.1.unavailableReason ?? "not counted"
    }
    let scale = MemoryFile.Scale(
      states: states,
      residentBytesPerState: Double(phases.after.0 - phases.before.0) / Double(states),
      heapBytesPerState: heap, heapUnavailable: why, heapSplit: split)
    FileHandle.standardOutput.write(try JSONEncoder().encode(scale))
    return .ok
  }

  /// The `__memory` child: `<case> <system> <size> <samples>`; prints the series as JSON.
  /// Exit 3 when the system cannot express the case.
  static func child(_ arguments: [String]) throws -> ExitCode {
    guard arguments.count == 4, let samples = Int(arguments[3]),
      let c = CaseRegistry.all.info(for: arguments[0]),
      let s = SystemCatalog.entry(arguments[1]),
      let size = CaseSize(rawValue: arguments[2])
    else { throw BenchError("__memory takes <case> <system> <size> <samples>") }
    let measurer = Measurer(
      plan: MeasurePlan(
        cases: [c], systems: [s], size: size, samples: samples, warmupSamples: 0,
        metrics: []))
    guard let p = measurer.prepare(c, s) else { return .notRecorded }
    var resident: [Int] = []
    for _ in 0..<samples {
      p.case.beforeSample?()
      runIterations(p.case.iterate, p.case.iterationsPerSample)
      resident.append(try MemoryFile.residentBytes())
    }
    measurer.finish(c, s, p, phase: "memory")
    if p.checks.failureCount > 0 {
      throw BenchError("\(c.id)@\(s.id): \(p.checks.failureCount) check(s) failed")
    }
    let one = MemoryFile.Series(
      caseID: c.id, system: s.id, iterationsPerSample: p.case.iterationsPerSample,
      residentBytes: resident)
    FileHandle.standardOutput.write(try JSONEncoder().encode(one))
    return .ok
  }
}
