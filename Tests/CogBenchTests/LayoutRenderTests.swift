import Foundation
import Testing

// The record's calibration of the layout binding against `cog` (issue 11), rendered from a
// synthetic complete result (test inputs, not measurements).

@MainActor
@Suite("The layout calibration in the record")
struct LayoutRenderTests {
  @Test("render shows cog[pool+inline] against cog per case and names cases outside 2%")
  func calibration() throws {
    let dir = try temporaryDirectory()
    var results: [[String: Any]] = []
    for (caseID, cog, bound) in [("fam/a", 1000, 1010), ("fam/b", 1000, 1050)] {
      for (system, ir) in [("cog", cog), ("cog[pool+inline]", bound)] {
        results.append([
          "id": "\(caseID)@\(system)", "caseID": caseID, "family": "fam", "system": system,
          "iterationsPerSample": 1, "checks": ["passed": true, "failures": [String]()],
          "metrics": ["instructions": ["unit": "instructions/sample", "value": ir]],
        ])
      }
    }
    var file = syntheticResult()
    file["settings"] = [
      "samples": 1, "warmupSamples": 0, "metrics": ["instructions"],
      "systems": ["cog", "cog[pool+inline]"], "complete": true,
    ]
    file["results"] = results
    try write(file, to: dir + "/now.json")
    let o = try CogBench.run(
      [
        "render", "now.json", "--out", "perf.md", "--history", "h.md", "--charts", "charts",
        "--notes", "none.md", "--profiles", "profiles",
      ], in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = (try? String(contentsOfFile: dir + "/perf.md", encoding: .utf8)) ?? ""
    #expect(md.contains("## Calibration: the layout binding against `cog` (quick)"))
    #expect(md.contains("| `fam/a` | 1000 | 1010 | 1.0100 |"))
    #expect(md.contains("the largest difference is 5.00% on 2 cases"))
    #expect(md.contains("1 case(s) differ by more than 2%: `fam/b`."))
  }
}
