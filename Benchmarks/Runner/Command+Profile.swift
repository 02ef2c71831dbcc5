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
  /// Self cost, heaviest first (by instructions; by last-level misses in a cache profile).
  var functions: [ProfiledFunction]
  /// A cache profile's (`--cache`) simulated geometry and region totals; nil in an
  /// instruction profile (and in files written before cache profiles existed, which decode
  /// unchanged: the field is optional, so the schema did not change).
  var cache: CacheTotals?

  var id: String { "\(caseID)@\(system)" }
}

/// What a cache profile's region did in the simulated caches (`CacheRun`'s geometry).
struct CacheTotals: Codable, Equatable {
  var geometry: String
  var dataAccesses: Int
  var d1Misses: Int
  var llMisses: Int
}

struct ProfiledFunction: Codable {
  var instructions: Int
  /// Percent of `totalInstructions`.
  var share: Double
  /// Demangled (simplified) where `swift demangle` could.
  var function: String
  var file: String
  /// Instructions of the function and its callees; absent in files written before it was
  /// recorded (the field is optional, so the schema did not change).
  var inclusive: Int?
  /// A cache profile's self counts (reads and writes together); nil in instruction profiles.
  var dataAccesses: Int?
  var d1Misses: Int?
  var llMisses: Int?
}

