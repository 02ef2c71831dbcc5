import CogBenchCases
import CogCore
import CogEdgePool
import CogInlineOverflow
import CogLayoutBinding
import CogLayoutSupport
import CogPrefixArrays

/// A layout system's id: `cog[<edges>+<references>]`.
package func layoutSystemID<Edges: NamedEdgeLayout, Refs: ReferenceLayout>(
  _: Edges.Type, _: Refs.Type
) -> String {
  "cog[\(Edges.layoutName)+\(Refs.layoutName)]"
}

/// How an edge layout is named in system ids (`cog[<name>+…]`).
package protocol NamedEdgeLayout {
  static var layoutName: String { get }
}
extension SharedEdgePool: NamedEdgeLayout { package static var layoutName: String { "pool" } }
extension PrefixReuseEdges: NamedEdgeLayout where Deps: NamedEdgeLayout {
  package static var layoutName: String { Deps.layoutName }
}
extension ArrayDeps: NamedEdgeLayout { package static var layoutName: String { "prefix" } }
extension InlineDeps: NamedEdgeLayout {
  package static var layoutName: String { "overflow\(N)" }
}

/// The systems other than the layout variants, with every case bound to each. Bound here, in
/// the module that declares the systems, rather than by the runner: the conformance of a
/// package type is not available to other modules' optimizer (cases bound elsewhere called
/// every layout system's adapter method through the protocol witness, unspecialized: 15× the
/// instructions of `cog`). The layout variants bind themselves, each in a module of its own
/// with its own `LayoutSystem` (`BenchVariant`, listed in `Variants.all`), so that one
/// variant's specializations never share a module with another's.
package enum SystemBindings {
  /// The systems, in the order the runner lists them (the variants follow). Each entry names
  /// its system's concrete type in its own closure, so that binding is specialized there.
  @MainActor package static let all: [Entry] = [
    Entry(CogSystem.self, storage: { StorageProbe.figures(SharedEdgePool.self) }) {
      CaseRegistry.with(
        async: CaseRegistry.bindAsync(CogSystem.self), in: CaseRegistry.bind(CogSystem.self))
    },
    Entry(SimpleSystem.self) { CaseRegistry.bind(SimpleSystem.self) },
    Entry(ObjectGraphSystem.self) { CaseRegistry.bind(ObjectGraphSystem.self) },
    Entry(ObservationSystem.self) { CaseRegistry.bind(ObservationSystem.self) },
  ]

  /// A system's id, capabilities and bound cases.
  package struct Entry {
    package let id: String
    package let capabilities: SystemCapabilities
    package let bind: @MainActor () -> [BoundCase]
    /// The storage figures of the system's layout (`StorageProbe`); nil for systems that do
    /// not run Cog's core.
    package let storage: (@MainActor () -> StorageFigures)?
    package init<S: ReactiveSystem>(
      _: S.Type, storage: (@MainActor () -> StorageFigures)? = nil,
      bind: @escaping @MainActor () -> [BoundCase]
    ) {
      id = S.id
      capabilities = S.capabilities
      self.storage = storage
      self.bind = bind
    }
  }
}
