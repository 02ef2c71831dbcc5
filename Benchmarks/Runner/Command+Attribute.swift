import CogBenchCases
import Foundation

/// `cog-bench attribute`: where a region's instructions changed, by function, between a
/// profile before (by default the threshold's commit) and one after (by default now).
@MainActor
enum AttributeCommand {
  static let spec = CommandSpec(
    "attribute <case>",
    summary: "a regression by function: two profiles (before, after) compared",
    maxPositionals: 1,
    about: """
      A differential profile of one region: callgrind's self and inclusive instructions per
      function before and after, sorted by the change of self instructions, largest first.
      """,
    options: [
      OptionSpec("system", "ID", "the system (default cog)"),
      .size,
      OptionSpec(
        "from", "REF|PROFILE.json",
        "before: a profile file (cog-bench profile writes them; committed ones are in Results/profiles), or a git commit or ref, whose committed profile of the region in --profiles is used, else that commit is checked out in .bench-tmp/attribute/ and profiled there (a release build: about 10 minutes cold on 2 cores). Default: the threshold's commit, the last commit that changed --thresholds."
      ),
      OptionSpec(
        "to", "PROFILE.json",
        "after: a profile file. Default: now (this build, measured as profile measures: a release build with valgrind)."
      ),
      OptionSpec("top", "N", "rows shown (default 20)"),
      OptionSpec("profiles", "DIR", "the committed profiles (default Results/profiles)"),
      OptionSpec(
        "thresholds", "FILE",
        "the thresholds file whose commit --from defaults to (default Results/thresholds/<size>.json)"
      ),
      .allowDebug,
    ],
    notes: """
      Given two profile files it measures nothing. A function outside a profile's listed ones
      (profile files keep the heaviest few) shows as ≤ the smallest listed count, and its
      change as a bound. Inclusive counts need profiles written since they were recorded.
      Exit: 0 ok, 1 error.
      """)

  /// One side of the comparison: a profile and where it came from.
  struct Side {
    var profile: ProfileFile
    var source: String
  }

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    guard a.positionals.count == 1 else {
      throw BenchError("attribute needs exactly one case id (see cog-bench list)")
    }
    let caseID = a.positionals[0]
    guard let info = CaseRegistry.all.info(for: caseID) else {
      throw BenchError("unknown case '\(caseID)' (cog-bench list shows the cases)")
    }
    let systems = try Selection.systems(a["system"] ?? SystemCatalog.referenceID)
    guard systems.count == 1 else {
      throw BenchError("attribute compares one system; --system selected \(systems.count)")
    }
    let system = systems[0]
    let size = try Selection.size(a["size"])
    let top = try a.int("top", default: 20, min: 1)
    let profilesDir = a["profiles"] ?? "Results/profiles"
    let region = "\(caseID)@\(system.id)"

