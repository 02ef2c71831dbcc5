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
  static let defaultTolerance: [String: Double] = [
    Metric.instructions.rawValue: 0.01,
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
    for metric in file.tolerance.keys where Metric(rawValue: metric) == nil {
      throw BenchError("thresholds file \(path): unknown metric '\(metric)' in tolerance")
    }
    return file
  }

  func encoded() throws -> Data {
    var data = try ResultFile.encoder().encode(self)
    data.append(0x0A)
    return data
  }

  /// The thresholds a result file implies: every available deterministic count of every
  /// measured case × system. Tolerances are kept from `previous` when given.
  static func from(_ result: ResultFile, previous: ThresholdFile?) -> ThresholdFile {
    var values: [String: Int] = [:]
    for r in result.results where r.notApplicable == nil {
      for m in Metric.allCases where m.isDeterministic {
        if let v = r.value(m)?.value { values[key(r.id, m)] = v }
      }
    }
    return ThresholdFile(
      schema: currentSchema, size: result.size, toolchain: result.environment.toolchain,
      allocationCounter: result.environment.build.allocationCounter,
      tolerance: previous?.tolerance ?? defaultTolerance, values: values)
  }
}
