extension Graph {
  /// Records the cycle closed when `reader` reached `d`, which is running (its body is on the
  /// way of the current pull) or being checked (on the pull stack). Only the first cycle of an
  /// operation is kept; from then on the operation is failing (`isFailing`).
  ///
  /// The way of the current pull is one chain of reads: pull frames (rows being checked) and
  /// running bodies, interleaved. A body that started when the pull stack held `k` frames
  /// (`NestedRun.frame`) came after frames `0..<k` and before frame `k`, which its own reads
  /// pushed; bodies that started at the same depth nest in `nestedRuns` order. The cycle is
  /// the part of that chain from `d` to the reader, in read order.
  @inline(never) @inlinable
  func noteCycle(closingAt d: Slot, reader: Slot) {
    guard track.cycle == nil else { return }
    let running = runningBodies()
    // Merge frames and bodies into the chain of reads.
    var chain: [Slot] = []
    chain.reserveCapacity(running.count + work.pullStack.count)
    var frame = 0
    for (body, started) in running {
      let start = Int(started)
      while frame < start && frame < work.pullStack.count {
        chain.append(work.pullStack[frame].row)
        frame += 1
      }
      chain.append(body)
    }
    while frame < work.pullStack.count {
      chain.append(work.pullStack[frame].row)
      frame += 1
    }
    var path: [Slot] = []
    if let start = chain.firstIndex(of: d) {
      var seen: Set<Slot> = []
      for s in chain[start...] where seen.insert(s).inserted { path.append(s) }
    } else {
      path.append(d)
    }
    if !reader.isNone && !path.contains(reader) { path.append(reader) }
    track.cycle = path
    track.coldRecompute = true
  }

  /// The running bodies, outermost first, each with the pull-stack depth when it started:
  /// `Tracking.outermost`, then `WorkBuffers.nestedRuns`.
  @inlinable package func runningBodies() -> [(body: Slot, frame: Int32)] {
    if activeSub.isNone { return [] }
    var running = [(body: track.outermost, frame: track.outermostFrame)]
    running.reserveCapacity(1 + work.nestedRuns.count)
    for i in 0..<work.nestedRuns.count {
      let nested = work.nestedRuns[i]
      running.append((nested.body, nested.frame))
    }
    return running
  }

  /// The names of the rows in `slots`: descriptor labels plus keys. Formatted only on the
  /// error path.
  @inlinable package func describe(_ slots: [Slot]) -> [String] {
    slots.map(describe)
  }

  @inlinable package func describe(_ s: Slot) -> String {
    let id = rows.descriptor[s]
    let name =
      rows.flags[s].contains(.reaction)
      ? reactionName(s) ?? "reaction#\(id)"
      : label(ofRow: s) ?? "state#\(id)"
    if let index = maps.keyIndexes[DescriptorKey(id)] {
      return "\(name)[\(index.keyDescription(slot: s, tag: rows.tag[s]))]"
    }
    return name
  }

  /// Takes the recorded cycle, leaving the graph ready for the next operation.
  @inlinable package func takeCycle() -> [Slot]? {
    defer {
      track.cycle = nil
      track.coldRecompute = maps.countsRuns
    }
    return track.cycle
  }
}
