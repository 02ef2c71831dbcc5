import CogCounters
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where a result came from: machine, toolchain, build and source revision.
struct RunEnvironment: Codable {
  var machine: Machine
  var toolchain: String
  var build: Build
  var git: Git

  struct Machine: Codable {
    var cpuModel: String
    var cores: Int
    var kernel: String
    var memoryBytes: Int?
  }

  struct Build: Codable {
    /// `release` or `debug`, from the compiler's DEBUG define.
    var configuration: String
    /// Compile-time defines the runner can observe.
    var defines: [String]
    var allocationCounter: String
    /// The build command, as passed in COG_BENCH_BUILD_COMMAND by scripts/compare.sh;
    /// "unknown" when the binary was run directly.
    var command: String
    /// `fnv1a64:<hex>` of the runner executable: two results with the same digest were
    /// measured by the same binary (`cog-bench same-counts` relies on it). Absent in older
    /// files.
    var executableDigest: String?
    /// The measured paths' state the binary was built from, as `scripts/release-build.sh`
    /// stamped it beside the binary (`SourcesStamp`) right after building it; nil when the
    /// stamp is missing, unreadable or names another binary's digest (built by hand, or
    /// rebuilt since), and in older files. `git` is the checkout's state when measuring began,
    /// which is the binary's only if nothing was checked out or edited since the build.
    var sources: Git?
  }

  struct Git: Codable {
    /// `none` before the first commit or outside a repository.
    var commit: String
    /// True when the measured code (`measuredPaths`, untracked files included) differs from
    /// the commit. The record, notes and results (`impl/`, `Results/`, `swift/`) do not
    /// count: rendering the record must not mark the next run dirty.
    var dirty: Bool
    /// The first changed measured files (`git status --porcelain` paths); absent in older
    /// files, whose dirty flag counted every tracked file.
    var changedFiles: [String]?

    /// Whether `other` names the same measured sources: the same changes on the same commit,
    /// or on commits whose measured paths are equal (asked of the checkout's git; a commit it
    /// does not have is another's): commits apart only in the record, notes or docs built the
    /// same binary. Edits to files changed on both sides are not told apart (the result files
    /// name files, not contents).
    func sameMeasuredSources(as other: Git) -> Bool {
      guard dirty == other.dirty, (changedFiles ?? []) == (other.changedFiles ?? []) else {
        return false
      }
      return commit == other.commit
        || RunEnvironment.measuredPathsEqual(between: commit, and: other.commit)
    }
  }

  /// What is compiled into the runner: a change here changes what is measured.
  static let measuredPaths = ["Package.swift", "Sources", "Layouts", "Benchmarks"]

  @MainActor static func current(
    allocationSource: AllocationProducer.Source, git: Git = git()
  ) -> RunEnvironment {
    let digest = executableDigest()
    return RunEnvironment(
      machine: Machine(
        cpuModel: cpuModel(), cores: ProcessInfo.processInfo.activeProcessorCount,
        kernel: kernel(), memoryBytes: memoryBytes()),
      toolchain: Shell.capture("swift", ["--version"])?
        .split(separator: "\n").first.map(String.init) ?? "unknown (swift not on PATH)",
      build: Build(
        configuration: BuildFacts.configuration, defines: BuildFacts.defines,
        allocationCounter: allocationSource.rawValue,
        command: ProcessInfo.processInfo.environment["COG_BENCH_BUILD_COMMAND"] ?? "unknown",
        executableDigest: digest, sources: digest.flatMap { SourcesStamp.read(digest: $0) }),
      git: git)
  }

  /// One line for stderr when the binary's sources are not known to be the checkout's (the
  /// result file records both); nil when they are.
  var provenanceNote: String? {
    guard let sources = build.sources else {
      return "cog-bench: note: this binary carries no source stamp of scripts/release-build.sh "
        + "(built another way, or rebuilt since): the result records the checkout's state "
        + "(\(git.commit.prefix(10))\(git.dirty ? ", dirty" : "")), which may not be what it was built from"
    }
    if sources.sameMeasuredSources(as: git) { return nil }
    return "cog-bench: warning: this binary was built from \(sources.commit.prefix(10))"
      + (sources.dirty ? " with changes" : "") + ", the checkout is at \(git.commit.prefix(10))"
      + (git.dirty ? " with changes" : "") + ": the result records both (environment.build.sources)"
  }

