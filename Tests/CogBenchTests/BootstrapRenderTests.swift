import Foundation
import Testing

// Wall-time ratios in the record carry a bootstrap interval from the samples a result file
// keeps; `run` keeps them. Synthetic result files (test inputs, not measurements).

@MainActor
@Suite("wall-time intervals")
struct BootstrapRenderTests {
  /// A complete synthetic run whose wall-time samples are `cog` and `simple`.
  static func run(cog: [Double]?, simple: [Double]?) -> [String: Any] {
    var r = syntheticResult(complete: true, instructions: 100)
    var results = r["results"] as! [[String: Any]]
    for (k, samples) in [(0, cog), (1, simple)] {
      guard let samples else { continue }
      var metrics = results[k]["metrics"] as! [String: Any]
      let s = samples.sorted()
      metrics["wallTime"] = [
        "unit": "ns/iteration", "min": s.first!, "median": s[s.count / 2], "max": s.last!,
        "samples": s.count, "sampleValues": samples,
      ]
      results[k]["metrics"] = metrics
    }
    r["results"] = results
    return r
  }

  static func simpleRow(_ dir: String, _ run: [String: Any]) throws -> String {
    try FileManager.default.createDirectory(
      atPath: dir + "/runs", withIntermediateDirectories: true)
    try write(run, to: dir + "/runs/a.json")
    let o = try CogBench.run(RecordSafetyTests.renderArguments, in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    return md.split(separator: "\n").map(String.init).first {
      $0.hasPrefix("| `kairo/deep` | simple |")
    } ?? ""
  }

  @Test("a ratio with samples on both sides carries its 95% bootstrap interval")
  func interval() throws {
    // Constant samples: every resampling gives the same ratio.
    let constant = try Self.simpleRow(
      try temporaryDirectory(), Self.run(cog: [2, 2, 2, 2], simple: [5, 5, 5, 5]))
    #expect(constant.contains("| 2.50× (2.50–2.50) |"), "\(constant)")
    // Spread samples: an interval around the ratio of medians, the same on every render.
    let spread = Self.run(cog: [9, 10, 11, 10, 10, 12, 8], simple: [19, 20, 22, 20, 18, 21, 20])
    let row = try Self.simpleRow(try temporaryDirectory(), spread)
    let again = try Self.simpleRow(try temporaryDirectory(), spread)
    #expect(row == again)
    // "| 2.00× (low–high) |"
    let start = try #require(row.range(of: "| 2.00× ("), "\(row)")
    let rest = row[start.upperBound...]
    let close = try #require(rest.firstIndex(of: ")"))
    let bounds = rest[..<close].split(separator: "–").compactMap { Double($0) }
    try #require(bounds.count == 2, "\(row)")
    let (low, high) = (bounds[0], bounds[1])
    #expect(low < 2 && high > 2 && low > 1.5 && high < 2.6, "\(row)")
  }

  @Test("without samples (older files) the ratio stands alone")
  func noSamples() throws {
    let row = try Self.simpleRow(try temporaryDirectory(), syntheticResult(complete: true))
    #expect(row.contains("| 2.00× |"), "\(row)")
  }

  @Test("run keeps every wall-time sample")
  func runKeepsSamples() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "kairo/deep", "--systems", "cog", "--metrics",
        "wallTime", "--samples", "4", "--warmup", "0", "--output-dir", "out",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let path = try #require(writtenResult(o, in: dir))
    let results = try readJSON(path)["results"] as! [[String: Any]]
    let wall = (results[0]["metrics"] as! [String: Any])["wallTime"] as! [String: Any]
    let values = try #require(wall["sampleValues"] as? [Double], "\(wall)")
    #expect(values.count == wall["samples"] as? Int)
    #expect(values.min() == wall["min"] as? Double)
  }
}
