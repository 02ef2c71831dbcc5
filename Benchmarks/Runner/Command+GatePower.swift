import CogBenchCases
import Foundation

/// `cog-bench gate-power`: the gate's false-alarm rate on one binary (an A/A series) and the
/// injected regressions it catches, measured with this executable's own `run`, `thresholds
/// update` and `check` in child processes, as `scripts/ci-gate.sh` uses them.
@MainActor
enum GatePowerCommand {
  static let spec = CommandSpec(
    "gate-power",
    summary: "the gate's false alarms (A/A) and injected regressions caught",
    about: """
      Measures the gate's power on a few cases with metrics \(metrics.joined(separator: ",")):
        A/A       the same binary runs N times on system cog; thresholds from the first run;
                  every later run is checked: an exit other than 0 is a false alarm
        injected  system `injected` (Cog plus a cost per iteration, COG_BENCH_INJECT), checked
                  against its own counts without injection: an instruction loop sized to
                  \(percents.map { "\(fixed($0, $0 < 1 ? 1 : 0))%" }.joined(separator: ", ")) of each case's instructions (the loop's cost per
                  iteration calibrated on the case first), one allocation and one retain per
                  iteration; caught when check exits 2 with a regression of that metric
      """,
    options: [
      OptionSpec("runs", "N", "A/A runs (default 8, at least 2)"),
      OptionSpec("cases", "LIST", "the cases (default \(defaultCases.joined(separator: ",")))"),
      .size,
      OptionSpec("output-dir", "DIR", "where the result goes (default Results/gate-power)"),
      .allowDebug,
    ],
    notes: """
      Writes DIR/<date>-<size>-<commit>[-dirty].json, which `cog-bench render` shows as the
      record's "Gate power". Needs valgrind and a release build (scripts/gate-power.sh builds
      one). It runs N + 4 runs of the cases and one run per case and instruction level: 3–6
      minutes with the defaults on 2 cores.
      Exit: 0 measured (whatever it found), 1 error.
      """)

  static let defaultCases = ["kairo/deep", "cellx/1000", "sbench/createSignals"]
  static let metrics = ["instructions", "allocations", "retains"]
  static let percents = [0.1, 0.5, 1, 2, 5]
  /// The calibration loop: long enough that its cost per iteration dwarfs the call's.
  static let calibrationLoop = 100_000

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    let runs = try a.int("runs", default: 8, min: 2)
    let cases = try Selection.cases(a["cases"] ?? defaultCases.joined(separator: ",")).map {
      $0.id
    }
    let size = try Selection.size(a["size"])
    try CogBench.requireMeasurableBuild(allowDebug: a.has("allow-debug"))
    let debug = a.has("allow-debug") ? ["--allow-debug"] : []
    let date = Date()
    let work = ".bench-tmp/gate-power/\(fileDate(date))"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let me = CallgrindRun.selfPath()

    /// Runs this executable; stdout and the exit status.
    func child(_ args: [String], inject: String? = nil) throws -> (Int32, String) {
      var env = ProcessInfo.processInfo.environment
      env["SWIFT_DETERMINISTIC_HASHING"] = "1"
      if let inject { env[InjectedSystem.variable] = inject }
      guard let o = Shell.run(me, args, environment: env) else {
        throw BenchError("cannot start \(me)")
      }
      return (o.status, o.stdout + o.stderr)
    }
    var serial = 0
    /// One `run`; the result file it wrote.
    func measure(_ system: String, _ cases: [String], inject: String? = nil) throws -> (
      String, ResultFile
    ) {
      serial += 1
      let (status, out) = try child(
        [
          "run", "--size", size.rawValue, "--cases", cases.joined(separator: ","), "--systems",
          system, "--metrics", metrics.joined(separator: ","), "--output-dir",
          "\(work)/\(serial)",
        ] + debug, inject: inject)
      guard status == 0,
        let line = out.split(separator: "\n").last(where: { $0.hasPrefix("wrote ") })
      else {
        throw BenchError(
          "run \(system) \(cases.joined(separator: ",")) failed (exit \(status)): "
            + out.split(separator: "\n").suffix(3).joined(separator: " / "))
      }
      let path = String(line.dropFirst("wrote ".count))
      let file = try ResultFile.read(path)
      for r in file.results where r.value(.instructions)?.value == nil {
        throw BenchError(
          "\(r.id): instructions not counted (\(r.value(.instructions)?.unavailable ?? "?")); "
            + "gate-power needs valgrind")
      }
      return (path, file)
    }
    func thresholds(from path: String, to file: String) throws {
      let (status, out) = try child(
        ["thresholds", "update", path, "--thresholds", file, "--merge", "--allow-dirty"] + debug)
      guard status == 0 else { throw BenchError("thresholds update \(path) failed: \(out)") }
    }
    func check(_ path: String, _ t: String, system: String) throws -> (Int32, [String]) {
      let (status, out) = try child(
        [
          "check", path, "--thresholds", t, "--systems", system, "--metrics",
          metrics.joined(separator: ","),
        ] + debug)
      let lines = out.split(separator: "\n").map(String.init).filter {
        $0.hasPrefix("REGRESSION") || $0.hasPrefix("IMPROVEMENT")
      }
      return (status, lines)
    }