  private static func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return "unknown"
    }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingWhitespace()
      }
    }
    return "unknown"
  }

  private static func kernel() -> String {
    var u = utsname()
    uname(&u)
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return "\(field(u.sysname)) \(field(u.release)) \(field(u.machine))"
  }

  private static func memoryBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
      let parts = line.split(separator: " ")
      if parts.count >= 2, let kb = Int(parts[1]) { return kb * 1024 }
    }
    return nil
  }

  /// FNV-1a (64 bit) of the running executable's bytes.
  @MainActor static func executableDigest() -> String? {
    guard let data = FileManager.default.contents(atPath: CallgrindRun.selfPath()) else {
      return nil
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    data.withUnsafeBytes { raw in
      for byte in raw {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
      }
    }
    let hex = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Whether commits `a` and `b` have the same measured paths (`git diff --quiet`); false
  /// when either is not a commit of the checkout's repository.
  static func measuredPathsEqual(between a: String, and b: String) -> Bool {
    guard a != "none", b != "none", let exe = Shell.which("git"),
      let o = Shell.run(exe, ["diff", "--quiet", a, b, "--"] + measuredPaths)
    else { return false }
    return o.status == 0
  }

  /// The measured paths' state in the checkout (taken when measuring begins).
  static func git() -> Git {
    let commit = Shell.capture("git", ["rev-parse", "HEAD"]) ?? "none"
    guard
      let status = Shell.capture(
        "git", ["status", "--porcelain", "--untracked-files=all", "--"] + measuredPaths)
    else { return Git(commit: commit, dirty: true, changedFiles: ["(git status failed)"]) }
    // `XY path` per line, X or Y blank (the capture also trims the first line's leading
    // blank): the path follows the status letters.
    let files = status.split(separator: "\n").map {
      $0.trimmingWhitespace().drop { $0 != " " }.trimmingWhitespace()
    }
    return Git(commit: commit, dirty: !files.isEmpty, changedFiles: Array(files.prefix(20)))
  }
}

/// What the compiler tells the runner about its own build.
enum BuildFacts {
  static var configuration: String {
    #if DEBUG
      return "debug"
    #else
      return "release"
    #endif
  }

  static var internalChecks: Bool {
    #if COG_INTERNAL_CHECKS
      return true
    #else
      return false
    #endif
  }

  /// The define of a build without the diagnostics' tests (Package.swift), as result files
  /// name it.
  static let noDiagnosticsDefine = "COG_NO_DIAGNOSTICS"

  static var noDiagnostics: Bool {
    #if COG_NO_DIAGNOSTICS
      return true
    #else
      return false
    #endif
  }

  /// Whether the workbench's modules were built without LLVM's function merging
  /// (Package.swift's `workbenchSettings`), as they must be for a case's counts not to depend
  /// on the other cases compiled beside it.
  static var noMergeFunctions: Bool {
    #if COG_NO_MERGE_FUNCTIONS
      return true
    #else
      return false
    #endif
  }

  static var defines: [String] {
    var d: [String] = []
    if noMergeFunctions { d.append("COG_NO_MERGE_FUNCTIONS") }
    if internalChecks { d.append("COG_INTERNAL_CHECKS") }
    if noDiagnostics { d.append(noDiagnosticsDefine) }
    if AllocationProducer.buildSource == .jemalloc { d.append("COG_HAVE_JEMALLOC") }
    if CallgrindProducer.isCompiled { d.append("callgrind.h") }
    return d
  }
}

/// What `scripts/release-build.sh` writes beside the binary it built (`cog-bench
/// __stamp-sources`): the binary's digest and the measured paths' state it was built from,
/// so that a result names the sources of the binary that measured it, not only those of the
/// checkout it ran in.
struct SourcesStamp: Codable {
  static let currentSchema = 1
  var schema: Int
  var executableDigest: String
  var git: RunEnvironment.Git

  /// Beside the runner's executable: `<executable>.sources.json`.
  @MainActor static var path: String { CallgrindRun.selfPath() + ".sources.json" }

  /// The stamped sources if the stamp at `path` names the binary whose digest is `digest`;
  /// nil for a missing, unreadable or other-schema stamp, or another binary's.
  @MainActor static func read(digest: String) -> RunEnvironment.Git? {
    guard let data = FileManager.default.contents(atPath: path),
      let stamp = try? JSONDecoder().decode(SourcesStamp.self, from: data),
      stamp.schema == currentSchema, stamp.executableDigest == digest
    else { return nil }
    return stamp.git
  }

  /// Writes the stamp of the running binary and the checkout's measured paths now
  /// (`__stamp-sources`, which release-build.sh runs in the checkout it just built).
  @MainActor static func write() throws {
    guard let digest = RunEnvironment.executableDigest() else {
      throw BenchError("cannot read the runner's executable at \(CallgrindRun.selfPath())")
    }
    let stamp = SourcesStamp(
      schema: currentSchema, executableDigest: digest, git: RunEnvironment.git())
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try FileOutput.replace(try encoder.encode(stamp), at: path)
  }
}
