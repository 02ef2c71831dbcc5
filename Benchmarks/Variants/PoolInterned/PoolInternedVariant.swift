import CogBenchCases
import CogBenchSystems
import CogEdgePool
import CogLayoutBinding

/// `cog[pool+interned]`: interned key references with the shared pool, on the keyed cases only
/// (keyless cases read no references: they would measure `cog[pool+inline]` again).
package enum PoolInternedVariant: BenchVariant {
  package typealias Edges = SharedEdgePool
  package typealias References = InternedReferences

  @MainActor package static var entry: SystemBindings.Entry {
    SystemBindings.Entry(LayoutSystem<Edges, References>.self) {
      CaseRegistry.bindKeyedOnly(LayoutSystem<Edges, References>.self)
    }
  }
}