@MainActor
enum ProfileCommand {
  static let spec = CommandSpec(
    "profile <case>",
    summary: "one case under callgrind: the top functions by instruction share",
    maxPositionals: 1,
    about: """
      Runs one case on one system under callgrind, one sample after warm-up, and prints the
      top N functions by self instruction count (read from the callgrind dump; names
      demangled by swift demangle).
      """,
    options: [
      OptionSpec("system", "ID", "the system (default: the first system, see cog-bench list)"),
      .size,
      OptionSpec("top", "N", "functions shown (default 15)"),
      OptionSpec(
        "cache",
        "a cache profile: the same sample with callgrind's cache simulator on (the geometry of `run`'s cache counters), functions ranked by the last-level misses they cause, with their first-level misses and data accesses beside them"
      ),
      OptionSpec(
        "cache-last-level", "BYTES",
        "the simulated last level's size in bytes (implies --cache; as `run --cache-last-level`: 1048576 counts the misses that leave the L2)"
      ),
      OptionSpec(
        "output-dir", "DIR",
        "where the profile file goes (default Results/profiles): DIR/<case>@<system>-<size>-<date>.json, or …-<size>-cache-<date>.json for a cache profile, for `cog-bench render`"
      ),
      OptionSpec("no-write", "prints the profile and writes no file"),
      OptionSpec(
        "keep-dump", "keeps the callgrind dump under .bench-tmp/ (for callgrind_annotate)"),
      .allowDebug,
    ],
    notes: "Exit: 0 ok, 1 error.")

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
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
    let cache = a.has("cache") || a["cache-last-level"] != nil
    if a["cache-last-level"] != nil {
      let bytes = try a.int("cache-last-level", default: CacheRun.defaultLastLevelSize, min: 1)
      if let problem = CacheRun.validLastLevelSize(bytes) { throw BenchError(problem) }
      CacheRun.lastLevel.size = bytes
    }
    try CogBench.requireMeasurableBuild(allowDebug: a.has("allow-debug"))
    let id = "\(caseID)@\(system.id)"
    let keep = a.has("keep-dump")
    let (region, total, functions, dump) = try sample(
      info, system: system, size: size, top: top, cache: cache, keepDump: keep)
    var totals: CacheTotals?
    if cache {
      totals = try Self.cacheTotals(region, geometry: CacheRun.geometryDescription, id: id)
    }
    print("\(id) (\(size.rawValue)): \(total) Ir for \(region.iterationsPerSample) iterations")
    if let totals {
      print(
        "simulated caches: \(totals.geometry); \(totals.dataAccesses) data accesses, "
          + "\(totals.d1Misses) D1 misses, \(totals.llMisses) LL misses")
      print(
        "LL share".leftPadding(9) + "LL misses".leftPadding(12) + "D1 misses".leftPadding(12)
          + "Ir".leftPadding(12) + "  function")
      for f in functions {
        let ll = f.llMisses ?? 0
        let share = totals.llMisses > 0 ? Double(ll) * 100 / Double(totals.llMisses) : 0
        print(
          fixed(share, 2).leftPadding(8) + "%" + String(ll).leftPadding(12)
            + String(f.d1Misses ?? 0).leftPadding(12) + String(f.instructions).leftPadding(12)
            + "  \(f.function)")
      }
      let selfTotal = functions.reduce(0) { $0 + ($1.llMisses ?? 0) }
      print("(top \(functions.count) functions: \(selfTotal) LL misses of \(totals.llMisses))")
    } else {
      print("share".leftPadding(8) + "Ir".leftPadding(14) + "  function")
      for f in functions {
        print(
          fixed(f.share, 2).leftPadding(7) + "%" + String(f.instructions).leftPadding(14)
            + "  \(f.function)")
      }
      let selfTotal = functions.reduce(0) { $0 + $1.instructions }
      print("(top \(functions.count) functions: \(selfTotal) Ir of \(total))")
    }
    if keep { print("dump kept: callgrind_annotate --inclusive=yes --tree=caller \(dump)") }
    if !region.checks.passed {
      throw BenchError(
        "\(id): case checks failed: \(region.checks.failures.prefix(3).joined(separator: "; "))")
    }
    if !a.has("no-write") {
      let date = Date()
      let file = Self.file(
        caseID: caseID, system: system.id, size: size, total: total,
        iterations: region.iterationsPerSample, functions: functions, cache: totals, date: date)
      var data = try ResultFile.encoder().encode(file)
      data.append(0x0A)
      let safe = id.replacingOccurrences(of: "/", with: "_")
      let path = try FileOutput.writeNew(
        data, directory: a["output-dir"] ?? "Results/profiles",
        base: "\(safe)-\(size.rawValue)\(cache ? "-cache" : "")-\(fileDate(date))", ext: "json")
      print("wrote \(path)")
    }
    return .ok
  }

  /// One sample of a case on a system under callgrind (with `cache`, the cache simulator
  /// on), as `profile` takes it: the region as measured, its instructions, the `top` heaviest
  /// functions and the dump's path (removed unless `keepDump`).
  static func sample(
    _ info: CaseInfo, system: SystemEntry, size: CaseSize, top: Int, cache: Bool,
    keepDump: Bool
  ) throws -> (region: CaseResult, total: Int, functions: [ProfiledFunction], dump: String) {
    let id = "\(info.id)@\(system.id)"
    if let na = system.bound(info.id)?.notApplicableReason {
      throw BenchError("\(id) is not applicable: \(na)")
    }
    let work = try RegionRun.makeWorkDirectory()
    defer { if !keepDump { try? FileManager.default.removeItem(atPath: work) } }
    let cacheMetrics: [Metric] = [.dataAccesses, .d1Misses, .llMisses]
    let measured = try RegionRun.run(
      [(info, system)], kind: cache ? .cache : .instructions, size: size,
      metrics: cache ? cacheMetrics : [.instructions], width: 1, workDirectory: work)
    guard let m = measured[id], let dump = m.dump else {
      let why = measured[id].map { $0.result.notApplicable ?? $0.result.checks.failures.first }
      throw BenchError("\(id) was not measured\((why ?? nil).map { ": \($0)" } ?? "")")
    }
    if !cache && m.instructions?.value == nil {
      throw BenchError("\(id): callgrind counted no instructions (\(dump))")
    }
    let profile = try Self.top(dump: dump, total: m.instructions?.value, top: top, cache: cache)
    return (m.result, profile.total, profile.functions, dump)
  }

  /// The profile file of a sample taken now, on this tree.
  static func file(
    caseID: String, system: String, size: CaseSize, total: Int, iterations: Int,
    functions: [ProfiledFunction], cache: CacheTotals?, date: Date
  ) -> ProfileFile {
    let env = RunEnvironment.current(allocationSource: .interposer)
    return ProfileFile(
      schema: ProfileFile.currentSchema, date: isoDate(date), caseID: caseID, system: system,
      size: size, commit: env.git.commit + (env.git.dirty ? " (dirty)" : ""),
      toolchain: env.toolchain, totalInstructions: total, iterationsPerSample: iterations,
      functions: functions, cache: cache)
  }

  /// The heaviest functions of a dump by self cost: instructions, or in a cache profile
  /// last-level misses (reads and writes), with the dump's instruction total.
  /// `total`: the region's instructions when the run counted them (else the dump's sum).
  static func top(dump: String, total: Int?, top: Int, cache: Bool) throws -> (
    total: Int, functions: [ProfiledFunction]
  ) {
    guard let text = try? String(contentsOfFile: dump, encoding: .utf8) else {
      throw BenchError("cannot read the callgrind dump \(dump)")
    }
    let parsed = CallgrindProfile.selfCosts(text)
    let events = parsed.events
    func sum(_ r: CallgrindProfile.FunctionCost, _ names: [String]) -> Int? {
      var total = 0
      for n in names {
        guard let k = events.firstIndex(of: n) else { return nil }
        total += r.costs[k]
      }
      return total
    }
    let ll = Metric.llMisses.cacheEvents ?? []
    if cache && !ll.allSatisfy(events.contains) {
      throw BenchError(
        "the callgrind dump \(dump) has no \(ll.joined(separator: "/")) events (events: "
          + events.joined(separator: " ") + "): was --cache-sim=yes honoured?")
    }
    let total = total ?? parsed.functions.reduce(0) { $0 + $1.instructions }
    func misses(_ r: CallgrindProfile.FunctionCost) -> Int { sum(r, ll) ?? 0 }
    let ranked =
      cache
      ? parsed.functions.sorted { (misses($0), $1.function) > (misses($1), $0.function) }
      : parsed.functions
    let rows = Array(ranked.prefix(top))
    let names = demangle(rows.map { $0.function })
    let functions = rows.enumerated().map { k, r in
      ProfiledFunction(
        instructions: r.instructions,
        share: total > 0 ? Double(r.instructions) * 100 / Double(total) : 0,
        function: names[k], file: r.file, inclusive: r.inclusiveInstructions,
        dataAccesses: cache ? sum(r, Metric.dataAccesses.cacheEvents ?? []) : nil,
        d1Misses: cache ? sum(r, Metric.d1Misses.cacheEvents ?? []) : nil,
        llMisses: cache ? sum(r, ll) : nil)
    }
    return (total, functions)
  }

  /// A cache region's totals, from the result the child measured; an unavailable counter is
  /// an error (never a 0).
  static func cacheTotals(_ region: CaseResult, geometry: String, id: String) throws
    -> CacheTotals
  {
    func count(_ m: Metric) throws -> Int {
      guard let v = region.value(m)?.value else {
        throw BenchError("\(id): \(m.rawValue) was not measured in the cache profile")
      }
      return v
    }
    return CacheTotals(
      geometry: geometry, dataAccesses: try count(.dataAccesses), d1Misses: try count(.d1Misses),
      llMisses: try count(.llMisses))
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
