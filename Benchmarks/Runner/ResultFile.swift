import CogBenchCases
import CogBenchSystems
import CogCounters
import Foundation

/// A result file: the measurements of one `cog-bench run`, with everything needed to judge
/// where they came from. Versioned JSON, pretty-printed with sorted keys.
struct ResultFile: Codable {
  /// Bumped on any incompatible change; readers reject other versions.
  static let currentSchema = 1

  var schema: Int
  var tool: String
  /// ISO 8601, UTC.
  var date: String
  var size: CaseSize
  var environment: RunEnvironment
  /// Metric name → the counter that produced it.
  var counterSources: [String: String]
  var settings: RunSettings
  /// Selected systems that cannot be measured in this build, with the reason.
  var unavailableSystems: [String: String]
  /// Sorted by `id` (`case@system`).
  var results: [CaseResult]
  /// System id → bytes per row and per edge of its layout (`StorageProbe`), for the measured
  /// systems that run Cog; absent in files written before it existed.
  var storage: [String: StorageFigures]?

  func result(_ caseID: String, _ system: String) -> CaseResult? {
    results.first { $0.caseID == caseID && $0.system == system }
  }

  /// What an instruction count of this file includes: since 9c12cc4 the allocator is left
  /// out (`RegionRun.allocatorToggles`). Files written since say so in their counter source;
  /// older ones are judged by date (every file in `Results/runs` before the change counted
  /// the allocator). `nil` when the file counted no instructions.
  var instructionScope: InstructionScope? {
    guard let source = counterSources[Metric.instructions.rawValue],
      !source.hasPrefix("unavailable")
    else { return nil }
    if source.contains(InstructionScope.withoutAllocatorMarker) { return .withoutAllocator }
    return date >= InstructionScope.changedAt ? .withoutAllocator : .withAllocator
  }
}

/// Whether instruction counts include the allocator's own instructions. Counts of two scopes
/// are not comparable (createSignals: 250,029 per sample with it, 183,232 without).
enum InstructionScope: String {
  case withAllocator = "with the allocator"
  case withoutAllocator = "without the allocator"

  /// The counter source's words for the current method (`RunEngine`).
  static let withoutAllocatorMarker = "the allocator left out"
  /// When the method changed (commit 9c12cc4's date; impl/perf-notes.md, Stop 37).
  static let changedAt = "2026-12-05T04:28:01Z"
}

struct RunSettings: Codable {
  /// The most timed samples per case × system (fewer when the time budget ran out; each
  /// time metric records how many it has).
  var samples: Int
  var warmupSamples: Int
  var metrics: [Metric]
  var systems: [String]
  /// Callgrind processes of the instruction phase (`run --jobs`); absent in older files and
  /// when instructions were not measured.
  var instructionProcesses: Int?
  /// The selected cases, in registry order; absent in files written before it existed.
  var cases: [String]?
  /// True when every counted and instruction region ran in a process of its own
  /// (`RegionRun`); absent in older files, whose counts depended on what ran before them.
  var regionsInOwnProcesses: Bool?
  /// `COG_BENCH_INJECT` when the test-only system `injected` was measured.
  var injection: String?
  /// True when the run measured the whole suite: every case, every system, every metric
  /// (`ResultFile.partialReason`); absent in older files, which are judged by their contents.
  var complete: Bool?
}

/// One case × system.
struct CaseResult: Codable {
  var id: String
  var caseID: String
  var family: String
  var system: String
  /// Nil when measured; otherwise why the system cannot express the case.
  var notApplicable: String?
  var iterationsPerSample: Int
  /// Rows a memoizing system runs per iteration, when the case fixes it (see
  /// `CaseDescription.recomputesPerIteration`); absent for systems without memoized
  /// computeds (they rerun rows per read) and in files written before it existed.
  var recomputesPerIteration: Int?
  /// Rows an iteration creates and their kind (`CaseDescription.createdRows`); absent for
  /// cases that do not measure creation and in files written before it existed.
  var createdRowsPerIteration: Int?
  var createdRowKind: CreatedRows.Kind?
  var checks: CheckOutcome
  var metrics: [String: MetricValue]
  /// Steady-state targets the case declares (no allocations, no retain/release) that this
  /// system missed in the counted sample. Reported, not gated (see `check --enforce-targets`).
  var steadyStateMisses: [String]?

  func value(_ m: Metric) -> MetricValue? { metrics[m.rawValue] }

  /// Adds what a region child measured for the same case × system: its metrics, its check
  /// failures, its steady-state misses, or that the case is not applicable after all.
  mutating func merge(_ other: CaseResult) {
    if let na = other.notApplicable {
      notApplicable = na
      return
    }
    if other.iterationsPerSample > 0 { iterationsPerSample = other.iterationsPerSample }
    if let r = other.recomputesPerIteration { recomputesPerIteration = r }
    if let r = other.createdRowsPerIteration { createdRowsPerIteration = r }
    if let k = other.createdRowKind { createdRowKind = k }
    for (name, value) in other.metrics { metrics[name] = value }
    if !other.checks.passed { checks.passed = false }
    checks.failures += other.checks.failures.filter { !checks.failures.contains($0) }
    if let misses = other.steadyStateMisses { steadyStateMisses = misses }
  }
}

