import CogBenchCases
import CogBenchSystems
import CogInlineOverflow
import CogLayoutBinding

/// `cog[overflow2+inline]`: two inline dependencies plus overflow, with inline references, on
/// every case (N = 2 measured cheapest of 2, 3 and 4: swift/0003-edge-layouts.md).
package enum Overflow2InlineVariant: BenchVariant {
  package typealias Edges = InlineOverflow<2>
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
