import CogBenchSystems
import CogCore
import CogInlineOverflow
import CogLayoutBinding
import CogVariants

/// A registered layout variant (`Variants.all`, the list the workbench measures), as a test
/// argument: a new variant is tested by registering it, with no test to edit.
struct TestedVariant: Sendable, CustomStringConvertible {
  let variant: any BenchVariant.Type
  var description: String { variant.id }

  static let all = Variants.all.map(TestedVariant.init)

  /// The variant's runtime for the differential test.
  @MainActor var runtime: any DiffRuntime.Type { Self.runtime(variant) }
  private static func runtime<V: LayoutVariant>(_: V.Type) -> any DiffRuntime.Type {
    LayoutRuntime<V.Edges, V.References>.self
  }

  /// The reference layout contract on the variant's pair.
  @MainActor var references: any ReferenceCase.Type { Self.references(variant) }
  private static func references<V: LayoutVariant>(_: V.Type) -> any ReferenceCase.Type {
    ReferenceConformance<V.Edges, V.References>.self
  }
}

/// An edge layout, as a test argument.
///
/// `@unchecked Sendable`: it holds only a metatype, an immutable name of a type with no state.
struct EdgeLayout: @unchecked Sendable, CustomStringConvertible {
  let edges: any EdgeStore.Type
  let description: String

  init<E: EdgeStore & NamedEdgeLayout>(_: E.Type) {
    edges = E.self
    description = E.layoutName
  }

  /// The edge layouts of the registered variants, each once, in registration order.
  static let registered = distinct(Variants.all.map { layout(of: $0) })
  /// The registered layouts, then the inline + overflow layout at the widths the workbench does
  /// not register (N = 3 and 4, which the measurement that chose N = 2 compared).
  static let all = distinct(
    Variants.all.map { layout(of: $0) } + [
      EdgeLayout(InlineOverflow<3>.self), EdgeLayout(InlineOverflow<4>.self),
    ])

  private static func layout<V: BenchVariant>(of _: V.Type) -> EdgeLayout {
    EdgeLayout(V.Edges.self)
  }

  private static func distinct(_ layouts: [EdgeLayout]) -> [EdgeLayout] {
    var seen = Set<ObjectIdentifier>()
    return layouts.filter { seen.insert(ObjectIdentifier($0.edges)).inserted }
  }

  @MainActor var store: any EdgeStoreCase.Type { Self.store(edges) }
  private static func store<E: EdgeStore>(_: E.Type) -> any EdgeStoreCase.Type {
    StoreCase<E>.self
  }

  @MainActor var behaviour: any LayoutBehaviourCase.Type { Self.behaviour(edges) }
  private static func behaviour<E: EdgeStore>(_: E.Type) -> any LayoutBehaviourCase.Type {
    BehaviourCase<E>.self
  }

  /// The layout's runtime for the async differential test (inline references).
  @MainActor var asyncRuntime: any AsyncDiffRuntime.Type { Self.asyncRuntime(edges) }
  private static func asyncRuntime<E: EdgeStore>(_: E.Type) -> any AsyncDiffRuntime.Type {
    AsyncLayoutRuntime<E>.self
  }
}