struct CheckOutcome: Codable {
  /// True when every run-count and value check of the case passed in every phase.
  var passed: Bool
  var failures: [String]
}

/// A metric's value: an exact count, a time spread over samples, or unavailable with reason.
struct MetricValue: Codable, Equatable {
  var unit: String
  var value: Int?
  var min: Double?
  var median: Double?
  var max: Double?
  var samples: Int?
  /// A time's per-iteration value of every sample, in the order taken (the record's
  /// bootstrap intervals); absent for counts and in files written before it was kept.
  var sampleValues: [Double]?
  var unavailable: String?

  static func count(_ m: Metric, _ reading: CounterReading) -> MetricValue {
    switch reading {
    case .available(let v): return MetricValue(unit: m.unit, value: v)
    case .unavailable(let r): return MetricValue(unit: m.unit, unavailable: r)
    }
  }

  static func spread(_ m: Metric, _ values: [Double]) -> MetricValue {
    let s = values.sorted()
    guard !s.isEmpty else { return MetricValue(unit: m.unit, unavailable: "no samples") }
    let mid = s.count / 2
    let median = s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
    return MetricValue(
      unit: m.unit, min: s.first, median: median, max: s.last, samples: s.count,
      sampleValues: values)
  }

  static func unavailable(_ m: Metric, _ reason: String) -> MetricValue {
    MetricValue(unit: m.unit, unavailable: reason)
  }

  /// The number a comparison uses: the count, or the median time.
  var comparable: Double? { value.map(Double.init) ?? median }
}

// MARK: Completeness

extension ResultFile {
  /// Why this result cannot be the current record, or nil when it is a complete suite run:
  /// every case and system this runner has, every metric, no test-only system. Unavailable
  /// counters (no valgrind, over the instruction budget) are gaps, not partiality. The opt-in
  /// metrics (the cache counters) are not required.
  @MainActor func partialReason() -> String? {
    if environment.build.defines.contains(BuildFacts.noDiagnosticsDefine) {
      return "built with \(BuildFacts.noDiagnosticsDefine) (scripts/diagnostics-off-cost.sh)"
    }
    if settings.complete == true { return nil }
    if settings.injection != nil { return "measured the test-only system \(InjectedSystem.id)" }
    let cases = Set(settings.cases ?? results.map { $0.caseID })
    let missingCases = CaseCatalog.all.map { $0.id }.filter { !cases.contains($0) }
    let missingSystems = SystemCatalog.all.map { $0.id }.filter { !settings.systems.contains($0) }
    let missingMetrics = Metric.standard.filter { !settings.metrics.contains($0) }
    var parts: [String] = []
    if !missingCases.isEmpty {
      parts.append(
        "\(CaseCatalog.all.count - missingCases.count) of \(CaseCatalog.all.count) cases")
    }
    if !missingSystems.isEmpty {
      parts.append("no \(missingSystems.joined(separator: ", "))")
    }
    if !missingMetrics.isEmpty {
      parts.append("no \(missingMetrics.map { $0.rawValue }.joined(separator: ", "))")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }
}

// MARK: Reading and writing

extension ResultFile {
  static func encoder() -> JSONEncoder {
    let e = JSONEncoder()
    e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return e
  }

  func encoded() throws -> Data {
    var data = try ResultFile.encoder().encode(self)
    data.append(0x0A)
    return data
  }

  /// Reads a result file; corrupt JSON or another schema version is a one-line error.
  static func read(_ path: String) throws -> ResultFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw BenchError("cannot read result file \(path)")
    }
    struct Header: Decodable { var schema: Int? }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch {
      throw BenchError("\(path) is not valid JSON (\(oneLine(error)))")
    }
    guard let schema = header.schema else {
      throw BenchError("\(path) has no `schema` field: not a cog-bench result file")
    }
    guard schema == currentSchema else {
      throw BenchError(
        "\(path) has schema version \(schema); this cog-bench reads version \(currentSchema)")
    }
    do {
      return try JSONDecoder().decode(ResultFile.self, from: data)
    } catch {
      throw BenchError("\(path) is a corrupt result file (\(oneLine(error)))")
    }
  }
}

/// A decoding error as one short line.
func oneLine(_ error: Error) -> String {
  if let e = error as? DecodingError {
    switch e {
    case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
      return "\(c.debugDescription) at \(pathText(c.codingPath))"
    case .keyNotFound(let k, let c):
      return "missing key '\(k.stringValue)' at \(pathText(c.codingPath))"
    @unknown default: break
    }
  }
  return "\(error)".replacingOccurrences(of: "\n", with: " ")
}

private func pathText(_ path: [CodingKey]) -> String {
  path.isEmpty
    ? "top level"
    : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      .joined(separator: ".")
}
