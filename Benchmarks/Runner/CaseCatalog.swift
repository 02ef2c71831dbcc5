import CogBenchCases

/// Every benchmark case, in registry order (`CaseRegistry.all`).
@MainActor
enum CaseCatalog {
  static var all: [CaseInfo] { CaseRegistry.all.cases }

  static func family(of id: String) -> String {
    String(id.prefix { $0 != "/" })
  }
}
