import CogBenchCases
import CogBenchSystems
import CogVariants

/// The systems the runner can measure, selected by id (`--systems`).
///
/// The entries come from `SystemBindings` (CogBenchSystems: `cog` and the baselines) and then
/// `Variants.all` (the layout variants, each bound in a module of its own), which bind every
/// case to each concrete system type through `CaseRegistry.bind`, so that `C.prepare(on: S)`
/// is specialized for the system in the module that declares its binding. Add a system there
/// when its adapter lands; a layout variant, in `Variants.all`.
@MainActor
enum SystemCatalog {
  static let all: [SystemEntry] = (SystemBindings.all + Variants.all.map { $0.entry }).map {
    SystemEntry(
      id: $0.id, capabilities: $0.capabilities, storage: $0.storage, makeBound: $0.bind)
  }

  /// Test-only systems (`InjectedSystem`): selectable by exact id only, never listed.
  static var testOnly: [SystemEntry] { [InjectedSystem.entry] }

  /// The system with this id, test-only systems included.
  static func entry(_ id: String) -> SystemEntry? {
    all.first { $0.id == id } ?? testOnly.first { $0.id == id }
  }

  /// Systems that exist by name but cannot be measured in this build, with the reason.
  static var unavailable: [(id: String, reason: String)] {
    [(StateGraphSystem.id, StateGraphSystem.unavailableReason)]
  }

  /// The system ratios are computed against in tables: Cog with its default layouts.
  static let referenceID = "cog"

  /// Whether `id` runs Cog's runtime: the reference or one of its layouts (`cog[…]`), the
  /// systems held to the cases' steady-state targets.
  static func runsCog(_ id: String) -> Bool {
    id == referenceID || id.hasPrefix("\(referenceID)[")
  }
}

/// A system type with every case bound to it.
@MainActor
final class SystemEntry {
  let id: String
  let capabilities: SystemCapabilities
  /// The storage figures of the system's layout (`StorageProbe`); nil unless it runs Cog.
  let storage: (@MainActor () -> StorageFigures)?
  private let makeBound: () -> [BoundCase]
  private var cache: [String: BoundCase]?

  init(
    id: String, capabilities: SystemCapabilities,
    storage: (@MainActor () -> StorageFigures)? = nil,
    makeBound: @escaping () -> [BoundCase]
  ) {
    self.id = id
    self.capabilities = capabilities
    self.storage = storage
    self.makeBound = makeBound
  }

  /// A system that binds the cases of `S` and transforms each bound case (test-only systems).
  static func wrapping<S: KeyedReactiveSystem>(
    _: S.Type, id: String, _ transform: @escaping (BoundCase) -> BoundCase
  ) -> SystemEntry {
    SystemEntry(id: id, capabilities: S.capabilities) {
      CaseRegistry.bind(S.self).map(transform)
    }
  }

  /// The case bound to this system; nil when the registry has no such case.
  func bound(_ caseID: String) -> BoundCase? {
    if cache == nil {
      cache = Dictionary(makeBound().map { ($0.info.id, $0) }, uniquingKeysWith: { a, _ in a })
    }
    return cache![caseID]
  }
}