    // A/A on cog.
    note("gate-power: A/A, \(runs) runs of cog on \(cases.joined(separator: ", "))")
    let (first, _) = try measure(SystemCatalog.referenceID, cases)
    let aaThresholds = "\(work)/aa-thresholds.json"
    try thresholds(from: first, to: aaThresholds)
    var aa = GatePowerFile.AASeries(runs: runs, checks: 0, falseAlarms: 0, alarms: [])
    for k in 2...runs {
      let (path, _) = try measure(SystemCatalog.referenceID, cases)
      let (status, lines) = try check(path, aaThresholds, system: SystemCatalog.referenceID)
      aa.checks += 1
      if status != 0 {
        aa.falseAlarms += 1
        aa.alarms +=
          (lines.isEmpty ? ["run \(k): exit \(status)"] : lines.map { "run \(k): \($0)" })
      }
    }
    aa.alarms = Array(aa.alarms.prefix(20))

    // Injected: thresholds from the system without injection, a calibration of the loop.
    note("gate-power: injected regressions")
    let (clean, cleanFile) = try measure(InjectedSystem.id, cases, inject: "none")
    let injThresholds = "\(work)/injected-thresholds.json"
    try thresholds(from: clean, to: injThresholds)
    let (_, calibration) = try measure(
      InjectedSystem.id, cases, inject: "instructions:\(calibrationLoop)")
    var outcomes: [GatePowerFile.InjectionOutcome] = []
    for c in cases {
      guard let base = cleanFile.result(c, InjectedSystem.id),
        let baseIr = base.value(.instructions)?.value,
        let calIr = calibration.result(c, InjectedSystem.id)?.value(.instructions)?.value
      else { throw BenchError("\(c)@\(InjectedSystem.id) was not measured") }
      let loops = loopSizes(
        baseline: baseIr, calibrated: calIr, calibrationLoop: calibrationLoop,
        iterations: max(base.iterationsPerSample, 1), percents: percents)
      for (p, n) in zip(percents, loops) {
        let (path, file) = try measure(InjectedSystem.id, [c], inject: "instructions:\(n)")
        let (status, lines) = try check(path, injThresholds, system: InjectedSystem.id)
        outcomes.append(
          GatePowerFile.InjectionOutcome(
            kind: "instructions", caseID: c, targetPercent: p, loop: n, baseline: baseIr,
            measured: file.result(c, InjectedSystem.id)?.value(.instructions)?.value,
            caught: caught(status, lines, c, .instructions), exitCode: status))
      }
    }
    for (kind, metric) in [("allocation", Metric.allocations), ("retain", .retains)] {
      let (path, file) = try measure(InjectedSystem.id, cases, inject: kind)
      let (status, lines) = try check(path, injThresholds, system: InjectedSystem.id)
      for c in cases {
        outcomes.append(
          GatePowerFile.InjectionOutcome(
            kind: kind, caseID: c,
            baseline: cleanFile.result(c, InjectedSystem.id)?.value(metric)?.value,
            measured: file.result(c, InjectedSystem.id)?.value(metric)?.value,
            caught: caught(status, lines, c, metric), exitCode: status))
      }
    }

    let env = RunEnvironment.current(allocationSource: .interposer)
    let result = GatePowerFile(
      schema: GatePowerFile.currentSchema, date: isoDate(date), size: size,
      commit: env.git.commit, dirty: env.git.dirty, toolchain: env.toolchain,
      configuration: BuildFacts.configuration, cases: cases, metrics: metrics, aa: aa,
      injections: outcomes)
    var data = try ResultFile.encoder().encode(result)
    data.append(0x0A)
    let path = try FileOutput.writeNew(
      data, directory: a["output-dir"] ?? "Results/gate-power",
      base: "\(fileDate(date))-\(size.rawValue)-\(env.git.commit.prefix(10))"
        + (env.git.dirty ? "-dirty" : ""), ext: "json")
    for line in PerfMarkdown.gatePowerSection((path, result)).dropFirst(2) { print(line) }
    print("wrote \(path)")
    return .ok
  }

  /// The loop iterations per case iteration that add `percents` of `baseline` instructions
  /// per sample, from a calibration run that added a loop of `calibrationLoop`.
  static func loopSizes(
    baseline: Int, calibrated: Int, calibrationLoop: Int, iterations: Int, percents: [Double]
  ) -> [Int] {
    let perLoop = Double(calibrated - baseline) / Double(iterations * calibrationLoop)
    guard perLoop > 0 else { return percents.map { _ in 0 } }
    return percents.map {
      Int((Double(baseline) * $0 / 100 / (Double(iterations) * perLoop)).rounded())
    }
  }

  /// Caught: `check` exited 2 with a regression of `metric` on the case.
  static func caught(_ status: Int32, _ lines: [String], _ caseID: String, _ metric: Metric)
    -> Bool
  {
    status == 2
      && lines.contains {
        $0.hasPrefix("REGRESSION")
          && $0.contains("\(caseID)@\(InjectedSystem.id) \(metric.rawValue):")
      }
  }
}
