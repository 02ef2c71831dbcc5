// The run counts cases declare for the record (`recomputesPerIteration`), checked against
// Cog's own body counter (debug builds count every body run).

@_spi(Testing) import Cog
import CogBenchCases
import CogBenchSystems
import Testing

@MainActor
@Suite("Declared run counts")
struct DeclaredRunCountTests {
  /// Every case that declares its recomputed rows per iteration (ids: the test arguments,
  /// which are evaluated outside the main actor).
  nonisolated static let ids = [
    "kairo/broad", "kairo/deep", "kairo/diamond", "cog/deep-api", "cog/deep-explained",
    "cog/deep-second-context",
    "sinks/deep", "sinks/broad", "sinks/diamond", "sinks/triangle", "sinks/fan-out",
  ]

  /// The case values behind `ids`, to prepare directly on a system the test keeps.
  static func benchmarkCase(_ id: String) -> (any BenchmarkCase)? {
    let all: [any BenchmarkCase] =
      [
        KairoBroad(), KairoDeep(), KairoDiamond(), CogDeepAPI(), CogDeepAPI(explainsTurns: true),
        CogDeepAPI(secondContext: true),
      ] + SinkCase.Shape.allCases.map(SinkCase.init)
    return all.first { $0.id == id }
  }

  @Test("every case that declares recomputes per iteration is checked here")
  func everyDeclarationIsChecked() {
    let declared = Set(
      CaseRegistry.all.cases.filter { $0.recomputesPerIteration != nil }.map(\.id))
    #expect(declared == Set(Self.ids))
    #expect(Self.ids.allSatisfy { Self.benchmarkCase($0)?.recomputesPerIteration != nil })
  }

  #if DEBUG
    @Test(
      "Cog runs exactly the declared rows per iteration",
      arguments: DeclaredRunCountTests.ids)
    func recomputesPerIteration(id: String) throws {
      let c = try #require(Self.benchmarkCase(id))
      let expected = try #require(c.recomputesPerIteration)
      let system = CogSystem()
      let checks = CaseChecks()
      let prepared = try #require(c.prepare(on: system, size: .quick, checks: checks))
      prepared.iterate()  // the first iteration also settles what building left stale
      let before = system.cogs.runCount
      prepared.iterate()
      prepared.iterate()
      #expect(system.cogs.runCount - before == 2 * expected)
      #expect(checks.failures.isEmpty, "\(checks.failures)")
      system.cleanup()
    }
  #endif
}
