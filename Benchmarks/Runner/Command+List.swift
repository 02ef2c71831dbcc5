import CogBenchCases

@MainActor
enum ListCommand {
  static let spec = CommandSpec(
    "list", summary: "cases, systems and metrics",
    about: """
      Prints the systems, the cases (id and summary) and the metrics with their units and
      whether the CI gate (scripts/ci-gate.sh) gates them.
      """,
    options: [
      OptionSpec(
        "cases", "GLOBS",
        "only these cases: comma-separated names or shell globs, e.g. 'kairo/*,dynamic/*'"),
      OptionSpec("systems", "GLOBS", "only these systems (as --cases)"),
      OptionSpec("gate-metrics", "prints only the gated metrics, comma-separated (for scripts)"),
    ],
    notes: "Exit: 0 ok, 1 usage error.")

  static func main(_ arguments: [String]) throws -> ExitCode {
    let a = try spec.parse(arguments)
    if a.has("help") {
      print(spec.help)
      return .ok
    }
    if a.has("gate-metrics") {
      print(Metric.gated.map { $0.rawValue }.joined(separator: ","))
      return .ok
    }
    let cases = try Selection.cases(a["cases"])
    let systems = try Selection.systems(a["systems"])
    print("systems:")
    for s in systems { print("  \(s.id)") }
    for u in SystemCatalog.unavailable { print("  \(u.id.padding(14))\(u.reason)") }
    print("cases (\(cases.count)):")
    for c in cases { print("  \(c.id.padding(38))\(c.summary)") }
    print("metrics:")
    for m in Metric.allCases {
      var kind =
        Metric.gated.contains(m)
        ? "deterministic; gated on cog* by scripts/ci-gate.sh"
        : m.isDeterministic
          ? "deterministic; recorded, not gated" : "time; reported as ratios, never gated"
      if m.isOptIn { kind += "; opt-in (--metrics)" }
      print("  \(m.rawValue.padding(16))\(m.unit.padding(20))\(kind)")
    }
    return .ok
  }
}

/// Case, system and metric selection shared by the commands.
@MainActor
enum Selection {
  static func cases(_ text: String?) throws -> [CaseInfo] {
    let all = CaseCatalog.all
    guard let text else { return all }
    let selector = try Selector.parse(text, option: "cases")
    let unmatched = selector.unmatched(in: all.map { $0.id })
    if !unmatched.isEmpty {
      throw BenchError(
        "no case matches \(unmatched.joined(separator: ", ")) (cog-bench list shows the cases)")
    }
    return all.filter { selector.matches($0.id) }
  }

  /// The systems `text` selects (all measurable ones without it). Test-only systems
  /// (`SystemCatalog.testOnly`) are selected by their exact id only, never by a glob.
  static func systems(_ text: String?) throws -> [SystemEntry] {
    let all = SystemCatalog.all
    guard let text else { return all }
    var selector = try Selector.parse(text, option: "systems")
    let hidden = SystemCatalog.testOnly.filter { selector.patterns.contains($0.id) }
    selector = Selector(patterns: selector.patterns.filter { p in !hidden.contains { $0.id == p } })
    let unmatched = selector.unmatched(
      in: all.map { $0.id } + SystemCatalog.unavailable.map { $0.id })
    if !unmatched.isEmpty {
      throw BenchError(
        "no system matches \(unmatched.joined(separator: ", ")); available: "
          + all.map { $0.id }.joined(separator: ", "))
    }
    if !hidden.isEmpty { _ = try InjectedSystem.injection() }
    return all.filter { selector.matches($0.id) } + hidden
  }

  /// Selected systems that cannot be measured here, with the reason.
  static func unavailableSystems(_ text: String?) -> [String: String] {
    let selector = text.map(Selector.init)
    var result: [String: String] = [:]
    for u in SystemCatalog.unavailable where selector?.matches(u.id) ?? true {
      result[u.id] = u.reason
    }
    return result
  }

  /// The metrics `text` selects; without it the standard set (`Metric.standard`: every
  /// metric but the opt-in cache counters, which a name or glob must select).
  static func metrics(_ text: String?) throws -> [Metric] {
    guard let text else { return Metric.standard }
    let selector = try Selector.parse(text, option: "metrics")
    let unmatched = selector.unmatched(in: Metric.allCases.map { $0.rawValue })
    if !unmatched.isEmpty {
      throw BenchError(
        "unknown metric \(unmatched.joined(separator: ", ")); metrics: "
          + Metric.allCases.map { $0.rawValue }.joined(separator: ", "))
    }
    return Metric.allCases.filter { selector.matches($0.rawValue) }
  }

  static func size(_ text: String?) throws -> CaseSize {
    guard let text else { return .quick }
    guard let s = CaseSize(rawValue: text) else {
      throw BenchError("--size must be quick or full, got '\(text)'")
    }
    return s
  }
}

extension String {
  /// Left-aligned in `width` columns (at least one space after).
  func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }

  /// Right-aligned in `width` columns.
  func leftPadding(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
