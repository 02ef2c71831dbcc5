import Foundation
import Testing

// The record's calibration of the layout binding against `cog` (issue 11), rendered from a
// synthetic complete result (test inputs, not measurements).

@MainActor
@Suite("The layout calibration in the record")
struct LayoutRenderTests {
  @Test(
    "render shows cog's binding against cog per case (typed where keyed, else inline) and names cases outside 2%"
  )
  func calibration() throws {
    let dir = try temporaryDirectory()
    var results: [[String: Any]] = []
    let cases = [
      ("fam/a", 1000, [("cog[pool+inline]", 1010)]),
      ("fam/b", 1000, [("cog[pool+inline]", 1050)]),
      // A keyed case: the typed binding is cog's, whatever the inline one counts.
      ("fam/keyed", 2000, [("cog[pool+inline]", 2600), ("cog[pool+typed]", 2002)]),
    ]
    for (caseID, cog, bound) in cases {
      for (system, ir) in [("cog", cog)] + bound {
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
      "systems": ["cog", "cog[pool+inline]", "cog[pool+typed]"], "complete": true,
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
    #expect(md.contains("| `fam/a` | 1000 | `cog[pool+inline]` | 1010 | 1.0100 |"))
    #expect(md.contains("| `fam/keyed` | 2000 | `cog[pool+typed]` | 2002 | 1.0010 |"))
    #expect(md.contains("the largest difference is 5.00% on 3 cases"))
    #expect(md.contains("1 case(s) differ by more than 2%: `fam/b`."))
  }
}
