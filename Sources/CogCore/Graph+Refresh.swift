import CCogStack

extension Graph {
  /// Pull: brings the stale running row `root` up to date, recomputing only what changed.
  ///
  /// A PENDING row scans its dependencies in read order. A stale dependency is refreshed
  /// first (pushed on the explicit stack, the scan resumes at the same edge afterwards); a
  /// dependency whose `changedAt` differs from the version the edge saw makes the row DIRTY
  /// and ends the scan. A DIRTY row recomputes; a row whose scan finds nothing becomes CLEAN
  /// without running. No recursion here: a 100,000-deep chain of stale rows is walked
  /// iteratively. (A body's own reads may nest a refresh; that nesting is bounded by how
  /// many rows a single run newly reads.)
  ///
  /// Re-entrant: a recompute may run user code that refreshes other rows; each call only pops
  /// the entries it pushed.
  ///
  /// Once a cycle has been met in the current operation, every refresh gives up: it leaves
  /// its rows stale (to be recomputed by a later read) instead of walking the cycle again.
  /// Only two things can start a cycle here, a scan that reaches a row in progress and a body
  /// (its reads), so the loop tests for one after those two and at entry, not per frame.
  @inlinable
  package func refresh(_ root: Slot) { refresh(root, outermost: false) }

  /// `refresh` where no body runs (the flush's reactions): every recompute it makes is
  /// outermost, so the copy made here tests nothing for it. The caller has set the body graph
  /// (see `recompute`).
  @inlinable
  func refreshOutermost(_ root: Slot) { refresh(root, outermost: true) }

  /// `refresh`'s work; `outermost`: no body runs and the caller has set the body graph (a
  /// constant at each of the two callers).
  @inlinable @inline(__always)
  package func refresh(_ root: Slot, outermost: Bool) {
    if _slowPath(isFailing) {
      leaveStale(root)
      return
    }
    // A DIRTY row has nothing to check: run it, with no frame pushed and popped. Nested
    // refreshes are mostly of this kind (a body reading a row that push made DIRTY, as
    // kairo/diamond's sum reads its four other inputs).
    if rows.flags[root].contains(.dirty) {
      recompute(root, outermost: outermost)
      return
    }
    let base = work.pullStack.count
    var n = root
    var p = edges.firstDep(of: root)
    rows.flags[root].insert(.visiting)
    work.pullStack.append(PullFrame(row: n, position: p))
    // `n` is the top frame's row and `p` the position its scan resumes at, kept in registers
    // rather than reloaded from the frame: a descent goes on with the new frame directly.
    pull: while true {
      if !rows.flags[n].contains(.dirty) {
        // The descent calls nothing and changes only flags and the pull stack, so it reads
        // the flags column and the edges through copies: a store through a column may alias
        // the hot state, which the optimizer would otherwise reload after every store.
        let flags = rows.flags
        let e = edges
        while !p.isNone {
          let d = e.dep(of: n, at: p)
          let fd = flags[d]
          if !fd.isDisjoint(with: .stale) {
            if !fd.isDisjoint(with: .inProgress) {
              noteCycle(closingAt: d, reader: n)
              abandonRefresh(downTo: base)
              return
            }
            // The new frame first, then the resume position in the one below it.
            flags[d] = fd.union(.visiting)
            let first = e.firstDep(of: d)
            work.pullStack.append(PullFrame(row: d, position: first))
            work.pullStack[work.pullStack.count &- 2].position = p
            n = d
            p = first
            // A DIRTY row has nothing to scan: to the pop below, which runs it. Any other is
            // scanned here at once, with no second look at its flags at the loop's top.
            if fd.contains(.dirty) { break }
            continue
          }
          if rows.changedAt[d] != e.version(of: n, at: p) {
            flags[n].insert(.dirty)
            break
          }
          p = e.nextDep(of: n, after: p)
        }
      }
      _ = work.pullStack.removeLast()
      let f = rows.flags[n]
      if f.contains(.dirty) {
        // `recompute` clears `visiting` with its other flags (the row stays in progress while
        // its body runs, as it was while checked).
        // The frame below descended into the row that just changed from its scan, so it
        // reads it: it is dirty, and runs now, with no version to compare and no pass over
        // its frame (each link of a chain that changes). One call site for both (with a
        // third, the optimizer called `recompute` out of line from every site).
        // A failing recompute returns false, so only an unchanged one tests for a cycle.
        var m = n
        while true {
          if !recompute(m, outermost: outermost) {
            if _slowPath(isFailing) {
              abandonRefresh(downTo: base)
              return
            }
            break
          }
          if work.pullStack.count == base { break }
          m = work.pullStack.removeLast().row
        }
      } else {
        rows.flags[n] = f.subtracting([.visiting, .pending])
      }
      let count = work.pullStack.count
      if count == base { return }
      n = work.pullStack[count &- 1].row
      p = work.pullStack[count &- 1].position
    }
  }

