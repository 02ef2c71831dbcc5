#if canImport(Glibc)
  import Glibc
#endif

/// Comma-separated names or shell globs (`*`, `?`, `[...]`; `*` also matches `/`). A pattern
/// equal to a name matches it before any glob reading, so ids with brackets
/// (`cog[prefix+inline]`) can be named as they are.
struct Selector {
  let patterns: [String]

  init(_ text: String) {
    patterns = text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
  }

  init(patterns: [String]) { self.patterns = patterns }

  /// `text` as a selection of at least one pattern: `--systems ','` selects nothing, which
  /// is a mistake, not an empty run or check.
  static func parse(_ text: String, option: String) throws -> Selector {
    let s = Selector(text)
    if s.patterns.isEmpty {
      throw BenchError("--\(option) '\(text)' names nothing (comma-separated names or globs)")
    }
    return s
  }

  func matches(_ name: String) -> Bool {
    patterns.contains { $0 == name || fnmatch($0, name, 0) == 0 }
  }

  /// The patterns that match none of `names` (a typo should be an error, not an empty run).
  func unmatched(in names: [String]) -> [String] {
    patterns.filter { p in !names.contains { p == $0 || fnmatch(p, $0, 0) == 0 } }
  }
}

extension Substring {
  func trimmingWhitespace() -> String {
    var s = self
    while let f = s.first, f.isWhitespace { s.removeFirst() }
    while let l = s.last, l.isWhitespace { s.removeLast() }
    return String(s)
  }
}
