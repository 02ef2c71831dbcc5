import CogBenchCases
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What `cog-bench memory` measured: the process's resident memory after each sample of a
/// case, each case × system in a process of its own, and the bytes of Cog's descriptor
/// objects. Versioned JSON, written to `Results/memory/`; the record's "Memory across
/// samples" renders the newest.
struct MemoryFile: Codable, SideRecordFile {
  static let currentSchema = 1
  static let kind = "memory"
  var schema: Int
  var date: String
  var size: CaseSize
  var commit: String
  var dirty: Bool
  var toolchain: String
  var configuration: String
  var machine: String
  /// Samples before the series counts as warm (`flat` compares against the first warm one).
  var warmupSamples: Int
  /// The largest change allowed once warm, in percent (issue 23: 5).
  var tolerancePercent: Double
  var descriptors: DescriptorBytes
  var series: [Series]
  /// Bytes per state at issue 23's scale; nil in files written before it was measured.
  var scale: Scale?

  /// `n` manual sources and `n` automatic cogs each reading one source, every computed read
  /// once in one context: what the process holds per state, all in (descriptors, rows, edges,
  /// values, closures, the maps, the app's two arrays of descriptors).
  struct Scale: Codable {
    /// Sources plus computeds (2n).
    var states: Int
    /// Resident set after the build minus before, over `states`.
    var residentBytesPerState: Double
    /// Live heap bytes the build added (the allocation counter's live bytes), over `states`;
    /// nil when the counter could not run, with `heapUnavailable` saying why.
    var heapBytesPerState: Double?
    var heapUnavailable: String?
    /// The live heap by phase (absent in files before it was recorded).
    var heapSplit: HeapSplit?
  }

  /// The scale's live heap split by what added it: a source (its `Cog` and the app's array
  /// slot), a computed (its `Cog`, behavior, closure context and array slot), and the
  /// context's share (rows, values, edges, maps) per state.
  struct HeapSplit: Codable {
    var perSource: Double
    var perComputed: Double
    var contextPerState: Double
  }

  /// Bytes of one descriptor object of `cog` (`Cog<Int>`), from the class metadata.
  struct DescriptorBytes: Codable {
    var manualCog: Int
    /// An automatic cog: the `Cog` and its behavior object (its body's closure context,
    /// which depends on what the closure captures, excluded).
    var automaticCog: Int
  }

  /// Resident bytes after each sample of one case on one system.
  struct Series: Codable {
    var caseID: String
    var system: String
    var iterationsPerSample: Int
    var residentBytes: [Int]

    /// The largest change from the first warm sample over the later ones, in percent; nil
    /// when there are not two warm samples.
    func drift(warmup: Int) -> Double? {
      guard residentBytes.count > warmup + 1, warmup >= 0 else { return nil }
      let base = Double(residentBytes[warmup])
      guard base > 0 else { return nil }
      return residentBytes[(warmup + 1)...].map { abs(Double($0) - base) * 100 / base }.max()
    }
  }

  /// This process's resident set in bytes (`/proc/self/statm`); an error where there is none,
  /// never a 0.
  static func residentBytes() throws -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else {
      throw BenchError("cannot read /proc/self/statm: resident memory is measured on Linux only")
    }
    #if canImport(Glibc)
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return pages * 4096
    #endif
  }
}