  /// Pops this refresh's frames after a cycle, leaving the rows stale.
  @inline(never) @inlinable
  func abandonRefresh(downTo base: Int) {
    while work.pullStack.count > base {
      let n = work.pullStack.removeLast().row
      rows.flags[n].remove(.visiting)
      if !rows.flags[n].contains(.dirty) { rows.flags[n].insert(.pending) }
    }
  }

  /// A refresh of `root` asked for while the operation is failing: `root` is left stale, as
  /// `abandonRefresh` leaves the rows it pops.
  @inline(never) @inlinable
  func leaveStale(_ root: Slot) {
    if !rows.flags[root].contains(.dirty) { rows.flags[root].insert(.pending) }
  }

  /// Runs the body of `n` with tracking, drops the dependencies it no longer read, and
  /// backdates: an equal result (`run` returns false) keeps the old `changedAt`, so readers'
  /// edge versions still match and they stay clean. Returns whether the value changed.
  ///
  /// While the operation is failing (a read closed a cycle), the behavior discards the result
  /// (the row keeps its last good value), the row is left dirty, so that nothing computed
  /// from a cycle's stale values is ever served as current, and the result is false.
  ///
  /// `outermost`: the caller knows no body runs (`activeSub` is `.none`) and has set the body
  /// graph to this graph (the flush's reaction loop, once around the loop rather than per
  /// recompute), a constant where this inlines.
  @inlinable @inline(__always) @discardableResult
  package func recompute(_ n: Slot, outermost: Bool = false) -> Bool {
    let savedSub = outermost ? Slot.none : activeSub
    let changed: Bool
    if savedSub.isNone {
      // The outermost body (every steady recompute of a flush): outside bodies the run is
      // idle (reset below), so there is no outer run to save, and the cycle bookkeeping is
      // two stores in `track` rather than in the row's columns.
      activeSub = n
      run = edges.beginRun(n)
      rows.flags[n].insert(.computing)
      track.outermost = n
      track.outermostFrame = Int32(truncatingIfNeeded: work.pullStack.count)
      // Contexts check it (`Graph.inBody`): an outermost caller has set it; any other saves
      // it, as a body may read another context.
      let outerGraph = outermost ? nil : cog_get_body_graph()
      // Lifetime: `self` is running the body; the slot is restored to `outerGraph` right after.
      if !outermost { cog_set_body_graph(Unmanaged.passUnretained(self).toOpaque()) }
      changed = runBehavior(n)
      if !outermost { cog_set_body_graph(outerGraph) }
      edges.endRun(run, sub: n, orphaned: &work.orphaned)
      activeSub = .none
      run = edges.idleRun  // outside bodies the run is idle (see `Graph.read`)
    } else {
      changed = runNested(n, in: savedSub)
    }
    return recomputed(n, changed: changed)
  }

  /// `recompute` of a DIRTY row read inside the body of `outer` (a stale candidate's read, as
  /// kairo/diamond's sum reads its four other inputs): the nested run and its end in the
  /// caller's frame, with no test for an outermost run (a candidate exists only while a body
  /// runs) and no call to `runNested`.
  @inlinable @inline(__always)
  func recomputeNested(_ n: Slot, in outer: Slot) -> Bool {
    recomputed(n, changed: runNestedInline(n, in: outer))
  }

