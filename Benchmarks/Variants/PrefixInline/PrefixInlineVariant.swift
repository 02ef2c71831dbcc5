import CogBenchCases
import CogBenchSystems
import CogLayoutBinding
import CogPrefixArrays

/// `cog[prefix+inline]`: prefix arrays with inline references, on every case.
package enum PrefixInlineVariant: BenchVariant {
  package typealias Edges = PrefixArrays
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
