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
  }

  struct Git: Codable {
    /// `none` before the first commit or outside a repository.
    var commit: String
    var dirty: Bool
  }

  @MainActor static func current(allocationSource: AllocationProducer.Source) -> RunEnvironment {
    RunEnvironment(
      machine: Machine(
        cpuModel: cpuModel(), cores: ProcessInfo.processInfo.activeProcessorCount,
        kernel: kernel(), memoryBytes: memoryBytes()),
      toolchain: Shell.capture("swift", ["--version"])?
        .split(separator: "\n").first.map(String.init) ?? "unknown (swift not on PATH)",
      build: Build(
        configuration: BuildFacts.configuration, defines: BuildFacts.defines,
        allocationCounter: allocationSource.rawValue,
        command: ProcessInfo.processInfo.environment["COG_BENCH_BUILD_COMMAND"] ?? "unknown"),
      git: git())
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

  private static func git() -> Git {
    let commit = Shell.capture("git", ["rev-parse", "HEAD"]) ?? "none"
    let status = Shell.capture("git", ["status", "--porcelain", "--untracked-files=no"])
    return Git(commit: commit, dirty: status.map { !$0.isEmpty } ?? true)
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

  static var defines: [String] {
    var d: [String] = []
    if internalChecks { d.append("COG_INTERNAL_CHECKS") }
    if AllocationProducer.buildSource == .jemalloc { d.append("COG_HAVE_JEMALLOC") }
    if CallgrindProducer.isCompiled { d.append("callgrind.h") }
    return d
  }
}
