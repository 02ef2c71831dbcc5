import CogBenchCases
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `cog-bench`: measures benchmark cases on reactive systems and keeps the record.
/// See swift/Benchmarks/Runner/README.md.
@main
@MainActor
struct CogBench {
  /// The documented commands, in the order `cog-bench --help` lists them.
  static let commands: [CommandSpec] = [
    ListCommand.spec, RunCommand.spec, ProfileCommand.spec, AttributeCommand.spec,
    CheckCommand.spec, ThresholdsCommand.spec, SameCountsCommand.spec, GatePowerCommand.spec,
    MemoryCommand.spec, RenderCommand.spec, CalibrateCommand.spec,
  ]

  static var usage: String {
    var out = """
      usage: cog-bench <command> [options]   (cog-bench <command> --help for details)

      commands:

      """
    for c in commands {
      let name = "  " + c.usage
      out +=
        name.count < 23
        ? name + String(repeating: " ", count: 23 - name.count)
        : name + "\n" + String(repeating: " ", count: 23)
      out += c.summary + "\n"
    }
    return out + """

      exit codes: 0 ok, 1 usage, input or tool error, 2 regression or missed target (check;
      memory: a series not flat),
      3 a run kept out of the record: it lacks counters the record has (render --add),
      4 improvements only (check)
      """
  }

  static func main() {
    // This thread runs no main-queue job: the async cases may drain the main queue here.
    MainActorJobs.isOutsideMainQueue = true
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
      print(usage)
      exit(ExitCode.failure.rawValue)
    }
    arguments.removeFirst()
    let code: ExitCode
    do {
      switch command {
      case "list": code = try ListCommand.main(arguments)
      case "run": code = try RunCommand.main(arguments)
      case "profile": code = try ProfileCommand.main(arguments)
      case "attribute": code = try AttributeCommand.main(arguments)
      case "gate-power": code = try GatePowerCommand.main(arguments)
      case "memory": code = try MemoryCommand.main(arguments)
      case "__memory": code = try MemoryCommand.child(arguments)
      case "__memory-scale": code = try MemoryCommand.scaleChild(arguments)
      case "check": code = try CheckCommand.main(arguments)
      case "thresholds": code = try ThresholdsCommand.main(arguments)
      case "same-counts": code = try SameCountsCommand.main(arguments)
      case "render": code = try RenderCommand.main(arguments)
      case "calibrate": code = try CalibrateCommand.main(arguments)
      case "__region": code = try InternalCommands.region(arguments)
      case "__calibrate-instructions": code = try InternalCommands.calibrateInstructions(arguments)
      case "__stamp-sources": code = try InternalCommands.stampSources(arguments)
      case "--help", "-h", "help":
        print(usage)
        code = .ok
      default:
        throw BenchError("unknown command '\(command)' (cog-bench --help lists the commands)")
      }
    } catch let error as BenchError {
      note("cog-bench: error: \(error.message)")
      code = error.exitCode
    } catch {
      note("cog-bench: error: \(oneLine(error))")
      code = .failure
    }
    exit(code.rawValue)
  }

  /// This executable as it was invoked (quoted), for the commands it suggests: they work
  /// when pasted in the same directory, also when cog-bench is not on PATH.
  static var invocation: String { shellQuoted(CommandLine.arguments.first ?? "cog-bench") }

  /// Refuses builds whose numbers would mislead: internal consistency checks on, or a debug
  /// build (ARC traffic differs from release) unless explicitly allowed.
  static func requireMeasurableBuild(allowDebug: Bool) throws {
    if BuildFacts.internalChecks {
      throw BenchError(
        "this build has COG_INTERNAL_CHECKS: its numbers include invariant checking; rebuild "
          + "without COG_INTERNAL_CHECKS to measure")
    }
    if BuildFacts.configuration == "debug" && !allowDebug {
      throw BenchError(
        "this is a debug build; measure release builds (swift build -c release -Xcc -gdwarf-4) "
          + "or pass --allow-debug for a plumbing check")
    }
  }

  /// Re-executes the current command with SWIFT_DETERMINISTIC_HASHING=1 when it is not set,
  /// so that hash seeds cannot change counts between runs. Returns only when it is set.
  static func ensureDeterministicHashing() {
    if getenv("SWIFT_DETERMINISTIC_HASHING") != nil { return }
    setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
    let path = CallgrindRun.selfPath()
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
    argv.append(nil)
    execv(path, argv)
    note("cog-bench: warning: cannot re-execute with SWIFT_DETERMINISTIC_HASHING=1; continuing")
  }
}

/// Commands used by the runner itself (not documented for users).
@MainActor
enum InternalCommands {
  /// Stamps this binary with the checkout's measured paths (`SourcesStamp`): run by
  /// scripts/release-build.sh in the checkout right after it built the binary.
  static func stampSources(_ arguments: [String]) throws -> ExitCode {
    _ = try Arguments(arguments, valueOptions: [], flagOptions: [], maxPositionals: 0)
    try SourcesStamp.write()
    return .ok
  }

  static func region(_ arguments: [String]) throws -> ExitCode {
    _ = try Arguments(arguments, valueOptions: [], flagOptions: [], maxPositionals: 0)
    try RegionRun.child()
    return .ok
  }

  static func calibrateInstructions(_ arguments: [String]) throws -> ExitCode {
    let a = try Arguments(
      arguments, valueOptions: ["iterations"], flagOptions: [], maxPositionals: 0)
    let n = try a.int("iterations", default: 10_000_000, min: 1)
    Calibration.instructionLoopChild(iterations: n)
    return .ok
  }
}
