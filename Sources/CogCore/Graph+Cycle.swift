extension Graph {
  /// Records the cycle closed when `reader` reached `d`, which is running (on the computing
  /// path) or being checked (on the pull stack). The cycle is the rows from `d` up both
  /// stacks to the reader. Only the first cycle of an operation is kept.
  @inline(never) @usableFromInline
  func noteCycle(closingAt d: Slot, reader: Slot) {
    guard cycle == nil else { return }
    var path: [Slot] = []
    var seen: Set<Slot> = []
    func add(_ s: Slot) { if !s.isNone && seen.insert(s).inserted { path.append(s) } }
    // The running bodies, outermost first: the `runParent` chain from the innermost.
    var running: [Slot] = []
    var r = activeSub
    while !r.isNone {
      running.append(r)
      r = runParent[r]
    }
    running.reverse()
    // Where the cycle starts: d's pull frame, or d's running body.
    var frame = Int.max
    for i in 0..<pullStack.count where pullStack[i].node == d {
      frame = i
      break
    }
    var body = Int.max
    for i in 0..<running.count where running[i] == d {
      body = i
      break
    }
    for i in 0..<pullStack.count where i >= frame { add(pullStack[i].node) }
    for i in 0..<running.count where i >= body || Int(runFrame[running[i]]) > frame {
      add(running[i])
    }
    add(d)
    add(reader)
    cycle = path
  }

  /// The names of the rows in `slots`: descriptor labels plus keys. Formatted only on the
  /// error path.
  public func describe(_ slots: [Slot]) -> [String] {
    slots.map(describe)
  }

  public func describe(_ s: Slot) -> String {
    let label = owner(of: descriptor[s])?.label ?? "state#\(descriptor[s])"
    if let key = keyOf[s] { return "\(label)[\(key.base)]" }
    return label
  }

  /// Takes the recorded cycle, leaving the graph ready for the next operation.
  public func takeCycle() -> [Slot]? {
    defer { cycle = nil }
    return cycle
  }
}
