/// One option of a command: declared once, it is both what the parser accepts and what
/// `--help` lists (the usage line and the option's description are generated from it).
struct OptionSpec {
  let name: String
  /// The value's placeholder (`GLOBS`, `N`); `nil` for a flag.
  let value: String?
  /// What it does and its default: one paragraph, wrapped when printed.
  let help: String

  /// An option that takes a value.
  init(_ name: String, _ value: String, _ help: String) {
    self.name = name
    self.value = value
    self.help = help
  }

  /// A flag.
  init(_ name: String, _ help: String) {
    self.name = name
    self.value = nil
    self.help = help
  }

  var synopsis: String { value.map { "--\(name) \($0)" } ?? "--\(name)" }
}

/// A command's command line: its positionals, options and prose, from which `parse` accepts
/// exactly the declared options and `help` writes the text `--help` prints.
struct CommandSpec {
  /// As typed after `cog-bench`, with the positionals: `profile <case>`.
  let usage: String
  /// One line for `cog-bench --help`'s list of commands.
  let summary: String
  let maxPositionals: Int
  /// What the command does, before the options (wrapped by hand).
  let about: String
  let options: [OptionSpec]
  /// After the options: exit codes, what is written (wrapped by hand).
  let notes: String

  init(
    _ usage: String, summary: String, maxPositionals: Int = 0, about: String,
    options: [OptionSpec], notes: String
  ) {
    self.usage = usage
    self.summary = summary
    self.maxPositionals = maxPositionals
    self.about = about
    self.options = options
    self.notes = notes
  }

  /// Parses `arguments`; an option not declared here is a usage error.
  func parse(_ arguments: [String]) throws -> Arguments {
    try Arguments(
      arguments, valueOptions: Set(options.filter { $0.value != nil }.map(\.name)),
      flagOptions: Set(options.filter { $0.value == nil }.map(\.name)),
      maxPositionals: maxPositionals)
  }

  static let width = 92

  /// The `--help` text: the usage line (every option), `about`, one description per option,
  /// `notes`.
  var help: String {
    let lead = "usage: cog-bench \(usage) "
    var out = Self.wrap(options.map { "[\($0.synopsis)]" }, after: lead, indent: lead.count)
    out += "\n\n" + about + "\n\n"
    let column = 24
    for o in options {
      // The description beside the option, or below it when the option is too wide.
      let label = "  " + o.synopsis
      let fits = label.count + 2 <= column
      if !fits { out += label + "\n" }
      let words = o.help.split(separator: " ").map(String.init)
      out += Self.wrap(words, after: fits ? label.padded(to: column) : "", indent: column) + "\n"
    }
    return out + "\n" + notes
  }

  /// `items` after `lead`, one space apart, wrapped at `width`; continuation lines (and a
  /// first line with an empty `lead`) start `indent` spaces in.
  static func wrap(_ items: [String], after lead: String, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = lead.isEmpty ? margin : lead
    var empty = true
    for item in items {
      if !empty && line.count + 1 + item.count > width {
        lines.append(line)
        line = margin
        empty = true
      }
      line += (empty ? "" : " ") + item
      empty = false
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}

extension String {
  fileprivate func padded(to n: Int) -> String {
    count >= n ? self : self + String(repeating: " ", count: n - count)
  }
}

extension OptionSpec {
  static let size = OptionSpec(
    "size", "quick|full", "quick (default, the CI size) or full (the published size)")
  static let allowDebug = OptionSpec(
    "allow-debug", "measures a debug build (a plumbing check: its counts are not a release build's)"
  )
}
