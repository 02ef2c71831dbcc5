import CogBenchCases
import CogBenchSystems
import Foundation
import Testing

// Issue 13's creation unit: the sbench creation cases declare the rows an iteration creates,
// and the record divides allocations, instructions and retains by them (a synthetic complete
// run: test inputs, not measurements).

@MainActor
@Suite("Creation per row")
struct CreationRenderTests {
  @Test(
    "the creation cases declare their rows: signals are manual, computeds automatic, effects reactions"
  )
  func declarations() {
    let declared = CaseRegistry.all.cases.filter { $0.createdRows != nil }
    #expect(declared.count == 13)
    #expect(
      declared.first { $0.id == "cog/first-read" }?.createdRows
        == CreatedRows(.manual, quick: 100_000, full: 1_000_000))
    #expect(
      declared.first { $0.id == "cog/first-read-new-context" }?.createdRows
        == CreatedRows(.manual, quick: 100_000, full: 1_000_000))
    #expect(
      declared.first { $0.id == "cog/first-read-computed" }?.createdRows
        == CreatedRows(.automatic, quick: 100_000, full: 1_000_000))
    let signals = declared.first { $0.id == "sbench/createSignals" }?.createdRows
    #expect(signals == CreatedRows(.manual, quick: 1000, full: 100_000))
    let effects = declared.first { $0.id == "sbench/createComputations/create2to1" }?.createdRows
    #expect(effects == CreatedRows(.reaction, quick: 500, full: 50_000))
    #expect(!declared.contains { $0.id.hasPrefix("sbench/updateSignals") })
  }

  @Test("the record shows allocations, bytes, instructions and retains per created row")
  func section() throws {
    let dir = try temporaryDirectory()
    var file = syntheticResult(systems: ["cog", "simple"], complete: true)
    var results = file["results"] as! [[String: Any]]
    func created(_ system: String, _ case: String, kind: String, allocations: Int) -> [String: Any]
    {
      [
        "id": "\(`case`)@\(system)", "caseID": `case`, "family": "sbench", "system": system,
        "iterationsPerSample": 1, "createdRowsPerIteration": 1000, "createdRowKind": kind,
        "checks": ["passed": true, "failures": [String]()],
        "metrics": [
          "instructions": ["unit": "Ir/sample", "value": 1_500_000],
          "allocations": ["unit": "allocations/sample", "value": allocations],
          "retains": ["unit": "retains/sample", "value": 4000],
          "allocatedBytes": ["unit": "bytes/sample", "value": 72_000],
        ],
      ]
    }
    results.append(created("cog", "sbench/createSignals", kind: "manual", allocations: 1004))
    results.append(
      created("cog", "sbench/createComputations/create0to1", kind: "reaction", allocations: 2011))
    results.append(
      created("simple", "sbench/createComputations/create0to1", kind: "reaction", allocations: 9000)
    )
    file["results"] = results
    try write(file, to: dir + "/now.json")
    let o = try renderRecord("now.json", in: dir)
    #expect(o.status == 0, "\(o.stderr)")
    let md = try String(contentsOfFile: dir + "/perf.md", encoding: .utf8)
    #expect(md.contains("## Creation per row"))
    #expect(
      md.contains(
        "| `sbench/createSignals` | cog | quick | 1000 manual | 1.004 | 72.0 | ≤ 1 (**not met**), ≤ 64 B (**not met**) | 1500 | 4.00 |"
      ), "\(md)")
    #expect(
      md.contains(
        "| `sbench/createComputations/create0to1` | cog | quick | 1000 reaction | 2.011 | 72.0 | ≤ 2 (**not met**) | 1500 | 4.00 |"
      ))
    // Baselines get the figures but no target.
    #expect(
      md.contains(
        "| `sbench/createComputations/create0to1` | simple | quick | 1000 reaction | 9.000 | 72.0 |  | 1500 | 4.00 |"
      ))
  }
}
