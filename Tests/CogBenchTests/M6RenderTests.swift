import Foundation
import Testing

// The record's M6 comparison (issue 12), rendered from a synthetic M6 result next to a
// synthetic complete main run (test inputs, not measurements).

@MainActor
@Suite("The M6 comparison in the record")
struct M6RenderTests {
  /// One M6 entry: case × system with instructions, counts and a wall-time median.
  func entry(
    _ caseID: String, _ system: String, ir: Int, wall: Double, allocations: Int = 0,
    retains: Int = 0, graphBytes: Int? = nil
  ) -> [String: Any] {
    var metrics: [String: Any] = [
      "instructions": ["unit": "Ir/sample", "value": ir],
      "allocations": ["unit": "allocations/sample", "value": allocations],
      "retains": ["unit": "retains/sample", "value": retains],
      "releases": ["unit": "releases/sample", "value": retains],
      "wallTime": ["unit": "ns/iteration", "min": wall, "median": wall, "max": wall, "samples": 3],
    ]
    if let graphBytes { metrics["graphBytes"] = ["unit": "bytes", "value": graphBytes] }
    return [
      "id": "\(caseID)@\(system)", "caseID": caseID,
      "family": String(caseID.split(separator: "/")[0]),
      "system": system, "iterationsPerSample": 5,
      "checks": ["passed": true, "failures": [String]()], "metrics": metrics,
    ]
  }

  @Test("render shows every variant against the pool and cog, the churn cases and the findings")
  func m6Section() throws {
    let dir = try temporaryDirectory()
    var main = syntheticResult()
    main["settings"] = [
      "samples": 1, "warmupSamples": 0, "metrics": ["allocations", "retains", "wallTime"],
      "systems": ["cog", "simple", "object-graph", "observation"], "complete": true,
    ]
    try write(main, to: dir + "/now.json")
    var results: [[String: Any]] = []
    // A stable case: the pool fewest; a churn case: prefix arrays fewest.
    let stable: [(String, Int, Double)] = [
      ("cog", 1000, 10), ("cog[pool+inline]", 1000, 10), ("cog[prefix+inline]", 1200, 11),
      ("cog[overflow2+inline]", 1100, 12),
    ]
    for (s, ir, wall) in stable {
      results.append(entry("kairo/deep", s, ir: ir, wall: wall))
      results.append(entry("cog/peak-memory-1000", s, ir: ir, wall: wall, graphBytes: 200_200))
    }
    let churn: [(String, Int, Double)] = [
      ("cog", 2000, 20), ("cog[pool+inline]", 2000, 20), ("cog[prefix+inline]", 1500, 21),
      ("cog[overflow2+inline]", 2100, 22),
    ]
    for (s, ir, wall) in churn {
      results.append(entry("cog/dependency-churn", s, ir: ir, wall: wall))
    }
    let keyed: [(String, Int, Double)] = [
      ("cog", 3000, 30), ("cog[pool+inline]", 3000, 30), ("cog[prefix+inline]", 3300, 33),
      ("cog[overflow2+inline]", 3600, 36), ("cog[pool+interned]", 2940, 33),
      ("cog[pool+typed]", 3180, 30),
    ]
    for (s, ir, wall) in keyed {
      results.append(entry("cog/keyed-diamond", s, ir: ir, wall: wall, retains: 1650))
    }
    var m6 = syntheticResult()
    m6["settings"] = [
      "samples": 3, "warmupSamples": 0,
      "metrics": ["instructions", "allocations", "retains", "releases", "graphBytes", "wallTime"],
      "systems": keyed.map { $0.0 },
    ]
    m6["results"] = results
    try FileManager.default.createDirectory(
      atPath: dir + "/m6", withIntermediateDirectories: true)
    try write(m6, to: dir + "/m6/m6.json")
    let o = try renderRecord("now.json", in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = (try? String(contentsOfFile: dir + "/perf.md", encoding: .utf8)) ?? ""
    #expect(md.contains("## M6 comparison: edge and reference layouts"))
    #expect(md.contains("From `m6/m6.json`"))
    // Per variant: stable cases (kairo/deep, peak-memory) 1.2× for prefix; churn 0.75×;
    // wall time against cog; bytes per row = 200,200 / 1,001.
    #expect(md.contains("| `cog[prefix+inline]` | 4 | 1.166 | 0.750 |"))
    #expect(md.contains("| `cog[pool+inline]` | 4 | 1.000 | 1.000 | 1.00 |"))
    #expect(md.contains(" | 200 |"))
    // Per case, with ratios to the pool.
    #expect(
      md.contains(
        "| `cog/keyed-diamond` | 3000 | 3300 (1.100) | 3600 (1.200) | 2940 (0.980) | 3180 (1.060) |"
      ))
    // Churn and keyed rows: Ir × base, wall × cog, counts.
    #expect(
      md.contains(
        "| `cog/keyed-diamond` | `cog[pool+interned]` | 0.980 | 1.10 | 0 / 1650 / 1650 | – |"))
    // Findings against the seed, with the numbers.
    #expect(md.contains("fewest on the stable cases in geometric mean is `cog[pool+inline]`"))
    #expect(
      md.contains(
        "`cog/dependency-churn`: fewest instructions `cog[prefix+inline]`; prefix arrays 0.750× the pool, wall time 1.05× the pool."
      ))
    #expect(
      md.contains(
        "Here: `cog[pool+typed]` is 1.060× the inline references' instructions on the keyed cases"))
    #expect(md.contains("(dirty") == false)
    // The chart of the churn and keyed cases is written.
    let charts = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/charts")) ?? []
    #expect(charts.contains("m6-quick-churn-keyed-instructions.svg"))
  }

  @Test("without an M6 result the section says how to make one")
  func noM6() throws {
    let dir = try temporaryDirectory()
    var main = syntheticResult()
    main["settings"] = [
      "samples": 1, "warmupSamples": 0, "metrics": ["allocations", "retains", "wallTime"],
      "systems": ["cog", "simple", "object-graph", "observation"], "complete": true,
    ]
    try write(main, to: dir + "/now.json")
    let o = try CogBench.run(
      [
        "render", "now.json", "--out", "perf.md", "--history", "h.md", "--charts", "charts",
        "--notes", "none.md", "--profiles", "profiles", "--m6-dir", "missing",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = (try? String(contentsOfFile: dir + "/perf.md", encoding: .utf8)) ?? ""
    #expect(md.contains("No M6 result file yet: `scripts/compare.sh m6`"))
  }
}
