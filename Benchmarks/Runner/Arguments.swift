/// A small command-line parser: `--name value`, `--name=value`, boolean `--flag`, and
/// positionals. Unknown options, and more positionals than the command takes, are usage
/// errors (a stray word must not be ignored silently).
struct Arguments {
  private(set) var positionals: [String] = []
  private var values: [String: String] = [:]
  private var flags: Set<String> = []

  /// `valueOptions` take a value; `flagOptions` do not. `--help` is always a flag. At most
  /// `maxPositionals` positionals are accepted.
  init(
    _ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>,
    maxPositionals: Int = .max
  ) throws {
    var i = 0
    while i < arguments.count {
      let a = arguments[i]
      i += 1
      guard a.hasPrefix("--"), a.count > 2 else {
        positionals.append(a)
        continue
      }
      var name = String(a.dropFirst(2))
      var inline: String?
      if let eq = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      if name == "help" || flagOptions.contains(name) {
        if inline != nil { throw BenchError("option --\(name) takes no value") }
        flags.insert(name)
      } else if valueOptions.contains(name) {
        if let inline {
          values[name] = inline
        } else {
          guard i < arguments.count else { throw BenchError("option --\(name) needs a value") }
          values[name] = arguments[i]
          i += 1
        }
      } else {
        throw BenchError("unknown option --\(name) (see --help)")
      }
    }
    if positionals.count > maxPositionals {
      let extra = positionals[maxPositionals...].map { "'\($0)'" }.joined(separator: ", ")
      throw BenchError(
        "unexpected argument\(positionals.count - maxPositionals > 1 ? "s" : "") \(extra) (see --help)"
      )
    }
  }

  subscript(_ name: String) -> String? { values[name] }
  func has(_ name: String) -> Bool { flags.contains(name) }

  func int(_ name: String, default d: Int, min: Int = 0) throws -> Int {
    guard let text = values[name] else { return d }
    guard let v = Int(text), v >= min else {
      throw BenchError("--\(name) needs an integer >= \(min), got '\(text)'")
    }
    return v
  }
}
