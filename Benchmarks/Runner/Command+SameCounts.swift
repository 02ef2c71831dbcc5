import Foundation

/// `cog-bench same-counts`: the proof that two runs counted the same, e.g. that
/// `scripts/compare.sh` (every system, time first) records exactly the counts that
/// `scripts/ci-gate.sh` (the `cog*` systems, no time) gates, for one binary.
@MainActor
enum SameCountsCommand {
  static let spec = CommandSpec(
    "same-counts <reference.json> <other.json>",
    summary: "check that two results counted exactly the same", maxPositionals: 2,
    about: """
      Checks that every deterministic count of the reference result (within --systems and
      --metrics) is in the other result with exactly the same value, and that both come from
      the same executable (their digests). Prints each difference. No tolerance: counts are
      exact for one binary, whatever else a run measured.
      """,
    options: [
      OptionSpec("systems", "GLOBS", "only these systems (default: all)"),
      OptionSpec("metrics", "GLOBS", "only these metrics (default: every deterministic count)"),
      OptionSpec(
        "other-build",
        "the results come from two builds of one commit (scripts/isolation-check.sh: without and with a throwaway layout variant); the sources each binary was built from (`build.sources`, else the checkout's commit and changed files) are compared instead of the executables; two commits whose measured paths (Package.swift, Sources, Layouts, Benchmarks) are equal in this checkout count as the same sources. Systems only the other result measured are not compared."
      ),
    ],
    notes: """
      Every pattern must match a system or a count of the reference, and some count must be
      compared: an empty selection is an error.
      Exit: 0 every count equal, 1 a difference, a missing count, another executable (other
      sources with --other-build), or a selection that matches nothing.
      """)

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    guard a.positionals.count == 2 else {
      throw BenchError("same-counts needs two result files (see cog-bench same-counts --help)")
    }
    let (referencePath, otherPath) = (a.positionals[0], a.positionals[1])
    let reference = try ResultFile.read(referencePath)
    let other = try ResultFile.read(otherPath)
    let scope = try CheckScope.parse(
      systems: a["systems"], metrics: a["metrics"], in: reference, path: referencePath)
    var problems: [String] = []
    let digests = (
      reference.environment.build.executableDigest, other.environment.build.executableDigest
    )
    if a.has("other-build") {
      // The binaries' own sources where both results name them (`build.sources`, the stamp
      // of scripts/release-build.sh); the checkouts' otherwise (older files, or a binary
      // built another way).
      func sources(_ e: RunEnvironment) -> RunEnvironment.Git { e.build.sources ?? e.git }
      let (s0, s1) = (sources(reference.environment), sources(other.environment))
      if !s0.sameMeasuredSources(as: s1) {
        problems.append(
          s0.commit != s1.commit
            ? "the results come from different commits (\(s0.commit) vs \(s1.commit)) whose "
              + "measured sources differ or cannot be compared in this checkout"
            : "the results come from different sources of commit \(s0.commit) (changed files: "
              + "\((s0.changedFiles ?? []).joined(separator: ", ")) vs "
              + "\((s1.changedFiles ?? []).joined(separator: ", ")))")
      }
    } else if digests.0 == nil || digests.0 != digests.1 {
      problems.append(
        "the results come from different executables (\(digests.0 ?? "no digest") vs "
          + "\(digests.1 ?? "no digest"))")
    }
    let byID = Dictionary(other.results.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
    var compared = 0
    for r in reference.results where r.notApplicable == nil {
      for m in Metric.allCases where m.isDeterministic && scope.includes(id: r.id, metric: m) {
        guard let want = r.value(m)?.value else { continue }
        let key = ThresholdFile.key(r.id, m)
        guard let theirs = byID[r.id]?.value(m) else {
          problems.append("\(key): \(want) in the reference, not measured in the other")
          continue
        }
        guard let got = theirs.value else {
          problems.append(
            "\(key): \(want) in the reference, unavailable in the other (\(theirs.unavailable ?? "?"))"
          )
          continue
        }
        compared += 1
        if got != want { problems.append("\(key): \(want) in the reference, \(got) in the other") }
      }
    }
    if compared == 0 && problems.isEmpty { problems.append("no count to compare") }
    for p in problems { print("DIFFERENT \(p)") }
    print(
      "compared \(compared) counts of \(referencePath) with \(otherPath): "
        + (problems.isEmpty ? "all equal" : "\(problems.count) difference(s)"))
    return problems.isEmpty ? .ok : .failure
  }
}