    // Files first: a bad file is an error before anything is measured or built.
    var after: Side?
    if let to = a["to"] { after = Side(profile: try read(to), source: to) }
    let before: Side
    if let from = a["from"], from.hasSuffix(".json") || FileManager.default.fileExists(atPath: from)
    {
      before = Side(profile: try read(from), source: from)
    } else {
      let ref: String
      let why: String
      if let from = a["from"] {
        ref = from
        why = from
      } else {
        let thresholds = a["thresholds"] ?? ThresholdFile.defaultPath(for: size)
        guard
          let c = Shell.capture("git", ["log", "-1", "--format=%H", "--", thresholds]),
          !c.isEmpty
        else {
          throw BenchError(
            "no commit changed \(thresholds) (not in git?): name the before side with --from")
        }
        ref = c
        why = "the threshold's commit (last change of \(thresholds))"
      }
      guard let commit = Shell.capture("git", ["rev-parse", "--verify", "\(ref)^{commit}"]) else {
        throw BenchError("--from \(ref) is neither a profile file nor a git commit")
      }
      if let (path, p) = committedProfile(
        region: region, size: size, commit: commit, in: profilesDir)
      {
        before = Side(profile: p, source: "\(path): the committed profile at \(why)")
      } else {
        before = Side(
          profile: try profileAt(commit: commit, caseID: caseID, system: system.id, size: size),
          source: "measured at \(commit.prefix(12)), \(why)")
      }
    }
    if after == nil {
      try CogBench.requireMeasurableBuild(allowDebug: a.has("allow-debug"))
      let s = try ProfileCommand.sample(
        info, system: system, size: size, top: 500, cache: false, keepDump: false)
      after = Side(
        profile: ProfileCommand.file(
          caseID: caseID, system: system.id, size: size, total: s.total,
          iterations: s.region.iterationsPerSample, functions: s.functions, cache: nil,
          date: Date()),
        source: "measured now")
    }
    for side in [before, after!] {
      let p = side.profile
      guard p.caseID == caseID, p.system == system.id, p.size == size, p.cache == nil else {
        throw BenchError(
          "\(side.source) is \(p.cache == nil ? "an instruction" : "a cache") profile of "
            + "\(p.id) (\(p.size.rawValue)); attribute compares instruction profiles of "
            + "\(region) (\(size.rawValue))")
      }
    }
    for line in report(before: before, after: after!, top: top) { print(line) }
    return .ok
  }

  static func read(_ path: String) throws -> ProfileFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw BenchError("cannot read profile file \(path)")
    }
    let p: ProfileFile
    do {
      p = try JSONDecoder().decode(ProfileFile.self, from: data)
    } catch {
      throw BenchError("\(path) is not a cog-bench profile file (\(oneLine(error)))")
    }
    guard p.schema == ProfileFile.currentSchema else {
      throw BenchError(
        "\(path) has schema \(p.schema); this cog-bench reads \(ProfileFile.currentSchema)")
    }
    return p
  }

  /// The newest instruction profile of `region` taken on a clean tree at `commit`.
  static func committedProfile(
    region: String, size: CaseSize, commit: String, in dir: String
  ) -> (String, ProfileFile)? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    var best: (String, ProfileFile)?
    for name in names.sorted() where name.hasSuffix(".json") {
      guard let p = try? read("\(dir)/\(name)"), p.id == region, p.size == size,
        p.cache == nil, p.commit == commit
      else { continue }
      if let b = best, b.1.date >= p.date { continue }
      best = ("\(dir)/\(name)", p)
    }
    return best
  }

  /// Profiles the region at `commit`: a detached worktree in .bench-tmp/attribute/, a release
  /// build there, and its own `cog-bench profile`.
  static func profileAt(commit: String, caseID: String, system: String, size: CaseSize) throws
    -> ProfileFile
  {
    let root = FileManager.default.currentDirectoryPath
    let tree = "\(root)/.bench-tmp/attribute/\(commit.prefix(12))"
    let out = "\(tree)-profiles"
    guard let git = Shell.which("git"), let swift = Shell.which("swift") else {
      throw BenchError("profiling another commit needs git and swift on PATH")
    }
    if !FileManager.default.fileExists(atPath: tree) {
      note("checking out \(commit.prefix(12)) in \(tree)")
      let o = Shell.run(git, ["worktree", "add", "--detach", tree, commit])
      guard o?.status == 0 else {
        throw BenchError("git worktree add \(tree) \(commit) failed: \(o?.stderr ?? "")")
      }
    }
    let build = ["build", "-c", "release", "--product", "cog-bench", "-Xcc", "-gdwarf-4"]
    note("building \(commit.prefix(12))'s cog-bench in \(tree) (about 10 minutes cold)")
    guard let b = Shell.run(swift, build + ["--package-path", tree], inheritStderr: true),
      b.status == 0,
      let bin = Shell.run(swift, build + ["--package-path", tree, "--show-bin-path"]),
      bin.status == 0
    else { throw BenchError("the release build of \(commit.prefix(12)) in \(tree) failed") }
    let exe = bin.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/cog-bench"
    try? FileManager.default.removeItem(atPath: out)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: exe)
    process.arguments = [
      "profile", caseID, "--system", system, "--size", size.rawValue, "--top", "500",
      "--output-dir", out,
    ]
    process.currentDirectoryURL = URL(fileURLWithPath: tree)
    try process.run()
    process.waitUntilExit()
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter {
      $0.hasSuffix(".json")
    }
    guard process.terminationStatus == 0, let name = names.sorted().last else {
      throw BenchError("\(exe) profile \(caseID) failed at \(commit.prefix(12))")
    }
    return try read("\(out)/\(name)")
  }

  /// The comparison, one line each: the sides, the total, then the functions by change.
  static func report(before: Side, after: Side, top: Int) -> [String] {
    let b = before.profile
    let x = after.profile
    var lines: [String] = []
    lines.append(
      "\(x.id) (\(x.size.rawValue)): instructions by function, before → after "
        + "(callgrind, one sample after warm-up)")
    func describe(_ side: Side) -> String {
      let p = side.profile
      return "commit \(p.commit.prefix(12))\(p.commit.hasSuffix("(dirty)") ? " (dirty)" : ""), "
        + "\(p.date): \(p.totalInstructions) Ir for \(p.iterationsPerSample) iterations "
        + "(\(side.source))"
    }
    lines.append("before: " + describe(before))
    lines.append("after:  " + describe(after))
    if b.date > x.date {
      lines.append(
        "note: before was profiled after after (\(b.date) > \(x.date)); check --from/--to")
    }
    if b.iterationsPerSample != x.iterationsPerSample {
      lines.append("note: the samples differ in iterations; compare per iteration")
    }
    let delta = x.totalInstructions - b.totalInstructions
    lines.append(
      "total: \(b.totalInstructions) → \(x.totalInstructions) Ir (\(signed(delta)), "
        + "\(percent(delta, of: b.totalInstructions)))")

    /// A profile's listed functions by name, and the bound for an unlisted one (0 when the
    /// list holds every instruction).
    func table(_ p: ProfileFile) -> (byName: [String: ProfiledFunction], bound: Int) {
      var byName: [String: ProfiledFunction] = [:]
      for f in p.functions {
        if var old = byName[f.function] {
          old.instructions += f.instructions
          old.inclusive = old.inclusive.map { $0 + (f.inclusive ?? 0) }
          byName[f.function] = old
        } else {
          byName[f.function] = f
        }
      }
      let listed = p.functions.reduce(0) { $0 + $1.instructions }
      let bound =
        listed >= p.totalInstructions ? 0 : (p.functions.map { $0.instructions }.min() ?? 0)
      return (byName, bound)
    }
    let tb = table(b)
    let tx = table(x)
    let inclusive =
      b.functions.allSatisfy { $0.inclusive != nil }
      && x.functions.allSatisfy { $0.inclusive != nil }
    struct Row {
      var function: String
      var before: Int?
      var after: Int?
      var change: Int
    }
    let names = Set(tb.byName.keys).union(tx.byName.keys)
    let rows = names.map { name -> Row in
      let v0 = tb.byName[name]?.instructions
      let v1 = tx.byName[name]?.instructions
      return Row(function: name, before: v0, after: v1, change: (v1 ?? 0) - (v0 ?? 0))
    }
    .sorted { (abs($0.change), $1.function) > (abs($1.change), $0.function) }
    func cell(_ v: Int?, bound: Int) -> String {
      v.map(String.init) ?? (bound == 0 ? "0" : "≤\(bound)")
    }
    var head =
      "self before".leftPadding(13) + "self after".leftPadding(13) + "Δ self".leftPadding(11)
      + "Δ%".leftPadding(9)
    if inclusive { head += "incl before".leftPadding(13) + "incl after".leftPadding(13) }
    lines.append(head + "  function")
    for r in rows.prefix(top) {
      let bounded = (r.before == nil && tb.bound > 0) || (r.after == nil && tx.bound > 0)
      var line =
        cell(r.before, bound: tb.bound).leftPadding(13)
        + cell(r.after, bound: tx.bound).leftPadding(13)
        + ((bounded ? "~" : "") + signed(r.change)).leftPadding(11)
        + (bounded ? "–" : r.before.map { percent(r.change, of: $0) } ?? "new").leftPadding(9)
      if inclusive {
        line +=
          cell(tb.byName[r.function]?.inclusive, bound: tb.bound).leftPadding(13)
          + cell(tx.byName[r.function]?.inclusive, bound: tx.bound).leftPadding(13)
      }
      lines.append(line + "  \(r.function)")
    }
    if rows.count > top { lines.append("(\(rows.count - top) more functions; --top shows more)") }
    let listedB = b.functions.reduce(0) { $0 + $1.instructions }
    let listedX = x.functions.reduce(0) { $0 + $1.instructions }
    lines.append(
      "outside the listed functions: \(max(0, b.totalInstructions - listedB)) Ir before, "
        + "\(max(0, x.totalInstructions - listedX)) after"
        + (tb.bound > 0 || tx.bound > 0
          ? " (≤N: below the heaviest \(b.functions.count) before or \(x.functions.count) after "
            + "that the profile lists; ~: a bound)"
          : ""))
    if !inclusive {
      lines.append(
        "inclusive counts: not in a profile written before they were recorded (profile again)")
    }
    return lines
  }

  static func signed(_ v: Int) -> String { v > 0 ? "+\(v)" : "\(v)" }

  static func percent(_ delta: Int, of base: Int) -> String {
    guard base != 0 else { return delta == 0 ? "0%" : "new" }
    let p = Double(delta) * 100 / Double(base)
    return (p > 0 ? "+" : "") + fixed(p, 2) + "%"
  }
}
