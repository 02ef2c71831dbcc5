import CogBenchSystems
import CogVariants
import Foundation
import Testing

// Issue 13's growth with graph size: the cache counters (opt-in, unavailable without
// valgrind), the layouts' storage figures, and the record's sections rendered from a
// synthetic complete run (test inputs, not measurements).

@MainActor
@Suite("Growth with graph size")
struct GrowthRenderTests {
  func cellx(
    _ layers: Int, _ system: String, ir: Int, d1: Int?, ll: Int?, wall: Double, bytes: Int,
    fastest: Double? = nil
  ) -> [String: Any] {
    var metrics: [String: Any] = [
      "instructions": ["unit": "Ir/sample", "value": ir],
      "graphBytes": ["unit": "bytes", "value": bytes],
      "wallTime": [
        "unit": "ns/iteration", "min": fastest ?? wall, "median": wall, "max": wall, "samples": 3,
      ],
      "dataAccesses": ["unit": "accesses/sample", "value": ir / 2],
    ]
    metrics["d1Misses"] =
      d1.map { ["unit": "misses/sample", "value": $0] }
      ?? ["unit": "misses/sample", "unavailable": "valgrind is not on PATH"]
    metrics["llMisses"] =
      ll.map { ["unit": "misses/sample", "value": $0] }
      ?? ["unit": "misses/sample", "unavailable": "valgrind is not on PATH"]
    return [
      "id": "cellx/\(layers)@\(system)", "caseID": "cellx/\(layers)", "family": "cellx",
      "system": system, "iterationsPerSample": 1,
      "checks": ["passed": true, "failures": [String]()], "metrics": metrics,
    ]
  }

