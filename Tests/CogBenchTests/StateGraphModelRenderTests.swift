import Foundation
import Testing

// The record's comparison of the object-graph model with swift-state-graph (issue 17), rendered
// from synthetic `sinks/*` results (test inputs, not measurements).

/// A synthetic quick result with the `sinks/*` cases on `object-graph` and `cog`: one update of
/// 100 recomputed nodes per sample, the model's per-node instructions and allocations given in
/// issue 17's shape order (deep, broad, diamond, triangle, fan-out).
@MainActor
private func sinksResult(instructions: [Int], allocations: [Int], date: String) -> [String: Any] {
  let shapes = ["deep", "broad", "diamond", "triangle", "fan-out"]
  var results: [[String: Any]] = []
  for (i, shape) in shapes.enumerated() {
    for (system, ir, allocs) in [
      ("cog", 300, 0), ("object-graph", instructions[i], allocations[i]),
    ] {
      results.append([
        "id": "sinks/\(shape)@\(system)", "caseID": "sinks/\(shape)", "family": "sinks",
        "system": system, "iterationsPerSample": 1, "recomputesPerIteration": 100,
        "checks": ["passed": true, "failures": [String]()],
        "metrics": [
          "instructions": ["unit": "instructions/sample", "value": ir * 100],
          "allocations": ["unit": "allocations/sample", "value": allocs * 100],
        ],
      ])
    }
  }
  var file = syntheticResult()
  file["date"] = date
  file["settings"] = [
    "samples": 1, "warmupSamples": 0, "metrics": ["allocations", "instructions"],
    "systems": ["cog", "object-graph"], "complete": true,
  ]
  file["results"] = results
  return file
}

private let stateGraphInstructions = [98_186, 108_936, 127_611, 135_270, 270_938]

/// Renders `current` in `dir` with the model-then result file the renderer reads beside it
/// (10 allocations per node on every shape, so swift-state-graph's are 25, 25, 22, 22, 25).
@MainActor
private func renderSinks(_ current: [String: Any], in dir: String, withThen: Bool = true)
  throws -> (status: Int32, md: String)
{
  try FileManager.default.createDirectory(
    atPath: dir + "/Results/runs", withIntermediateDirectories: true)
  if withThen {
    try write(
      sinksResult(
        instructions: [32_917, 37_262, 48_878, 55_319, 192_832], allocations: [10, 10, 10, 10, 10],
        date: "2026-01-01T00:00:00Z"),
      to: dir + "/Results/runs/20261201T100934Z-quick-a535c3bf7b.json")
  }
  return try renderRecord(current, in: dir)
}

@MainActor
@Suite("The model against swift-state-graph in the record")
struct StateGraphModelRenderTests {
  @Test("render compares the model with swift-state-graph per node; within 1.3× it says so")
  func renderModelFaithful() throws {
    let dir = try temporaryDirectory()
    let r = try renderSinks(
      sinksResult(
        instructions: stateGraphInstructions, allocations: [25, 25, 22, 22, 25],
        date: "2026-01-02T00:00:00Z"), in: dir)
    #expect(r.status == 0)
    #expect(r.md.contains("## The object-graph model against swift-state-graph"))
    #expect(r.md.contains("is within 1.3× of swift-state-graph per recomputed node"))
    #expect(
      r.md.contains("| deep | `sinks/deep` | 98186 | 98186 | 1.00× | 25.0 | 25.0 | 1.00× | yes |"))
    #expect(r.md.contains("| `sinks/fan-out` | 192832 | 192832 | 10.0 | 2.5× | 25.0 |"))
    #expect(!r.md.contains("at least"))
    #expect(
      r.md.contains("| `sinks/deep` | object-graph | ok | 1 | 9818600 | 327.29× | 2500 | ∞ |"))
  }

  @Test("render labels every comparison of the model with Cog 'at least' when it is below")
  func renderModelLowerBound() throws {
    let dir = try temporaryDirectory()
    // deep at half of swift-state-graph's instructions: 2× below, outside 1.3×.
    var instructions = stateGraphInstructions
    instructions[0] /= 2
    let r = try renderSinks(
      sinksResult(
        instructions: instructions, allocations: [25, 25, 22, 22, 25],
        date: "2026-01-02T00:00:00Z"), in: dir)
    #expect(r.status == 0)
    #expect(r.md.contains("| deep | `sinks/deep` | 98186 | 49093 | 2.00× |"))
    #expect(r.md.contains("| 2.00× | 25.0 | 25.0 | 1.00× | **no** |"))
    #expect(r.md.contains("is a lower bound of swift-state-graph"))
    #expect(r.md.contains("measured up to 2.00× higher"))
    // The family table: both ratios of each model row, and a footnote.
    #expect(
      r.md.contains(
        "| `sinks/deep` | object-graph | ok | 1 | 4909300 | at least 163.64× | 2500 | at least ∞ |"
      ))
    #expect(r.md.contains("\nobject-graph: `object-graph` is a lower bound"))
    // The per-node table.
    #expect(
      r.md.contains(
        "| `sinks/deep` | object-graph | quick | 1 | 100 | 49093 | swift-state-graph: at least "
          + "this, measured up to 2.00× more |"))
  }

  @Test("render says the model is unverified when the model-then result is missing")
  func renderModelUnverified() throws {
    let dir = try temporaryDirectory()
    let r = try renderSinks(
      sinksResult(
        instructions: stateGraphInstructions, allocations: [25, 25, 22, 22, 25],
        date: "2026-01-02T00:00:00Z"), in: dir, withThen: false)
    #expect(r.status == 0)
    #expect(r.md.contains("fidelity to swift-state-graph is not checked in this result file"))
    #expect(r.md.contains("cannot read result file Results/runs/20261201T100934Z"))
    #expect(r.md.contains("| 98186 | 98186 | 1.00× | unavailable | 25.0 | – | unknown |"))
  }
}