  /// The end of every recompute of `n` whose behavior returned `changed`: the run flags
  /// cleared, `hasValue` set, and the version bumped if the value changed.
  @inlinable @inline(__always)
  func recomputed(_ n: Slot, changed: Bool) -> Bool {
    #if DEBUG
      runCount &+= 1
    #endif
    // `visiting` too: a refresh's frame may hand its row here still flagged (see `refresh`).
    let f = rows.flags[n].subtracting([.computing, .dirty, .pending, .visiting])
    // One test for both cold cases (`Tracking.coldRecompute`): a context that counts runs
    // or explains turns, and a failing operation.
    if _slowPath(track.coldRecompute) && recomputedCold(n.index, f, changed) {
      return false
    }
    rows.flags[n] = f.union(.hasValue)
    if changed {
      revision &+= 1
      rows.changedAt[n] = revision
    }
    return changed
  }

  /// The end of a recompute of the row at `index` in a context that notes runs, or while the
  /// operation is failing (`Tracking.coldRecompute`); returns whether it failed. Out of line
  /// (a second branch beside the `hasValue` store became one flag select that tested
  /// `isFailing` twice), and given the row's index, live in a register for that store, rather
  /// than its slot, which the steady path would otherwise keep on the stack for this call.
  @inlinable @inline(never)
  func recomputedCold(_ index: Int, _ f: StateFlags, _ changed: Bool) -> Bool {
    let n = Slot(index)
    #if !COG_NO_DIAGNOSTICS
      if maps.countsRuns { countRun(n, changed: changed) }
    #endif
    if !isFailing { return false }
    // The body saw a cycle's stale values: the row stays dirty, to be redone next time.
    // Nothing changed (the behavior kept the last good value); returning false lets a caller
    // test `isFailing` only after an unchanged recompute.
    rows.flags[n] = f.union(.dirty)
    return true
  }

  /// `recompute`'s body run inside another body's (`outer`): a first evaluation, or a
  /// refresh inside a body (a PENDING row's stale dependencies, a row the body had not read
  /// at this point before). Out of line, so that the outermost path stays small enough to
  /// inline at each of `recompute`'s call sites. A DIRTY row that a body reads where it read
  /// it last run takes `recomputeNested` instead, inline in the read.
  @inlinable @inline(never)
  func runNested(_ n: Slot, in outer: Slot) -> Bool { runNestedInline(n, in: outer) }

  /// `runNested`'s work, inlined where the caller knows a body is running
  /// (`recomputeNested`).
  @inlinable @inline(__always)
  func runNestedInline(_ n: Slot, in outer: Slot) -> Bool {
    // The outer run's tracking state stays in this frame while n runs (runs nest).
    let savedRun = run
    activeSub = n
    run = edges.beginRun(n)
    rows.flags[n].insert(.computing)
    work.nestedRuns.append(
      NestedRun(body: n, frame: Int32(truncatingIfNeeded: work.pullStack.count)))
    let changed: Bool
    // A body that runs inside another body adds native frames; a deep chain of them moves
    // to a fresh stack segment when the current one runs low. Outermost bodies skip the
    // check. One compare with the segment's red-zone bound; the exact test is out of line.
    if _slowPath(cog_stack_is_low()) {
      changed = runNearStackEnd(n)
    } else {
      changed = runBehavior(n)
    }
    edges.endRun(run, sub: n, orphaned: &work.orphaned)
    work.nestedRuns.count &-= 1
    activeSub = outer
    run = savedRun
    return changed
  }

  /// Stack left below which a nested body runs on a fresh segment (`COG_STACK_RED_ZONE`).
  @inlinable static var stackRedZone: Int { Int(COG_STACK_RED_ZONE) }
  /// Size of a fresh segment: about 13,000 levels in release, 700 in debug.
  @inlinable static var stackSegment: Int { 4 * 1024 * 1024 }

