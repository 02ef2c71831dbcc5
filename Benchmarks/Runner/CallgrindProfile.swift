/// Self cost per function from one callgrind dump (the `--dump-instr=no` text format).
///
/// `callgrind_annotate` 3.19 attributes a region's inclusive cost to the function in which
/// collection was toggled on, so the runner reads the dump itself: every cost line belongs to
/// the current `fn=`, except the line right after a `calls=` line, which is the inclusive cost
/// of that call and is not self cost. Names and files may be compressed (`fn=(12) name` once,
/// then `fn=(12)`), including definitions that first appear in `cfn=`/`cfi=` lines.
enum CallgrindProfile {
  struct FunctionCost {
    var function: String
    var file: String
    var instructions: Int
  }

  static func selfCosts(_ text: String) -> [FunctionCost] {
    var fnNames: [String: String] = [:]
    var flNames: [String: String] = [:]
    var costs: [String: (file: String, ir: Int)] = [:]
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
          skipNext = false
          continue
        }
        let parts = line.split(separator: " ")
        guard parts.count >= 2, let ir = Int(parts[1]) else { continue }
        costs[currentFn, default: (currentFile, 0)].ir += ir
        continue
      }
      if line.hasPrefix("fn=") {
        currentFn = resolve(line.dropFirst(3), &fnNames)
        if costs[currentFn] == nil { costs[currentFn] = (currentFile, 0) }
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
    return costs.filter { $0.value.ir > 0 }
      .map { FunctionCost(function: $0.key, file: $0.value.file, instructions: $0.value.ir) }
      .sorted { ($0.instructions, $1.function) > ($1.instructions, $0.function) }
  }
}
