import Foundation
import Testing

// `cog-bench memory` and the record's "Memory across samples" (issue 23: the state built for
// one sample dies with it, so resident memory stays flat across samples). Synthetic files
// are test inputs, not measurements.

@MainActor
@Suite("memory across samples")
struct MemoryRecordTests {
  static func file(date: String, growing: [Int]) -> [String: Any] {
    [
      "schema": 1, "date": date, "size": "full", "commit": "0123456789abcdef", "dirty": false,
      "toolchain": "test", "configuration": "release", "machine": "test machine",
      "warmupSamples": 2, "tolerancePercent": 5.0,
      "descriptors": ["manualCog": 64, "automaticCog": 176],
      "series": [
        [
          "caseID": "sbench/createSignals", "system": "cog", "iterationsPerSample": 1,
          "residentBytes": [100, 200, 1_048_576, 1_058_576, 1_048_576],
        ],
        [
          "caseID": "cellx/1000", "system": "cog", "iterationsPerSample": 1,
          "residentBytes": growing,
        ],
      ],
    ]
  }

  @Test("the newest memory file is the record's section: flat and not flat, descriptor bytes")
  func section() throws {
    let dir = try temporaryDirectory()
    for sub in ["/runs", "/mem"] {
      try FileManager.default.createDirectory(atPath: dir + sub, withIntermediateDirectories: true)
    }
    try write(syntheticResult(complete: true, instructions: 100), to: dir + "/runs/a.json")
    try write(
      Self.file(date: "2026-01-01T00:00:00Z", growing: [1, 2, 3, 4]), to: dir + "/mem/z-old.json")
    try write(
      Self.file(date: "2026-01-02T00:00:00Z", growing: [0, 0, 1_048_576, 2_097_152, 3_145_728]),
      to: dir + "/mem/a-new.json")
    let o = try CogBench.run(
      RecordSafetyTests.renderArguments + ["--memory-dir", "mem"], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    let memory = HistoryRenderTests.section(md, "Memory across samples")
    #expect(memory.contains("From `mem/a-new.json`"), "\(memory)")
    #expect(
      memory.contains("| `sbench/createSignals` | `cog` | 5 | 1.0 MiB | 1.0 MiB | 0.95% | yes |"),
      "\(memory)")
    #expect(
      memory.contains("| `cellx/1000` | `cog` | 5 | 1.0 MiB | 3.0 MiB | 200.00% | **no** |"),
      "\(memory)")
    #expect(memory.contains("a manual cog 64 (goal ≤ 64), an automatic cog 176"), "\(memory)")
  }

  @Test("bytes per state at scale show in the section and, against the goal, in the summary")
  func scale() throws {
    let dir = try temporaryDirectory()
    for sub in ["/runs", "/mem"] {
      try FileManager.default.createDirectory(atPath: dir + sub, withIntermediateDirectories: true)
    }
    try write(syntheticResult(complete: true, instructions: 100), to: dir + "/runs/a.json")
    var f = Self.file(date: "2026-01-02T00:00:00Z", growing: [1, 1, 1, 1, 1])
    f["scale"] = [
      "states": 2_000_000, "residentBytesPerState": 250.5, "heapBytesPerState": 230.25,
    ]
    try write(f, to: dir + "/mem/a.json")
    let o = try CogBench.run(
      RecordSafetyTests.renderArguments + ["--memory-dir", "mem"], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    let memory = HistoryRenderTests.section(md, "Memory across samples")
    #expect(
      memory.contains("230.3 bytes of live heap and 250.5 bytes of resident memory"), "\(memory)")
    let summary = HistoryRenderTests.section(md, "Summary")
    #expect(
      summary.contains(
        "230 bytes per state at 1000000 sources + 1000000 computeds (live heap; goal ≤ 200: **not met**)"
      ),
      "\(summary)")
    #expect(summary.contains("flat across samples in 2 of 2 series"), "\(summary)")
  }

  @Test("without a memory file the section says how to make one; a corrupt one is an error")
  func missingAndCorrupt() throws {
    let dir = try temporaryDirectory()
    for sub in ["/runs", "/mem"] {
      try FileManager.default.createDirectory(atPath: dir + sub, withIntermediateDirectories: true)
    }
    try write(syntheticResult(complete: true, instructions: 100), to: dir + "/runs/a.json")
    let o = try CogBench.run(RecordSafetyTests.renderArguments + ["--memory-dir", "mem"], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(HistoryRenderTests.section(md, "Memory across samples").contains("cog-bench memory"))
    try "{".write(toFile: dir + "/mem/bad.json", atomically: true, encoding: .utf8)
    let bad = try CogBench.run(
      RecordSafetyTests.renderArguments + ["--memory-dir", "mem"], in: dir)
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("corrupt memory file"), "\(bad.stderr)")
  }

  @Test("cog-bench memory measures every sample in a child and writes a file; bad input exits 1")
  func command() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "memory", "--cases", "sbench/createSignals", "--size", "quick", "--samples", "3",
        "--warmup", "1", "--output-dir", "out", "--allow-debug", "--scale", "2000",
      ], in: dir)
    #expect(o.status == 0 || o.status == 2, "\(o.stderr)")
    let path = try #require(writtenResult(o, in: dir))
    let json = try readJSON(path)
    let series = try #require(json["series"] as? [[String: Any]])
    #expect(series.count == 1)
    let rss = try #require(series.first?["residentBytes"] as? [Int])
    #expect(rss.count == 3 && rss.allSatisfy { $0 > 1_000_000 })
    let descriptors = try #require(json["descriptors"] as? [String: Int])
    #expect(descriptors["manualCog"] == 64)
    let scale = try #require(json["scale"] as? [String: Any], "\(json)")
    #expect(scale["states"] as? Int == 4000)
    #expect((scale["heapBytesPerState"] as? Double ?? 0) > 64, "\(scale)")
    let bad = try CogBench.run(
      ["memory", "--samples", "3", "--warmup", "4", "--allow-debug"], in: dir)
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("fewer than two samples after --warmup"), "\(bad.stderr)")
    let unknown = try CogBench.run(["memory", "--cases", "nope", "--allow-debug"], in: dir)
    #expect(unknown.status == 1)
  }
}
