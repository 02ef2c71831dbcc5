import Foundation
import Testing

// Cache profiles (`cog-bench profile --cache`): the record's cache-miss attribution, rendered
// from synthetic profile files (test inputs, not measurements), beside instruction profiles
// written before cache profiles existed. A measured cache profile needs a release build
// (valgrind 3.19 cannot read a debug build's DWARF 5); CI's record covers that.

@MainActor
@Suite("Cache profiles")
struct CacheProfileTests {
  static func profile(caseID: String, cache: [String: Any]?, functions: [[String: Any]])
    -> [String: Any]
  {
    var p: [String: Any] = [
      "schema": 1, "date": "2026-12-01T00:00:00Z", "caseID": caseID, "system": "cog",
      "size": "quick", "commit": "0123456789abcdef", "toolchain": "test",
      "totalInstructions": 1000, "iterationsPerSample": 1, "functions": functions,
    ]
    if let cache { p["cache"] = cache }
    return p
  }

  @Test("render ranks a cache profile's functions by LL misses, apart from instruction profiles")
  func rendersCacheSection() throws {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/profiles", withIntermediateDirectories: true)
    try write(syntheticResult(complete: true), to: dir + "/now.json")
    // An instruction profile in the format written before cache profiles (no cache fields).
    try write(
      Self.profile(
        caseID: "kairo/deep", cache: nil,
        functions: [
          ["instructions": 900, "share": 90.0, "function": "Graph.runTurn", "file": "x"]
        ]), to: dir + "/profiles/kairo_deep@cog-quick-20261201T000000Z.json")
    try write(
      Self.profile(
        caseID: "cellx/5000",
        cache: [
          "geometry": "D1 and I1 32 KiB 8-way, LL 1 MiB 16-way, 64-byte lines",
          "dataAccesses": 600, "d1Misses": 40, "llMisses": 20,
        ],
        functions: [
          [
            "instructions": 500, "share": 50.0, "function": "Graph.runTurn", "file": "x",
            "dataAccesses": 300, "d1Misses": 25, "llMisses": 15,
          ],
          [
            "instructions": 100, "share": 10.0, "function": "closure #1 in read", "file": "x",
            "dataAccesses": 50, "d1Misses": 10, "llMisses": 5,
          ],
        ]), to: dir + "/profiles/cellx_5000@cog-quick-cache-20261201T000000Z.json")
    let o = try renderRecord("now.json", in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = (try? String(contentsOfFile: dir + "/perf.md", encoding: .utf8)) ?? ""
    #expect(md.contains("## Cache-miss attribution (profiles)"))
    #expect(
      md.contains(
        "### cellx/5000@cog (quick), D1 and I1 32 KiB 8-way, LL 1 MiB 16-way, 64-byte lines: "
          + "20 LL misses, 40 D1 misses, 600 data accesses, 1000 Ir for 1 iterations"))
    #expect(md.contains("| 15 | 75.0% | 25 | 300 | 500 | `Graph.runTurn` |"))
    #expect(md.contains("| 5 | 25.0% | 10 | 50 | 100 | `closure #1 in read` |"))
    // The instruction profile stays in the instruction attribution; the cache one is not there.
    #expect(md.contains("### kairo/deep@cog (quick): 1000 Ir for 1 iterations"))
    #expect(!md.contains("### cellx/5000@cog (quick): 1000 Ir"))
  }

  @Test("a record with no cache profile has no cache-miss section")
  func noCacheSection() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(complete: true), to: dir + "/now.json")
    let o = try renderRecord("now.json", in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = (try? String(contentsOfFile: dir + "/perf.md", encoding: .utf8)) ?? ""
    #expect(!md.contains("Cache-miss attribution"))
  }

  @Test(
    "profile's cache options are checked before anything runs",
    arguments: [
      (["--cache-last-level", "1000"], "must be a power of two"),
      (["--cache-last-level", "big"], "cache-last-level"),
    ])
  func badCacheOptions(options: [String], message: String) throws {
    let o = try CogBench.run(
      ["profile", "cellx/1000", "--allow-debug", "--no-write"] + options,
      in: try temporaryDirectory())
    #expect(o.status == 1)
    #expect(o.stderr.contains(message), "\(o.stderr)")
    #expect(o.stderr.split(separator: "\n").count == 1, "\(o.stderr)")
  }
}
