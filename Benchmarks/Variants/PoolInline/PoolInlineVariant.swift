import CogBenchCases
import CogBenchSystems
import CogEdgePool
import CogLayoutBinding

/// `cog[pool+inline]`: the edge layout `cog` ships (the shared pool) with inline references,
/// through the workbench binding, on every case; the baseline of the M6 ratios, and `cog`'s
/// calibration on the keyless cases (which read no reference; `cog[pool+typed]` is `cog`'s
/// binding on the keyed ones).
package enum PoolInlineVariant: BenchVariant {
  package typealias Edges = SharedEdgePool
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
