import Foundation

/// The cache counters (`dataAccesses`, `d1Misses`, `llMisses`): callgrind with its cache
/// simulator, in a `RegionRun` child of its own per region (kind `.cache`), over the same
/// client-request window as `instructions` (cachegrind in valgrind 3.19 cannot be toggled by
/// client requests; callgrind's simulator honours the same toggles).
///
/// The simulated geometry is fixed rather than read from the host's CPUID, so that the
/// counts do not depend on the machine: a 32 KiB, 8-way first level (data and instructions,
/// 64-byte lines) and a 32 MiB, 16-way last level, the caches of the 2-core VMs the record is
/// measured on (`lscpu`: L1d 32 KiB per core, L3 32 MiB; valgrind simulates two levels, so
/// the 1 MiB L2 is not modelled by default, and the TLB never is). `run --cache-last-level`
/// sets the last level's size, for example to the L2's, to count the misses that leave it;
/// the record's run (`scripts/compare.sh`) does, as issue 25's CellX goal is about the L2.
///
/// What the simulated caches hold when the window opens matters as much as the window: a
/// timed sample runs right after its `beforeSample` (CellX builds its graph there), so the
/// child turns the simulator on before `beforeSample` (or, for cases without one, before the
/// warm-up sample) and collects only over the sample, as `instructions` does.
@MainActor
enum CacheRun {
  nonisolated static let firstLevel = (size: 32_768, associativity: 8, line: 64)
  nonisolated static let defaultLastLevelSize = 33_554_432
  /// The simulated last level. `run --cache-last-level` sets its size once, before any child
  /// starts (for example to the 1 MiB L2, which the default geometry does not model); the
  /// result file's counter sources name the geometry measured.
  nonisolated(unsafe) static var lastLevel = (
    size: defaultLastLevelSize, associativity: 16, line: 64
  )

  /// Checks a `--cache-last-level` size: a power of two from 64 KiB to 1 GiB (valgrind needs
  /// a power-of-two number of sets), larger than the first level.
  nonisolated static func validLastLevelSize(_ bytes: Int) -> String? {
    if bytes < 65_536 || bytes > 1 << 30 || bytes & (bytes - 1) != 0 {
      return "--cache-last-level must be a power of two from 65536 to 1073741824 bytes "
        + "(got \(bytes))"
    }
    return nil
  }

  nonisolated static var geometryDescription: String {
    let ll =
      lastLevel.size >= 1_048_576
      ? "\(lastLevel.size / 1_048_576) MiB" : "\(lastLevel.size / 1024) KiB"
    return "D1 and I1 \(firstLevel.size / 1024) KiB \(firstLevel.associativity)-way, LL "
      + "\(ll) \(lastLevel.associativity)-way, \(firstLevel.line)-byte lines"
  }

  /// The valgrind arguments of a cache child writing into `directory`.
  static func arguments(directory: String) -> [String] {
    func spec(_ c: (size: Int, associativity: Int, line: Int)) -> String {
      "\(c.size),\(c.associativity),\(c.line)"
    }
    return RegionRun.callgrindArguments(directory: directory) + [
      "--cache-sim=yes", "--I1=\(spec(firstLevel))", "--D1=\(spec(firstLevel))",
      "--LL=\(spec(lastLevel))",
    ]
  }

  /// Reads every numbered dump in `directory` (as `CallgrindRun.parseDumps`) and returns
  /// region name → (event name → count, from the dump's `events:` and `summary:` lines; the
  /// dump's path, for `cog-bench profile --cache-last-level`).
  static func parseEventDumps(in directory: String) throws -> [String: (
    events: [String: Int], path: String
  )] {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    var result: [String: (events: [String: Int], path: String)] = [:]
    for name in names where name.hasPrefix("cg.out.") {
      let parts = name.split(separator: ".")
      guard parts.count >= 3, parts.count <= 4, Int(parts.last!) != nil,
        parts.count == 3 || Int(parts[2]) != nil
      else { continue }
      guard let text = try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)
      else { continue }
      if let (region, events) = parseEvents(text) {
        result[region] = (events, "\(directory)/\(name)")
      }
    }
    return result
  }

  /// The region name and event totals of one dump's text, or nil when it has no client-request
  /// trigger, no `events:` line or a `summary:` line that does not match it.
  static func parseEvents(_ text: String) -> (String, [String: Int])? {
    var region: String?
    var events: [String]?
    var summary: [Int]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("desc: Trigger: Client Request: ") {
        region = String(line.dropFirst("desc: Trigger: Client Request: ".count))
      } else if line.hasPrefix("events:") {
        events = line.dropFirst("events:".count).split(separator: " ").map(String.init)
      } else if line.hasPrefix("summary:") {
        let values = line.dropFirst("summary:".count).split(separator: " ").map { Int($0) }
        if values.allSatisfy({ $0 != nil }) { summary = values.map { $0! } }
      }
      if region != nil && events != nil && summary != nil { break }
    }
    guard let region, let events, let summary, events.count == summary.count else { return nil }
    return (region, Dictionary(zip(events, summary), uniquingKeysWith: { a, _ in a }))
  }

  /// A cache metric's count from a dump's events, or why it has none.
  static func reading(_ m: Metric, _ events: [String: Int]) -> Result<Int, BenchError> {
    guard let names = m.cacheEvents else {
      return .failure(BenchError("\(m.rawValue) is not a cache metric"))
    }
    var total = 0
    for n in names {
      guard let v = events[n] else {
        return .failure(
          BenchError(
            "callgrind's dump has no \(n) event (was --cache-sim=yes honoured? events: "
              + events.keys.sorted().joined(separator: " ") + ")"))
      }
      total += v
    }
    return .success(total)
  }
}
