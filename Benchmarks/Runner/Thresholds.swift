import CogBenchCases
import Foundation

/// Committed limits for the deterministic counts of one suite size.
///
/// Encoding (also in swift/Benchmarks/Runner/README.md): pretty-printed JSON with sorted keys,
/// so each threshold sits on its own line and diffs stay one line per changed number.
///
///     {
///       "allocationCounter" : "malloc-interposer",
///       "schema" : 1,
///       "size" : "quick",
///       "tolerance" : { "allocations" : 0, "instructions" : 0.01, ... },
///       "toolchain" : "Swift version 6.3.1 (swift-6.3.1-RELEASE)",
///       "values" : {
///         "kairo/deep@cog allocations" : 0,
///         "kairo/deep@cog instructions" : 123456,
///         ...
///       }
///     }
///
/// A key is `<case>@<system> <metric>`; the value is the count of one sample. `tolerance` is
/// relative per metric: a value passes when |value − threshold| ≤ ceil(threshold × tolerance).
struct ThresholdFile: Codable {
  static let currentSchema = 1
  /// The relative tolerance of instruction thresholds: 0.1%.
  ///
  /// A region's instructions repeat exactly for one binary on one machine: each region runs
  /// in a process of its own with fixed paths, arguments and environment and glibc's
  /// CPU-dependent string functions pinned (`RegionRun`); measured identical from two clone
  /// folders, with and without the time phase and other systems, and in 25 repeated runs of
  /// `cog/key-churn`. On another machine state they move a little in regions that allocate:
  /// from a fresh Debian root (a chroot with other packages installed, same library
  /// versions), 244 of the 246 `cog` counts were identical and two differed by 2 and 226
  /// instructions (`cog/peak-memory-1000`, `sbench/createComputations/create0to1`: at most
  /// 0.003%), as the libraries the loader maps shift the addresses jemalloc's paths depend
  /// on. 0.1% leaves 30 times that, and stays well under the smallest regression the gate
  /// must catch: one instruction more per recomputed row on `kairo/deep` is +0.34%.
  ///
  /// Four regions move with the binary's layout instead, and carry their own tolerance in the
  /// file (`toleranceOverrides`, 3%). They look up the Swift runtime's caches, hash tables
  /// keyed by the addresses of type metadata, so an unrelated change to the runner moves
  /// their probe lengths: `cog/box-ref-creation`, `cog/keyed-diamond` and `cog/key-churn`
  /// cast keys to and from `AnyHashable` (the conformance cache,
  /// `ConcurrentReadableHashMap<ConformanceCacheEntry>::find`), `cog/peak-memory-1000` builds
  /// 1,000 states per sample through generic code (the generic metadata cache,
  /// `ConcurrentReadableHashMap<GenericCacheEntry>` and `MetadataCacheKey ==`). Over six
  /// builds that differed only in runner code they spread by 0.86%, 0.64%, 0.40% and 1.27%
  /// (callgrind profiles of two builds put the whole difference in those functions); the
  /// other 37 regions were identical in all six.
  static let instructionTolerance = 0.001

  /// Tolerances of a new thresholds file (`thresholds update` keeps an existing file's).
  /// Counts are exact: 0. Instructions: see `instructionTolerance`.
  static let defaultTolerance: [String: Double] = [
    Metric.instructions.rawValue: instructionTolerance,
    Metric.allocations.rawValue: 0,
    Metric.allocatedBytes.rawValue: 0,
    Metric.peakBytes.rawValue: 0,
    Metric.graphBytes.rawValue: 0,
    Metric.retains.rawValue: 0,
    Metric.releases.rawValue: 0,
  ]

  var schema: Int
  var size: CaseSize
  var toolchain: String
  var allocationCounter: String
  var tolerance: [String: Double]
  /// Threshold key → its own relative tolerance, for the few counts that move with the
  /// binary's layout (see the README, "Thresholds"); absent when none. Edited by hand;
  /// `thresholds update` keeps them.
  var toleranceOverrides: [String: Double]?
  var values: [String: Int]

