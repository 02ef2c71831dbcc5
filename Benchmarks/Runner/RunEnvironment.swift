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
  }

  /// What is compiled into the runner: a change here changes what is measured.
  static let measuredPaths = ["Package.swift", "Sources", "Layouts", "Benchmarks"]

  @MainActor static func current(
    allocationSource: AllocationProducer.Source, git: Git = git()
  ) -> RunEnvironment {
    RunEnvironment(
      machine: Machine(
        cpuModel: cpuModel(), cores: ProcessInfo.processInfo.activeProcessorCount,
        kernel: kernel(), memoryBytes: memoryBytes()),
      toolchain: Shell.capture("swift", ["--version"])?
        .split(separator: "\n").first.map(String.init) ?? "unknown (swift not on PATH)",
      build: Build(
        configuration: BuildFacts.configuration, defines: BuildFacts.defines,
        allocationCounter: allocationSource.rawValue,
        command: ProcessInfo.processInfo.environment["COG_BENCH_BUILD_COMMAND"] ?? "unknown",
        executableDigest: executableDigest()),
      git: git)
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
  @MainActor private static func executableDigest() -> String? {
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
