import Foundation
import Testing

// The record shows what explanations cost per recomputed row when on, beside the same graph
// with them off (issue 26), rendered from a synthetic result (test inputs, not measurements).

@MainActor
@Suite("Explanations' cost in the record")
struct ExplainedCostRenderTests {
  /// `cog/deep-api` (off) and `cog/deep-explained` (on) on `cog`, 2,601 rows per iteration.
  func result(on: Int, off: Int?) -> [String: Any] {
    var results: [[String: Any]] = []
    for (caseID, perRow) in [("cog/deep-explained", on), ("cog/deep-api", off)] {
      var metrics: [String: Any] = [
        "allocations": ["unit": "allocations/sample", "value": 0]
      ]
      if let perRow {
        metrics["instructions"] = ["unit": "instructions/sample", "value": perRow * 2 * 2601]
      }
      results.append([
        "id": "\(caseID)@cog", "caseID": caseID, "family": "cog", "system": "cog",
        "iterationsPerSample": 2, "recomputesPerIteration": 2601,
        "checks": ["passed": true, "failures": [String]()], "metrics": metrics,
      ])
    }
    var file = syntheticResult()
    file["settings"] = [
      "samples": 1, "warmupSamples": 0, "metrics": ["allocations", "instructions"],
      "systems": ["cog"], "complete": true,
    ]
    file["results"] = results
    return file
  }

  func render(_ file: [String: Any]) throws -> (status: Int32, md: String) {
    try renderRecord(file, in: temporaryDirectory())
  }

  @Test("the per-row table gives the explained case's instructions beside its twin's, off")
  func onBesideOff() throws {
    let r = try render(result(on: 900, off: 200))
    #expect(r.status == 0)
    #expect(
      r.md.contains(
        "| `cog/deep-explained` | cog | quick | 2 | 2601 | 900 | explanations on; off "
          + "(`cog/deep-api`): 200 |"), "\(r.md)")
  }

  @Test("without the twin's instructions the row says so, never a number")
  func twinMissing() throws {
    let r = try render(result(on: 900, off: nil))
    #expect(r.status == 0)
    #expect(r.md.contains("| 900 | explanations on; off (`cog/deep-api`): not measured |"))
  }
}
