import CogCore

extension PrefixReuseEdges {
  @inlinable @inline(__always)
  package func beginRun(_ sub: Slot) -> Run { Run(sub: sub) }

  @inlinable @inline(__always)
  package func candidate(_ run: Run) -> Slot {
    if run.collectStart >= 0 || run.index >= deps.count(of: run.sub) { return .none }
    return deps.dep(of: run.sub, at: run.index)
  }

  @inlinable @inline(__always)
  package mutating func confirm(_ run: inout Run, version: UInt32) {
    deps.setVersion(of: run.sub, at: run.index, version)
    run.index &+= 1
  }

  /// A read that is not the candidate: the same dependency read again right away (updates
  /// the version), or the first mismatch (starts collecting), or a read after it (collects).
  @inlinable @inline(__always)
  package mutating func track(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run) {
    if run.collectStart < 0 {
      if run.index > 0 && deps.dep(of: sub, at: run.index - 1) == dep {
        deps.setVersion(of: sub, at: run.index - 1, version)
        return
      }
      if run.index < deps.count(of: sub) && deps.dep(of: sub, at: run.index) == dep {
        confirm(&run, version: version)
        return
      }
      run.collectStart = Int32(truncatingIfNeeded: collected.count)
    } else if collected.count > Int(run.collectStart) && collected[collected.count - 1].dep == dep {
      collected[collected.count - 1].version = version
      return
    }
    collected.append((dep, version))
  }
}