  @Test("the record shows per-cell figures at three sizes, the 5000 ÷ 1000 ratio and the goals")
  func growthSections() throws {
    let dir = try temporaryDirectory()
    var file = syntheticResult(
      systems: ["cog", "simple", "cog[prefix+inline]", "cog[overflow2+inline]"], complete: true)
    var results = file["results"] as! [[String: Any]]
    // cog: flat instructions, wall time per cell 1.5× at 5000 (goal not met); prefix: flat;
    // overflow: flat medians but fastest samples 1.5× at 5000 (not met: both must hold).
    for (layers, wall) in [(1000, 1_000_000.0), (2500, 3_000_000.0), (5000, 7_500_000.0)] {
      results.append(
        cellx(
          layers, "cog", ir: 2600 * layers, d1: 65 * layers, ll: layers / 2, wall: wall,
          bytes: 4000 * layers))
      results.append(
        cellx(
          layers, "cog[prefix+inline]", ir: 3100 * layers, d1: nil, ll: nil,
          wall: Double(layers) * 1000, bytes: 4200 * layers))
      results.append(
        cellx(
          layers, "cog[overflow2+inline]", ir: 3100 * layers, d1: nil, ll: nil,
          wall: Double(layers) * 1000, bytes: 4200 * layers,
          fastest: Double(layers) * (layers == 5000 ? 750 : 500)))
    }
    results.append(
      cellx(1000, "simple", ir: 40_000_000, d1: 1, ll: 1, wall: 4_000_000, bytes: 2_300_000))
    file["results"] = results
    file["counterSources"] = ["d1Misses": "callgrind --cache-sim=yes (test)"]
    file["storage"] = [
      "cog": [
        "rowColumnBytes": 53, "edgeStoreRowBytes": 12, "bytesPerEdgeAt2": 24.0,
        "bytesPerEdgeAt4": 24.0,
      ],
      "cog[prefix+inline]": [
        "rowColumnBytes": 53, "edgeStoreRowBytes": 24, "bytesPerEdgeAt2": 32.0,
        "bytesPerEdgeAt4": 32.0,
      ],
    ]
    try write(file, to: dir + "/now.json")
    let o = try renderRecord("now.json", in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(md.contains("## Growth with graph size"))
    #expect(
      md.contains("| cog | 1000 | 2600.0 | 1300.0 | 65.0 | 0.50 | 1.00 µs | 1.00 µs |"), "\(md)")
    #expect(md.contains("| cog | 5000 | 2600.0 | 1300.0 | 65.0 | 0.50 | 1.50 µs | 1.50 µs |"))
    #expect(
      md.contains(
        "| cog | 5000 ÷ 1000 | 1.00× | 1.00× | 1.00× | 1.00× | 1.50× | 1.50× | **not met** |"))
    #expect(
      md.contains(
        "| cog[overflow2+inline] | 5000 ÷ 1000 | 1.00× | 1.00× | – | – | 1.00× | 1.50× | **not met** |"
      ), "\(md)")
    // Unavailable counters say so, never 0; the flat system meets the goal.
    #expect(
      md.contains("| cog[prefix+inline] | 1000 | 3100.0 | 1550.0 | unavailable | unavailable |"))
    #expect(
      md.contains(
        "| cog[prefix+inline] | 5000 ÷ 1000 | 1.00× | 1.00× | – | – | 1.00× | 1.00× | met |"))
    // Systems that do not run Cog are not in the section.
    #expect(!md.contains("| simple | 1000 |"))
    #expect(md.contains("## Bytes per row and per edge"))
    #expect(md.contains("| cog | 53 | 12 | 65 (**not met**) | 24.0 | 24.0 (met) | 500 |"), "\(md)")
    #expect(
      md.contains(
        "| cog[prefix+inline] | 53 | 24 | 77 (**not met**) | 32.0 | 32.0 (**not met**) | 525 |"))
  }

  @Test(
    "L2 misses per cell are judged only where the simulated last level is the 1 MiB L2",
    arguments: [
      ("LL 1 MiB 16-way", "1.33×", "**not met**", "; L2 misses **not met** |"),
      (
        "LL 32 MiB 16-way", "not measured: this run's simulated last level is 32768 KiB",
        "unavailable", "| 1.00× | 1.00× | met |"
      ),
      (nil, "not measured", "unavailable", "| 1.00× | 1.00× | met |"),
    ] as [(String?, String, String, String)])
  func l2Goal(geometry: String?, measured: String, verdict: String, ratioRowEnd: String) throws {
    let dir = try temporaryDirectory()
    var file = syntheticResult(systems: ["cog", "simple"], complete: true)
    var results = file["results"] as! [[String: Any]]
    // Flat wall time; L2 misses per cell 24 at 1,000 layers, 32 at 5,000 (1.33×).
    for (layers, ll) in [(1000, 24), (2500, 28), (5000, 32)] {
      results.append(
        cellx(
          layers, "cog", ir: 2000 * layers, d1: 50 * layers, ll: ll * layers,
          wall: Double(layers) * 300, bytes: 4000 * layers))
    }
    file["results"] = results
    var sources = ["d1Misses": "callgrind --cache-sim=yes (test)"]
    if let geometry {
      sources["llMisses"] =
        "callgrind --cache-sim=yes (D1 and I1 32 KiB 8-way, \(geometry), "
        + "64-byte lines) (test)"
    }
    file["counterSources"] = sources
    let (status, md) = try renderRecord(file, in: dir)
    #expect(status == 0)
    #expect(
      md.contains(
        "| L2 misses per cell flat with graph size, CellX 5000 ÷ 1000 layers on `cog` (≤ 1.10×, "
          + "simulated 1 MiB last level) | \(measured) | \(verdict) |"), "\(md)")
    let ratioRow = md.split(separator: "\n").first { $0.hasPrefix("| cog | 5000 ÷ 1000 |") }
    #expect(ratioRow?.hasSuffix(ratioRowEnd) == true, "\(ratioRow ?? "no ratio row")")
  }

  @Test("a record without cache counters or storage figures renders, saying what is missing")
  func olderFile() throws {
    let dir = try temporaryDirectory()
    try write(syntheticResult(complete: true), to: dir + "/old.json")
    let o = try renderRecord("old.json", in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(md.contains("No result measured the CellX cases on a `cog*` system."))
    #expect(md.contains("No storage figures in the current result file"))
  }

  @Test("the cache counters are opt-in, and their options need them")
  func optIn() throws {
    let dir = try temporaryDirectory()
    let list = try CogBench.run(["list"], in: dir)
    #expect(list.stdout.contains("d1Misses"))
    #expect(list.stdout.contains("opt-in (--metrics)"))
    let stray = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cellx/1000", "--systems", "cog", "--metrics",
        "instructions", "--cache-cases", "cellx/*",
      ], in: dir)
    #expect(stray.status == 1)
    #expect(
      stray.stderr.contains(
        "--cache-cases, --cache-systems and --cache-last-level need a cache metric"))
    // The simulated last level's size: a power of two in range, and only with a cache metric.
    for (metric, size, message) in [
      ("d1Misses", "1000000", "must be a power of two from 65536 to 1073741824 bytes"),
      ("d1Misses", "32768", "must be a power of two"), ("d1Misses", "big", "cache-last-level"),
      ("instructions", "1048576", "need a cache metric"),
    ] {
      let o = try CogBench.run(
        [
          "run", "--allow-debug", "--cases", "cellx/1000", "--systems", "cog", "--metrics",
          metric, "--cache-last-level", size, "--output-dir", "none",
        ], in: dir)
      #expect(o.status == 1, "\(size): \(o.stderr)")
      #expect(o.stderr.contains(message), "\(size): \(o.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/none"))
    }
    let typo = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cellx/1000", "--systems", "cog", "--metrics",
        "d1Miss",
      ], in: dir)
    #expect(typo.status == 1)
    #expect(typo.stderr.contains("unknown metric d1Miss"))
    #expect(typo.stderr.contains("llMisses"))
    let none = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cellx/1000", "--systems", "cog", "--metrics",
        "d1Misses", "--cache-cases", "kairo/deep", "--output-dir", "none",
      ], in: dir)
    // A script's fixed cache selection outside a partial run's cases measures nothing, loudly.
    #expect(none.status == 0, "\(none.stderr)")
    #expect(none.stderr.contains("select no measured case × system"), "\(none.stderr)")
  }

  @Test("without valgrind the cache counters are recorded as unavailable with the reason")
  func unavailableWithoutValgrind() throws {
    let dir = try temporaryDirectory()
    let o = try CogBench.run(
      [
        "run", "--allow-debug", "--cases", "cellx/1000", "--systems", "cog", "--metrics",
        "d1Misses,llMisses", "--output-dir", "out",
      ], in: dir, environment: ["PATH": "/nonexistent"])
    #expect(o.status == 0, "\(o.stderr)")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir + "/out").first {
        $0.hasSuffix(".json")
      })
    let json = try readJSON(dir + "/out/" + name)
    let results = try #require(json["results"] as? [[String: Any]])
    let metrics = try #require(results.first?["metrics"] as? [String: [String: Any]])
    for m in ["d1Misses", "llMisses"] {
      #expect(metrics[m]?["value"] == nil)
      #expect((metrics[m]?["unavailable"] as? String)?.contains("valgrind") == true, "\(metrics)")
    }
    let sources = try #require(json["counterSources"] as? [String: String])
    #expect(sources["d1Misses"]?.hasPrefix("unavailable: ") == true)
    // The storage figures of the measured Cog system are recorded with the run.
    let storage = try #require(json["storage"] as? [String: [String: Any]])
    #expect(storage["cog"]?["rowColumnBytes"] as? Int ?? 0 > 0)
  }

  @Test("the storage probe measures each layout's own store exactly")
  func storageProbe() throws {
    var figures: [String: StorageFigures] = [:]
    for e in SystemBindings.all + Variants.all.map({ $0.entry }) {
      if let probe = e.storage { figures[e.id] = probe() }
    }
    #expect(
      Set(figures.keys) == [
        "cog", "cog[pool+inline]", "cog[prefix+inline]", "cog[overflow2+inline]",
      ])
    let pool = try #require(figures["cog"])
    // `cog` binds the pool: the same figures as the layout system of the pool.
    #expect(figures["cog[pool+inline]"] == pool)
    #expect(pool.edgeStoreRowBytes > 0 && pool.bytesPerEdgeAt2 > 0)
    // The pool's edges are all alike; an inline layout's first two cost nothing past the row.
    #expect(pool.bytesPerEdgeAt2 == pool.bytesPerEdgeAt4)
    let inline = try #require(figures["cog[overflow2+inline]"])
    #expect(inline.bytesPerEdgeAt2 < inline.bytesPerEdgeAt4)
    #expect(inline.edgeStoreRowBytes > pool.edgeStoreRowBytes)
    // Every layout shares the core's columns.
    #expect(Set(figures.values.map { $0.rowColumnBytes }).count == 1)
  }
}
