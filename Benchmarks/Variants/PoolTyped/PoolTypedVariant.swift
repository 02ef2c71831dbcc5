import CogBenchCases
import CogBenchSystems
import CogEdgePool
import CogLayoutBinding

/// `cog[pool+typed]`: generic (typed) key references with the shared pool, on the keyed cases
/// only: the layouts `cog` ships, so also `cog`'s calibration on those cases.
package enum PoolTypedVariant: BenchVariant {
  package typealias Edges = SharedEdgePool
  package typealias References = TypedReferences

  @MainActor package static var entry: SystemBindings.Entry {
    SystemBindings.Entry(LayoutSystem<Edges, References>.self) {
      CaseRegistry.bindKeyedOnly(LayoutSystem<Edges, References>.self)
    }
  }
}
