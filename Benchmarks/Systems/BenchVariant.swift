import CogBenchCases
import CogLayoutBinding

/// A layout variant as the workbench measures it: the system `LayoutSystem<Edges,
/// References>` with its cases bound. A conforming type lives in a target of its own under
/// `Benchmarks/Variants/` that contains only this variant and its own `LayoutSystem` (the
/// shared source, `Benchmarks/Variants/Shared/LayoutSystem.swift`, linked into the target),
/// and writes its `entry` there with the concrete system type: the specializations of the core
/// for this variant are then emitted in that module alone, and its counts do not depend on
/// which other variants are built (`scripts/isolation-check.sh`).
package protocol BenchVariant: LayoutVariant where Edges: NamedEdgeLayout {
  /// The system's entry, bound in the variant's own module (`CaseRegistry.bind(…)` with the
  /// concrete `LayoutSystem<Edges, References>`).
  @MainActor static var entry: SystemBindings.Entry { get }
}

extension BenchVariant {
  /// The variant's system id (`cog[<edges>+<references>]`).
  package static var id: String { layoutSystemID(Edges.self, References.self) }
}
