import CogBenchCases
import Foundation

/// A saved profile: where the instructions of one case × system go, by function.
struct ProfileFile: Codable {
  static let currentSchema = 1
  var schema: Int
  var date: String
  var caseID: String
  var system: String
  var size: CaseSize
  var commit: String
  var toolchain: String
  /// Instructions of the profiled region (one sample).
  var totalInstructions: Int
  var iterationsPerSample: Int
  /// Self cost, heaviest first.
  var functions: [ProfiledFunction]

  var id: String { "\(caseID)@\(system)" }
}

struct ProfiledFunction: Codable {
  var instructions: Int
  /// Percent of `totalInstructions`.
  var share: Double
  /// Demangled (simplified) where `swift demangle` could.
  var function: String
  var file: String
}

@MainActor
enum ProfileCommand {
  static let help = """
    usage: cog-bench profile <case> [--system ID] [--size quick|full] [--top N]
                             [--output-dir DIR] [--no-write] [--keep-dump]

    Runs one case on one system (default: the first system, see cog-bench list) under
    callgrind, one sample after warm-up, and prints the top N functions (default 15) by
    self instruction count (read from the callgrind dump; names demangled by swift demangle;
    the dump is kept under .bench-tmp/ with --keep-dump for callgrind_annotate).
    Writes DIR/<case>@<system>-<size>-<date>.json (default DIR: Results/profiles) for
    `cog-bench render`, unless --no-write. Exit: 0 ok, 1 error.
    """

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try Arguments(
      arguments, valueOptions: ["system", "size", "top", "output-dir"],
      flagOptions: ["no-write", "allow-debug", "keep-dump"], maxPositionals: 1)
    if a.has("help") {
      print(help)
      return .ok
    }
    guard a.positionals.count == 1 else {
      throw BenchError("profile needs exactly one case id (see cog-bench list)")
    }
    let caseID = a.positionals[0]
    guard let info = CaseRegistry.all.info(for: caseID) else {
      throw BenchError("unknown case '\(caseID)' (cog-bench list shows the cases)")
    }
    let systems = try Selection.systems(a["system"])
    guard systems.count >= 1 else { throw BenchError("no system selected") }
    let system = systems[0]
    let size = try Selection.size(a["size"])
    let top = try a.int("top", default: 15, min: 1)
    try CogBench.requireMeasurableBuild(allowDebug: a.has("allow-debug"))
    let id = "\(caseID)@\(system.id)"
    if let na = system.bound(caseID)?.notApplicableReason {
      throw BenchError("\(id) is not applicable: \(na)")
    }
    let work = try RegionRun.makeWorkDirectory()
    let keep = a.has("keep-dump")
    defer { if !keep { try? FileManager.default.removeItem(atPath: work) } }
    let measured = try RegionRun.run(
      [(info, system)], kind: .instructions, size: size, metrics: [.instructions], width: 1,
      workDirectory: work)
    guard let m = measured[id], let dump = m.dump, let total = m.instructions?.value else {
      let why = measured[id].map { $0.result.notApplicable ?? $0.result.checks.failures.first }
      throw BenchError("\(id) was not measured\((why ?? nil).map { ": \($0)" } ?? "")")
    }
    let region = m.result
    let functions = try Self.top(dump: dump, total: total, top: top)
    print("\(id) (\(size.rawValue)): \(total) Ir for \(region.iterationsPerSample) iterations")
    print("share".leftPadding(8) + "Ir".leftPadding(14) + "  function")
    for f in functions {
      print(
        fixed(f.share, 2).leftPadding(7) + "%" + String(f.instructions).leftPadding(14)
          + "  \(f.function)")
    }
    let selfTotal = functions.reduce(0) { $0 + $1.instructions }
    print("(top \(functions.count) functions: \(selfTotal) Ir of \(total))")
    if keep { print("dump kept: callgrind_annotate --inclusive=yes --tree=caller \(dump)") }
    if !region.checks.passed {
      throw BenchError(
        "\(id): case checks failed: \(region.checks.failures.prefix(3).joined(separator: "; "))")
    }
    if !a.has("no-write") {
      let env = RunEnvironment.current(allocationSource: .interposer)
      let date = Date()
      let file = ProfileFile(
        schema: ProfileFile.currentSchema, date: isoDate(date), caseID: caseID, system: system.id,
        size: size, commit: env.git.commit + (env.git.dirty ? " (dirty)" : ""),
        toolchain: env.toolchain, totalInstructions: total,
        iterationsPerSample: region.iterationsPerSample, functions: functions)
      var data = try ResultFile.encoder().encode(file)
      data.append(0x0A)
      let safe = id.replacingOccurrences(of: "/", with: "_")
      let path = try FileOutput.writeNew(
        data, directory: a["output-dir"] ?? "Results/profiles",
        base: "\(safe)-\(size.rawValue)-\(fileDate(date))", ext: "json")
      print("wrote \(path)")
    }
    return .ok
  }

  /// The heaviest functions of a dump by self cost.
  static func top(dump: String, total: Int, top: Int) throws -> [ProfiledFunction] {
    guard let text = try? String(contentsOfFile: dump, encoding: .utf8) else {
      throw BenchError("cannot read the callgrind dump \(dump)")
    }
    let rows = Array(CallgrindProfile.selfCosts(text).prefix(top))
    let names = demangle(rows.map { $0.function })
    return rows.enumerated().map { k, r in
      ProfiledFunction(
        instructions: r.instructions,
        share: total > 0 ? Double(r.instructions) * 100 / Double(total) : 0,
        function: names[k], file: r.file)
    }
  }

  /// `swift demangle --simplified`, line by line; the names unchanged when it is missing.
  static func demangle(_ names: [String]) -> [String] {
    guard !names.isEmpty, let swift = Shell.which("swift"),
      let o = Shell.run(
        swift, ["demangle", "--simplified"], stdin: names.joined(separator: "\n") + "\n"),
      o.status == 0
    else { return names }
    let lines = o.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return lines.count >= names.count ? Array(lines.prefix(names.count)) : names
  }
}
