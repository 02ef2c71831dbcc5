// The run counts cases declare for the record (`recomputesPerIteration`), checked against
// Cog's own body counter (debug builds count every body run).

@_spi(Testing) import Cog
import CogBenchCases
import CogBenchSystems
import Testing

@MainActor
@Suite("Declared run counts")
struct DeclaredRunCountTests {
  /// Every case that declares its recomputed rows per iteration, as values to prepare.
  static let declaring: [any BenchmarkCase] = [KairoDeep(), KairoBroad(), KairoDiamond()]

  @Test("every case that declares recomputes per iteration is checked here")
  func everyDeclarationIsChecked() {
    let declared = Set(
      CaseRegistry.all.cases.filter { $0.recomputesPerIteration != nil }.map(\.id))
    #expect(declared == Set(Self.declaring.map(\.id)))
  }

  #if DEBUG
    @Test(
      "Cog runs exactly the declared rows per iteration",
      arguments: DeclaredRunCountTests.declaring.map(\.id))
    func recomputesPerIteration(id: String) throws {
      let c = try #require(Self.declaring.first { $0.id == id })
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
