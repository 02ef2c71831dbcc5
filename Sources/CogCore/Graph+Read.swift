extension Graph {
  /// The one typed read: every entry point (a body's `c[x]` and `c.peek(x)`, a reaction's
  /// reads, the context's subscript, a writer's read of an automatic state) calls it, and
  /// `try read` shares its general path (`readOperation`), so that a fix or an optimization
  /// lands once.
  ///
  /// Fast path (inline, no call): a tracked read inside a body of the row the body read at
  /// this point last run (`names` confirms it without hashing) that is up to date: one
  /// version store and the value load. Everything else goes out of line, each call the last
  /// thing the read does: `readStaleCandidate` for that row when it is stale, `readInBody`
  /// for a body's other tracked reads, `readOutside` for the rest. A call in the middle,
  /// whose result the fast path went on with, cost the function that inlines this read a
  /// frame of four saved registers; with only tail calls it saves just the caller's `self`.
  ///
  /// Second inline test (no call either), in a body when there is no candidate: a row this
  /// run read already (`EdgeStore.previous`: the same row again, as kairo/repeated's 30 reads
  /// of one signal) that is up to date and not cached needs no tracking: its edge holds the
  /// version it saw, and no row changes while a body runs. It was `readInBody`'s warm case, a
  /// call. Tested only without a candidate and only in a body, where it left the steady
  /// paths' counts as they were; a first run's reads past the first pay the failed test
  /// (impl/perf-notes.md, "Stop 53").
  ///
  /// Outside bodies the run is idle (`EdgeStore.idleRun`: an outermost recompute leaves it so),
  /// so its candidate is `.none` and the fast path needs no test of `activeSub`: only a miss
  /// asks whether a body is running, and only then tries the previous row.
  @inlinable @inline(__always)
  package func read<N: StateName>(_ n: N, _ mode: ReadMode) -> N.Value where N.Edges == Edges {
    if mode == .tracked {
      let c = edges.candidate(run)
      if !c.isNone && n.names(c, in: self) {
        if _fastPath(rows.flags[c].isDisjoint(with: .attention)) { return confirmed(c, n) }
        return readStaleCandidate(c, n)
      }
      if !activeSub.isNone {
        if c.isNone {
          let p = edges.previous(run)
          if !p.isNone && n.names(p, in: self) && rows.flags[p].isDisjoint(with: .generalRead) {
            return value(p, n)
          }
        }
        return readInBody(n)
      }
    }
    return readOutside(n, mode)
  }

  /// The fast path's end: the candidate `c` is `n`'s row and up to date; confirm its edge
  /// and load the value.
  @inlinable @inline(__always)
  package func confirmed<N: StateName>(_ c: Slot, _ n: N) -> N.Value where N.Edges == Edges {
    edges.confirm(&run, version: rows.changedAt[c])
    return loadValue(n.typeIndex, rows.valueIndex[c], as: N.Value.self)
  }

  /// `read`'s candidate `c` is `n`'s row but stale: refresh it, then finish as the fast path
  /// does; a cycle goes to the general path, which notes and serves it.
  @inlinable @inline(never)
  func readStaleCandidate<N: StateName>(_ c: Slot, _ n: N) -> N.Value
  where N.Edges == Edges {
    if refreshForCandidate(c) { return confirmed(c, n) }
    return readInBody(n)
  }

  /// A read inside a body that missed the fast path. Its common cases make no call, so its
  /// frame saves no register: a row the state knows without a call (`StateName.knownSlot`)
  /// that is up to date and out of the cache list, tracked by `EdgeStore.trackInline` (a
  /// row the run read already, as each of kairo/unstable's reads of its source between reads
  /// of another; an array store's new dependency). Every other case ends in a tail call of
  /// its own: a pool's new entry (`readLinking`), a row to resolve (`readTracking`), a stale
  /// or cached row (`readResolved`). With `resolve` and the insert called in its middle, it
  /// saved registers on every call: 56.4 instructions a call on kairo/unstable, 46.4 with
  /// none (impl/perf-notes.md, "Stop 57").
  @inlinable @inline(never)
  func readInBody<N: StateName>(_ n: N) -> N.Value where N.Edges == Edges {
    let s = n.knownSlot(in: self)
    if s.isNone { return readTracking(n) }
    if !rows.flags[s].isDisjoint(with: .generalRead) { return readResolved(s, n) }
    if edges.trackInline(s, version: rows.changedAt[s], sub: activeSub, &run) {
      return value(s, n)
    }
    return readLinking(s, n)
  }

  /// `readInBody`'s up-to-date row `s` that `trackInline` left: a new dependency that takes
  /// a call (the pool's insert, an array store's growth).
  @inlinable @inline(never)
  func readLinking<N: StateName>(_ s: Slot, _ n: N) -> N.Value where N.Edges == Edges {
    edges.trackNew(s, version: rows.changedAt[s], sub: activeSub, &run)
    return value(s, n)
  }

  /// `readInBody` for a state whose row is not known without a call (a first read in this
  /// context, a keyed state): resolve it, then track it or go on in `readResolved`.
  @inlinable @inline(never)
  func readTracking<N: StateName>(_ n: N) -> N.Value where N.Edges == Edges {
    let s = n.resolveUnknown(in: self)
    if rows.flags[s].isDisjoint(with: .generalRead) {
      edges.track(s, version: rows.changedAt[s], sub: activeSub, &run)
      return value(s, n)
    }
    return readResolved(s, n)
  }

  /// Every other read: outermost (the context's subscript, a writer's read) or untracked
  /// (`peek`). One frame: an outermost read of a stale row refreshes from here.
  @inlinable @inline(never)
  func readOutside<N: StateName>(_ n: N, _ mode: ReadMode) -> N.Value
  where N.Edges == Edges {
    settle(n.resolve(in: self), n, mode)
  }

  /// The rest of a body's read of row `s` of `n` (see `readInBody`).
  @inlinable @inline(never)
  func readResolved<N: StateName>(_ s: Slot, _ n: N) -> N.Value
  where N.Edges == Edges {
    settle(s, n, .tracked)
  }

  /// The general read of row `s` of `n`, shared by `readOutside` and `readResolved`: bring
  /// it up to date, track it; after an outermost read, hand unobserved rows to the collector
  /// and report a cycle to the error handler.
  @inlinable @inline(__always)
  package func settle<N: StateName>(_ s: Slot, _ n: N, _ mode: ReadMode) -> N.Value
  where N.Edges == Edges {
    let ok = mode == .tracked ? readTracked(s) : readUntracked(s)
    let v = ok ? value(s, n) : cycleValue(s, typeIndex: n.typeIndex, as: N.Value.self)
    if isIdle {
      endOperation(after: s)
      if _slowPath(isFailing) { reportCycle() }
    }
    return v
  }

  /// An outermost read that hands a cycle to the caller instead of the error handler
  /// (`try read`). Inside a body it is a tracked read (the outermost operation reports).
  @inlinable
  package func readOperation<N: StateName>(_ n: N) -> Result<N.Value, CogError>
  where N.Edges == Edges {
    if !isIdle { return .success(read(n, .tracked)) }
    let s = n.resolve(in: self)
    _ = readTracked(s)
    endOperation(after: s)
    if let error = takeCycleError() { return .failure(error) }
    return .success(value(s, n))
  }

  /// The current value of row `s` of `n`.
  @inlinable @inline(__always)
  package func value<N: StateName>(_ s: Slot, _ n: N) -> N.Value {
    loadValue(n.typeIndex, rows.valueIndex[s], as: N.Value.self)
  }

  /// After an outermost read: a row with a lifetime that nothing observes is handed to the
  /// collector, and deferred work runs.
  @inlinable @inline(__always)
  func endOperation(after s: Slot) {
    if !s.isNone { noteUnobservedRead(s) }
    collect()
  }

  /// The value served to a read that a cycle kept from bringing `s` up to date: the state's
  /// last value, or its type's placeholder if it never had one (`CogCyclePlaceholder`). A type
  /// with no placeholder stops the program with the cycle named: non-throwing reads must
  /// return a value, and there is none.
  @inline(never) @inlinable
  func cycleValue<T>(_ s: Slot, typeIndex: Int32, as: T.Type) -> T {
    if rows.flags[s].contains(.hasValue) {
      return loadValue(typeIndex, rows.valueIndex[s], as: T.self)
    }
    if let p = cyclePlaceholder(T.self) { return p }
    let names = describe(track.cycle ?? [s])
    fatalError(
      "\(CogError.cycle(states: names)); '\(describe(s))' was read in the cycle before it ever "
        + "had a value, and \(T.self) has no placeholder to serve (see CogCyclePlaceholder). "
        + "Break the cycle: a state must not read itself through its dependencies")
  }
}