  static func defaultPath(for size: CaseSize) -> String {
    "Results/thresholds/\(size.rawValue).json"
  }

  static func key(_ id: String, _ metric: Metric) -> String { "\(id) \(metric.rawValue)" }

  /// Splits a key into `case@system` and metric; nil when malformed.
  static func split(_ key: String) -> (id: String, metric: String)? {
    guard let space = key.lastIndex(of: " ") else { return nil }
    let id = String(key[..<space])
    let metric = String(key[key.index(after: space)...])
    guard id.contains("@"), !metric.isEmpty else { return nil }
    return (id, metric)
  }

  static func read(_ path: String) throws -> ThresholdFile {
    guard FileManager.default.fileExists(atPath: path) else {
      throw BenchError("thresholds file \(path) does not exist")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw BenchError("cannot read thresholds file \(path)")
    }
    struct Header: Decodable { var schema: Int? }
    guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
      throw BenchError("thresholds file \(path) is not valid JSON")
    }
    guard header.schema == currentSchema else {
      throw BenchError(
        "thresholds file \(path) has schema \(header.schema.map(String.init) ?? "none"); "
          + "expected \(currentSchema)")
    }
    let file: ThresholdFile
    do {
      file = try JSONDecoder().decode(ThresholdFile.self, from: data)
    } catch {
      throw BenchError("thresholds file \(path) is corrupt (\(oneLine(error)))")
    }
    for key in file.values.keys {
      guard let (_, metric) = split(key) else {
        throw BenchError(
          "thresholds file \(path): malformed key '\(key)' (want '<case>@<system> <metric>')")
      }
      guard let m = Metric(rawValue: metric) else {
        throw BenchError("thresholds file \(path): unknown metric '\(metric)' in '\(key)'")
      }
      guard m.isDeterministic else {
        throw BenchError(
          "thresholds file \(path): '\(metric)' is not deterministic and cannot be gated")
      }
    }
    for (key, value) in file.values where value < 0 {
      throw BenchError("thresholds file \(path): negative threshold \(value) for '\(key)'")
    }
    for (key, tolerance) in file.toleranceOverrides ?? [:] {
      guard file.values[key] != nil else {
        throw BenchError(
          "thresholds file \(path): tolerance override for '\(key)', which has no threshold")
      }
      guard tolerance.isFinite, tolerance >= 0, tolerance < 1 else {
        throw BenchError(
          "thresholds file \(path): tolerance override \(tolerance) for '\(key)' is not in 0 ..< 1")
      }
    }
    for (metric, tolerance) in file.tolerance {
      guard Metric(rawValue: metric) != nil else {
        throw BenchError("thresholds file \(path): unknown metric '\(metric)' in tolerance")
      }
      guard tolerance.isFinite, tolerance >= 0, tolerance < 1 else {
        throw BenchError(
          "thresholds file \(path): tolerance \(tolerance) for \(metric) is not in 0 ..< 1 "
            + "(a relative tolerance: 0.001 is 0.1%)")
      }
    }
    return file
  }

  enum Verdict {
    case within
    case regression
    case improvement
  }

  /// The relative tolerance of the threshold `key` (of `metric`): its override, or the
  /// metric's.
  func tolerance(of key: String, metric: Metric) -> Double {
    toleranceOverrides?[key] ?? tolerance[metric.rawValue] ?? 0
  }

  /// How `value` compares with the threshold `key` under its tolerance:
  /// |value − threshold| ≤ ceil(threshold × tolerance) is within.
  func verdict(_ value: Int, threshold: Int, key: String, metric: Metric) -> Verdict {
    let slack = Int((Double(threshold) * tolerance(of: key, metric: metric)).rounded(.up))
    let delta = value - threshold
    if delta > slack { return .regression }
    if delta < -slack { return .improvement }
    return .within
  }

  func encoded() throws -> Data {
    var data = try ResultFile.encoder().encode(self)
    data.append(0x0A)
    return data
  }
}