  /// `n`'s nested body where the frame may be in the red zone (`cog_stack_is_low`: in it, or
  /// on a thread whose stack bounds are not known yet): on a fresh segment when less than
  /// `stackRedZone` is left, here otherwise.
  @inline(never) @inlinable
  func runNearStackEnd(_ n: Slot) -> Bool {
    if cog_stack_remaining() < Graph.stackRedZone { return runOnFreshStack(n) }
    return runBehavior(n)
  }

  /// Calls row `n`'s behavior: computes its new value and returns whether it changed.
  // Lifetime: the row's hold on its descriptor (or its `ReactionRow`) keeps the behavior
  // alive while the row exists, and the row outlives its own run.
  @inlinable @inline(__always)
  func runBehavior(_ n: Slot) -> Bool {
    withGuaranteed(rows.behavior[n].object.unsafelyUnwrapped) { $0.run($0, self, n) }
  }

  /// Runs the body of `n` on a fresh stack segment (cold: once per segment's worth of
  /// nesting). Stops with a clear message where the platform cannot switch stacks.
  @inline(never) @inlinable
  func runOnFreshStack(_ n: Slot) -> Bool {
    // Lifetime: unretained; `runOnFreshStack`'s own graph, alive for the synchronous call.
    var job = FreshStackJob(graph: Unmanaged.passUnretained(self as AnyObject), slot: n) {
      graph, slot in
      let g = unsafeDowncast(graph, to: Graph.self)
      return g.runBehavior(slot)
    }
    let status = withUnsafeMutablePointer(to: &job) { p in
      cog_run_on_fresh_stack(Graph.stackSegment, freshStackTrampoline, UnsafeMutableRawPointer(p))
    }
    if status != 0 { stackExhausted(at: n) }
    return job.changed
  }

  @inline(never) @inlinable
  func stackExhausted(at n: Slot) -> Never {
    let depth = runningBodies().count
    fatalError(
      "Cog: evaluating '\(describe(n))' nested \(depth) bodies deep and the stack is nearly "
        + "exhausted (\(cog_stack_remaining()) bytes left), and this platform cannot switch to a "
        + "fresh stack segment; read the chain in steps from its start")
  }
}

/// What `runOnFreshStack` hands the C trampoline: the row to run and, afterwards, its result.
/// Not generic (a C function pointer cannot carry generic context): the body is a closure over
/// the erased graph.
@usableFromInline
struct FreshStackJob {
  // Lifetime: unretained; `runOnFreshStack`'s own graph, alive for the synchronous call.
  @usableFromInline let graph: Unmanaged<AnyObject>
  @usableFromInline let slot: Slot
  @usableFromInline let body: @MainActor (AnyObject, Slot) -> Bool
  @usableFromInline package var changed = false
  // Lifetime: unretained; `runOnFreshStack`'s own graph, alive for the synchronous call.
  @usableFromInline package init(
    graph: Unmanaged<AnyObject>, slot: Slot, body: @escaping @MainActor (AnyObject, Slot) -> Bool
  ) {
    self.graph = graph
    self.slot = slot
    self.body = body
  }
}

/// Runs a `FreshStackJob` on the fresh segment, on the same thread (the main actor's).
@usableFromInline
let freshStackTrampoline: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
  // The segment runs on the thread that switched to it: the main actor's.
  nonisolated(unsafe) let job = p.unsafelyUnwrapped.assumingMemoryBound(to: FreshStackJob.self)
  MainActor.assumeIsolated {
    let changed = withGuaranteed(job.pointee.graph) { job.pointee.body($0, job.pointee.slot) }
    job.pointee.changed = changed
  }
}

/// One entry of the pull's explicit stack: a row being checked and the dependency position its
/// scan resumes at. One stack of pairs rather than two parallel stacks: a push or pop is one
/// capacity check and one count update.
@frozen @usableFromInline
struct PullFrame<Position: EdgePosition> {
  @usableFromInline var row: Slot
  @usableFromInline var position: Position
  @inlinable @inline(__always) init(row: Slot, position: Position) {
    self.row = row
    self.position = position
  }
}
