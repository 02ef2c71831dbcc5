import CogCore

extension PrefixReuseEdges {
  @inlinable @inline(__always)
  package func beginRun(_ sub: Slot) -> Run { Run(sub: sub) }

  /// Past confirming (`collectStart` 0), so its candidate is `.none` without a list to ask.
  @inlinable package var idleRun: Run {
    var r = Run(sub: .none)
    r.collectStart = 0
    return r
  }

  /// An entry's dependency is a row, never `.none`: said to the optimizer, so that the
  /// read's own test of the candidate folds into these tests (as the pool's `candidate`).
  @inlinable @inline(__always)
  package func candidate(_ run: Run) -> Slot {
    if run.collectStart >= 0 || run.index >= deps.count(of: run.sub) { return .none }
    return Slot(_assumeNonNegative(deps.dep(of: run.sub, at: run.index).raw))
  }

  /// Always `.none`: the array layouts leave a repeated read to `track`. Asked for the row at
  /// `index - 1`, the read's inline second test cost their steady paths 1–3% (kairo/deep,
  /// kairo/diamond, `cog/steady-turn`), though steady reads never reach it: the row's list is
  /// one more base to keep beside the candidate's (impl/perf-notes.md, "Stop 53"). `.none`
  /// folds the test away.
  @inlinable @inline(__always)
  package func previous(_ run: Run) -> Slot { .none }

  @inlinable @inline(__always)
  package mutating func confirm(_ run: inout Run, version: UInt32) {
    deps.setVersion(of: run.sub, at: run.index, version)
    run.index &+= 1
  }

  /// A read that is not the candidate (`EdgeStore.trackInline`): the same dependency read
  /// again right away (updates the version), the candidate, or the run's first dependency
  /// read again (`confirmEarlier`); while collecting, the last collected read again. Else a
  /// new dependency, collected when `collected` has room (the first starts collecting);
  /// false only when it is full.
  @inlinable @inline(__always)
  package mutating func trackInline(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run)
    -> Bool
  {
    if run.collectStart < 0 {
      if run.index > 0 && deps.dep(of: sub, at: run.index - 1) == dep {
        deps.setVersion(of: sub, at: run.index - 1, version)
        return true
      }
      if run.index < deps.count(of: sub) && deps.dep(of: sub, at: run.index) == dep {
        confirm(&run, version: version)
        return true
      }
    } else if collected.count > Int(run.collectStart) && collected[collected.count - 1].dep == dep {
      collected[collected.count - 1].version = version
      return true
    }
    if confirmEarlier(dep, version: version, run) { return true }
    let start = Int32(truncatingIfNeeded: collected.count)
    if !collected.appendInPlace((dep, version)) { return false }
    if run.collectStart < 0 { run.collectStart = start }
    return true
  }

  /// A new dependency, `collected` being full (`trackInline` did nothing).
  @inlinable @inline(__always)
  package mutating func trackNew(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run) {
    if run.collectStart < 0 { run.collectStart = Int32(truncatingIfNeeded: collected.count) }
    collected.append((dep, version))
  }

  /// Whether `dep` is the first dependency this run read (in the confirmed prefix, or the
  /// first collected read); if so, its version is updated there. A body that reads a state
  /// before each of its other reads (kairo/unstable reads its source before each of its 20
  /// reads of a second state) otherwise listed every repeat: 40 entries and their subscriber
  /// entries per run instead of 2. One compare, the same rule as the pool's `link`; inline (out
  /// of line and unspecialized, it looked up generic metadata on every call).
  @inlinable @inline(__always)
  mutating func confirmEarlier(_ dep: Slot, version: UInt32, _ run: Run) -> Bool {
    if run.index > 0 {
      guard deps.dep(of: run.sub, at: 0) == dep else { return false }
      deps.setVersion(of: run.sub, at: 0, version)
      return true
    }
    let j = Int(run.collectStart)
    guard j >= 0 && j < collected.count && collected[j].dep == dep else { return false }
    collected[j].version = version
    return true
  }
}
