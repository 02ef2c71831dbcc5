import CogCounters
import Foundation

@MainActor
enum CalibrateCommand {
  static let spec = CommandSpec(
    "calibrate", summary: "known workloads that must give exact counts (release builds)",
    about: """
      Runs known workloads and checks that the counters give exact, repeatable counts:
      an empty region counts nothing; 1000 class instances are 1000 allocations and no ARC
      traffic; copying 1000 references is 1000 retains; releasing them is 1000 releases; a loop
      over an Int buffer in a final class is 0 allocations, 0 retains, 0 releases. Each is run
      N times. Unless --skip-instructions, a fixed loop then runs in N separate processes
      under callgrind and must give identical instruction counts.
      """,
    options: [
      OptionSpec("runs", "N", "how many times each workload runs (default 3)"),
      OptionSpec("skip-instructions", "leaves out the instruction check (no valgrind needed)"),
      .allowDebug,
    ],
    notes: "Release builds only (debug builds add ARC traffic). Exit: 0 all held, 1 otherwise.")

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    let runs = try a.int("runs", default: 3, min: 1)
    try CogBench.requireMeasurableBuild(allowDebug: a.has("allow-debug"))
    CogBench.ensureDeterministicHashing()
    let (rows, countersPassed) = Calibration.runCounters(runs: runs)
    for row in rows { print(row) }
    var passed = countersPassed
    let perf = PerfInstructionProducer()
    if case .unavailable(let r) = perf.availability {
      print("hardware instructions: unavailable: \(r)")
    }

    if !a.has("skip-instructions") {
      if let reason = CallgrindRun.unavailableReason() {
        print("instructions: unavailable: \(reason)")
        passed = false
      } else {
        var loops: [Int] = []
        var empties: [Int] = []
        for run in 1...runs {
          let (loop, empty) = try instructionRun(index: run)
          loops.append(loop)
          empties.append(empty)
        }
        let same = Set(loops).count == 1 && Set(empties).count == 1
        if !same { passed = false }
        print(
          "instructions, fixed loop of 10000000 iterations: "
            + loops.map(String.init).joined(separator: " / ") + "  " + (same ? "ok" : "FAIL"))
        print(
          "instructions, empty region (toggle overhead): "
            + empties.map(String.init).joined(separator: " / "))
      }
    }
    print(passed ? "calibration passed" : "calibration FAILED")
    return passed ? .ok : .failure
  }

  private static func instructionRun(index: Int) throws -> (Int, Int) {
    let work = ".bench-tmp/calibrate-\(getpid())-\(index)"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    guard
      let o = Shell.run(
        Shell.which("valgrind")!,
        [
          "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no", "--dump-instr=no",
          "--callgrind-out-file=\(work)/cg.out.%p", "--log-file=\(work)/valgrind.log",
          CallgrindRun.selfPath(), "__calibrate-instructions",
        ], environment: environment)
    else { throw BenchError("cannot start valgrind") }
    guard o.status == 0 else {
      throw BenchError("the callgrind calibration child failed with status \(o.status)")
    }
    let dumps = try CallgrindRun.parseDumps(in: work)
    guard let loop = dumps["calibration-loop"], let empty = dumps["calibration-empty"] else {
      throw BenchError("callgrind wrote no calibration dumps in \(work)")
    }
    return (loop.instructions, empty.instructions)
  }
}
