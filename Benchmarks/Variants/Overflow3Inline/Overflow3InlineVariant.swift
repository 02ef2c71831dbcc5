import CogBenchCases
import CogBenchSystems
import CogInlineOverflow
import CogLayoutBinding

/// `cog[overflow3+inline]`: the isolation check's throwaway variant
/// (scripts/isolation-check.sh), built only with `COG_ISOLATION_PROBE=1`. Its edge layout is a
/// new specialization of the core: adding it must not move any other variant's counts.
package enum Overflow3InlineVariant: BenchVariant {
  package typealias Edges = InlineOverflow<3>
  package typealias References = InlineReferences

  @MainActor package static var entry: SystemBindings.Entry {
    SystemBindings.Entry(
      LayoutSystem<Edges, References>.self, storage: { StorageProbe.figures(Edges.self) }
    ) {
      CaseRegistry.with(
        async: CaseRegistry.bindAsync(LayoutSystem<Edges, References>.self),
        in: CaseRegistry.bind(LayoutSystem<Edges, References>.self))
    }
  }
}
