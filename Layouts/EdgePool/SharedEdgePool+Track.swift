import CogCore

extension SharedEdgePool {
  @inlinable @inline(__always)
  package func beginRun(_ sub: Slot) -> Run { Run(cursor: .none, next: depsHead[sub]) }

  @inlinable package var idleRun: Run { Run(cursor: .none, next: .none) }

  /// A linked entry's dependency is a row, never `.none`: said to the optimizer, so that the
  /// read's own test of the candidate folds into this test of `next`.
  @inlinable @inline(__always)
  package func candidate(_ run: Run) -> Slot {
    run.next.isNone ? .none : Slot(_assumeNonNegative(deps[Int(run.next.raw)].dep.raw))
  }

  /// The cursor's entry: confirmed or linked by this run (`beginRun` starts it at `.none`);
  /// its dependency is a row (as in `candidate`).
  @inlinable @inline(__always)
  package func previous(_ run: Run) -> Slot {
    run.cursor.isNone ? .none : Slot(_assumeNonNegative(deps[Int(run.cursor.raw)].dep.raw))
  }

  @inlinable @inline(__always)
  package mutating func confirm(_ run: inout Run, version: UInt32) {
    let e = Int(run.next.raw)
    deps[e].version = version
    run.cursor = run.next
    run.next = deps[e].nextDep
  }

  /// `EdgeStore.trackInline`: whether the running `sub`'s read of `dep` (not the candidate)
  /// is an entry the run has, then confirmed with `version` (a new entry is `trackNew`'s):
  /// the same dependency read twice in a row (the cursor edge), the candidate (a read the
  /// fast path did not take), and the run's first dependency read again (in place; the
  /// cursor stays). Three O(1) checks: alien-signals' `link` makes the first two. The third: a body that reads a state before each of its other reads
  /// (kairo/unstable reads its source before each of its 20 reads of a second state) linked
  /// a new entry for every repeat without it, 38 inserted and 38 dropped per run.
  /// alien-signals' third check looks at the dependency's last subscriber instead, with a
  /// run stamp that this pool's entry has no room for. One compare, so that a run reading
  /// many new dependencies pays nearly nothing (a search of the first four did not).
  @inlinable @inline(__always)
  package mutating func trackInline(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run)
    -> Bool
  {
    if !run.cursor.isNone {
      let c = Int(run.cursor.raw)
      if deps[c].dep == dep {
        deps[c].version = version
        return true
      }
    }
    if !run.next.isNone && deps[Int(run.next.raw)].dep == dep {
      confirm(&run, version: version)
      return true
    }
    if !run.cursor.isNone {
      let first = Int(depsHead[sub].raw)
      if deps[first].dep == dep {
        deps[first].version = version
        return true
      }
    }
    return false
  }

  /// A new entry after the cursor (`trackInline` found none).
  @inlinable @inline(__always)
  package mutating func trackNew(_ dep: Slot, version: UInt32, sub: Slot, _ run: inout Run) {
    run.cursor = insert(dep: dep, sub: sub, version: version, after: run.cursor, before: run.next)
  }

  /// Links a new entry into `sub`'s dependency list between `after` and `before`, and at the
  /// tail of `dep`'s subscriber list (so push visits subscribers in the order they subscribed).
  /// Inline, through `trackNew`: its callers are out of line already and only a run's new
  /// dependencies get here (a steady run confirms by cursor), so no hot path carries it.
  /// `Graph.readLinking` is one such caller, whose insert then saves a call and a frame of
  /// its own (a first run's new dependency on create1000to1: 108 → 100 instructions with
  /// `readInBody`'s change; impl/perf-notes.md, "Stop 57").
  @inlinable @inline(__always)
  mutating func insert(dep: Slot, sub: Slot, version: UInt32, after: EdgeID, before: EdgeID)
    -> EdgeID
  {
    let tail = subsTail[dep]
    let pull = DepLink(dep: dep, nextDep: before, version: version)
    let push = SubLink(sub: sub, prevSub: tail, nextSub: .none)
    let e: EdgeID
    if freeHead.isNone {
      e = EdgeID(Int32(truncatingIfNeeded: deps.count))
      deps.append(pull)
      subs.append(push)
    } else {
      e = freeHead
      freeHead = deps[Int(e.raw)].nextDep
      deps[Int(e.raw)] = pull
      subs[Int(e.raw)] = push
    }
    if after.isNone { depsHead[sub] = e } else { deps[Int(after.raw)].nextDep = e }
    if tail.isNone { subsHead[dep] = e } else { subs[Int(tail.raw)].nextSub = e }
    subsTail[dep] = e
    liveEdgeCount &+= 1
    return e
  }
}
