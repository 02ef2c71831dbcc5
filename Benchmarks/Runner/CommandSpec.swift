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
    var out = ""
    let lead = "usage: cog-bench \(usage) "
    var line = lead
    for o in options {
      let item = "[\(o.synopsis)]"
      if line.count + item.count > Self.width && line.count > lead.count {
        out += line.trimmingTrailingSpaces() + "\n"
        line = String(repeating: " ", count: lead.count)
      }
      line += item + " "
    }
    out += line.trimmingTrailingSpaces() + "\n\n" + about + "\n\n"
    let column = 24
    for o in options {
      let label = "  " + o.synopsis
      let words = o.help.split(separator: " ")
      var text = label.count + 2 <= column ? label.padded(to: column) : label + "\n"
      var current = label.count + 2 <= column ? column : 0
      if current == 0 {
        text += String(repeating: " ", count: column)
        current = column
      }
      var first = true
      for w in words {
        if !first && current + 1 + w.count > Self.width {
          text += "\n" + String(repeating: " ", count: column)
          current = column
          first = true
        }
        if !first {
          text += " "
          current += 1
        }
        text += w
        current += w.count
        first = false
      }
      out += text + "\n"
    }
    return out + "\n" + notes
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    String(reversed().drop { $0 == " " }.reversed())
  }
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
