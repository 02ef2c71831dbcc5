/// Self cost per function from one callgrind dump (the `--dump-instr=no` text format).
///
/// `callgrind_annotate` 3.19 attributes a region's inclusive cost to the function in which
/// collection was toggled on, so the runner reads the dump itself: every cost line belongs to
/// the current `fn=`, except the line right after a `calls=` line, which is the inclusive cost
/// of that call and is not self cost. Names and files may be compressed (`fn=(12) name` once,
/// then `fn=(12)`), including definitions that first appear in `cfn=`/`cfi=` lines. A cost
/// line is the position (the source line) and then one count per event of the dump's
/// `events:` line, trailing zeros omitted.
enum CallgrindProfile {
  struct FunctionCost {
    var function: String
    var file: String
    /// Self cost per event of `events`, in that order.
    var costs: [Int]
    /// Instructions of the function and everything it called (a recursive call counts again,
    /// as in callgrind_annotate --inclusive=yes).
    var inclusiveInstructions: Int
    var instructions: Int { costs.first ?? 0 }
  }

  /// A dump's self costs per function, heaviest first by instructions, and the dump's event
  /// names.
  static func selfCosts(_ text: String) -> (
    events: [String], functions: [FunctionCost]
  ) {
    var fnNames: [String: String] = [:]
    var flNames: [String: String] = [:]
    var costs: [String: (file: String, costs: [Int])] = [:]
    var called: [String: Int] = [:]
    var events = ["Ir"]
    var currentFn = ""
    var currentFile = "???"
    var skipNext = false

    /// Resolves `(id) name` / `(id)` / `name` against a compression table.
    func resolve(_ value: Substring, _ table: inout [String: String]) -> String {
      guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else {
        return String(value)
      }
      let id = String(value[value.index(after: value.startIndex)..<close])
      let rest = value[value.index(after: close)...].drop { $0 == " " }
      if !rest.isEmpty {
        table[id] = String(rest)
        return String(rest)
      }
      return table[id] ?? "(\(id))"
    }

    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      guard let first = line.first else { continue }
      if first.isNumber || first == "+" || first == "-" || first == "*" {
        if skipNext {
          // The inclusive cost of a call: the caller's inclusive, not its self cost.
          skipNext = false
          if let ir = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
            called[currentFn, default: 0] += ir
          }
          continue
        }
        let parts = line.split(separator: " ").dropFirst()
        guard !parts.isEmpty else { continue }
        let values = parts.prefix(events.count).map { Int($0) }
        guard values.allSatisfy({ $0 != nil }) else { continue }
        var entry = costs[currentFn, default: (currentFile, [])]
        if entry.costs.count < events.count {
          entry.costs += Array(repeating: 0, count: events.count - entry.costs.count)
        }
        for (k, v) in values.enumerated() { entry.costs[k] += v! }
        costs[currentFn] = entry
        continue
      }
      if line.hasPrefix("events:") {
        events = line.dropFirst("events:".count).split(separator: " ").map(String.init)
      } else if line.hasPrefix("fn=") {
        currentFn = resolve(line.dropFirst(3), &fnNames)
        if costs[currentFn] == nil { costs[currentFn] = (currentFile, []) }
      } else if line.hasPrefix("fl=") {
        currentFile = resolve(line.dropFirst(3), &flNames)
      } else if line.hasPrefix("fi=") || line.hasPrefix("fe=") {
        _ = resolve(line.dropFirst(3), &flNames)
      } else if line.hasPrefix("cfn=") {
        _ = resolve(line.dropFirst(4), &fnNames)
      } else if line.hasPrefix("cfi=") || line.hasPrefix("cfl=") {
        _ = resolve(line.dropFirst(4), &flNames)
      } else if line.hasPrefix("calls=") {
        skipNext = true
      }
    }
    let rows = costs.compactMap { name, entry -> FunctionCost? in
      var c = entry.costs
      if c.count < events.count { c += Array(repeating: 0, count: events.count - c.count) }
      guard c.contains(where: { $0 > 0 }) else { return nil }
      return FunctionCost(
        function: name, file: entry.file, costs: c,
        inclusiveInstructions: (c.first ?? 0) + called[name, default: 0])
    }
    return (
      events,
      rows.sorted { ($0.instructions, $1.function) > ($1.instructions, $0.function) }
    )
  }
}
