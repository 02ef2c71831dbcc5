import CogBenchCases
import CogCounters
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Callgrind plumbing: availability, the runner's own path, and reading dumps. The regions
/// themselves run in `RegionRun` children under valgrind.
@MainActor
enum CallgrindRun {
  /// Why instructions cannot be counted here, or nil.
  static func unavailableReason() -> String? {
    if !CallgrindProducer.isCompiled {
      return "built without <valgrind/callgrind.h> (install Debian's valgrind package: "
        + "sudo apt-get install -y valgrind, then rebuild with --manifest-cache none)"
    }
    if Shell.which("valgrind") == nil {
      return "valgrind is not on PATH (install Debian's valgrind package: "
        + "sudo apt-get install -y valgrind)"
    }
    return nil
  }

  /// The path of the running executable.
  static func selfPath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return String(cString: buffer) }
    return CommandLine.arguments[0]
  }

  /// How many children measure side by side by default: one per core, at most 4 (each is
  /// single-threaded; its counts do not depend on what runs beside it).
  static var defaultWorkers: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

  /// Reads every numbered dump (`cg.out.<n>` or `cg.out.<pid>.<n>`; the final un-numbered
  /// program-termination dump is ignored: its totals are not meaningful) and returns region
  /// name → count.
  static func parseDumps(in directory: String) throws -> [String: (instructions: Int, path: String)]
  {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    var result: [String: (Int, String)] = [:]
    for name in names where name.hasPrefix("cg.out.") {
      let parts = name.split(separator: ".")
      guard parts.count >= 3, parts.count <= 4, Int(parts.last!) != nil,
        parts.count == 3 || Int(parts[2]) != nil
      else { continue }
      let path = "\(directory)/\(name)"
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
      var region: String?
      var summary: Int?
      for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        if line.hasPrefix("desc: Trigger: Client Request: ") {
          region = String(line.dropFirst("desc: Trigger: Client Request: ".count))
        } else if line.hasPrefix("summary:") {
          summary = Int(line.dropFirst("summary:".count).trimmingWhitespace())
        }
        if region != nil && summary != nil { break }
      }
      if let region, let summary { result[region] = (summary, path) }
    }
    return result
  }
}
