/// Async rows in the graph (design: swift/0004-async-cogs.md): how a body's returned work
/// reaches its `AsyncRow`, how a result publishes (a turn of its own, named after the cog),
/// how the status is read, and what a release does.
///
/// The status of an async row is a source row of its own (`CogAsyncStatus`), made with the
/// row's `AsyncRow`. Finishing work stages it in the result's turn, like any source. Starting
/// work happens inside the row's body run (a pull), where nothing can be staged: there the
/// status is written in place and pushed at once. That is safe because every reader of the
/// status reads the async row first (`readAsyncStatus`): when the row runs, its status readers
/// are already flagged (they read the row, whose inputs changed) or are running and read the
/// status after the row, so nobody has seen the old status in this operation.
extension Graph {
  /// An async row's body returned `work`: the first run stores the initial value, then the
  /// row's policy takes the work and the status follows. Returns whether the value changed
  /// (only on the first run: results change the value in turns of their own).
  @inlinable
  package func submitAsync<V>(_ work: AsyncWork<V>, at s: Slot, spec: AsyncSpec<V>) -> Bool {
    var changed = false
    if !rows.flags[s].contains(.hasValue) {
      storeValue(spec.initial, spec.typeIndex, rows.valueIndex[s])
      changed = true
    }
    // A body that saw a cycle's stale values starts nothing (its run is discarded).
    if isFailing { return false }
    let row = asyncRow(at: s, spec: spec)
    row.submit(work)
    writeAsyncStatusInPlace(row)
    return changed
  }

  /// The `AsyncRow` of row `s`, made on the row's first run together with its status row.
  @inlinable
  func asyncRow<V>(at s: Slot, spec: AsyncSpec<V>) -> AsyncRow<V, Edges> {
    // Safety: `makeAsyncRow` made `asyncRows[s]` for this row's descriptor, whose spec fixes `V`.
    if let r = turns.asyncRows[s.raw] { return unsafeDowncast(r, to: AsyncRow<V, Edges>.self) }
    return makeAsyncRow(at: s, spec: spec)
  }

  @inline(never) @inlinable
  func makeAsyncRow<V>(at s: Slot, spec: AsyncSpec<V>) -> AsyncRow<V, Edges> {
    let ti = AsyncStatusType.typeIndex
    let pair = allocateValuePair(ti, initial: CogAsyncStatus.idle)
    let id = Registry.makeDescriptorID()
    setOwner(AsyncStatusOwner(label: "\(describe(s)).status"), for: id)
    let st = allocateRow(
      kind: .source, descriptor: id, typeIndex: ti, valueIndex: pair, behavior: BehaviorRef(nil),
      lifetime: .context)
    let row = AsyncRow(graph: self, slot: s, statusSlot: st, spec: spec)
    turns.asyncRows[s.raw] = row
    rows.flags[s].insert(.async)
    return row
  }

  /// The async machinery of row `s`, if it is an async row that has run.
  @inlinable package func asyncControl(of s: Slot) -> (any AsyncRowControl)? {
    s.isNone ? nil : turns.asyncRows[s.raw]
  }

  /// Writes the status of `row` in place and pushes it, when it changed: work started inside
  /// a pull (see the type's comment for why no reader can have seen the old value).
  @inlinable
  func writeAsyncStatusInPlace<V>(_ row: AsyncRow<V, Edges>) {
    let st = row.statusSlot
    // A status row is a source: it holds a value from its start.
    let changed = ValueEntry.update(
      row.status, valueEntries(AsyncStatusType.typeIndex), Int(rows.valueIndex[st]),
      holds: true, same: CogAsyncStatus.same)
    if !changed { return }
    revision &+= 1
    rows.changedAt[st] = revision
    propagate(from: st)
  }

  /// Stages a result or element as the async row's new value in the running turn (an equal
  /// value, by the cog's equality, changes nothing).
  @inlinable
  func stageAsyncValue<V>(_ value: V, at s: Slot, spec: AsyncSpec<V>) {
    stage(
      s, value, typeIndex: spec.typeIndex,
      // Lifetime: `spec` (captured by the descriptor's behavior) owns its equality.
      equality: spec.equality.map { Unmanaged.passUnretained($0) })
  }

  /// Stages the status of `row` in the running turn.
  @inlinable
  func stageAsyncStatus<V>(_ row: AsyncRow<V, Edges>) {
    stage(
      row.statusSlot, row.status, typeIndex: AsyncStatusType.typeIndex,
      // Lifetime: a static, alive for the process.
      equality: Unmanaged.passUnretained(AsyncStatusType.equality))
  }

  /// Runs `body` as a turn of its own, named after the async row in the turn history.
  @inlinable
  func asyncTurn<V>(_ row: AsyncRow<V, Edges>, _ body: (Graph<Edges>) -> Void) {
    if _slowPath(turns.recordsHistory) { nameNextRecordedTurn(after: rows.descriptor[row.slot]) }
    turn("async result") { g, _ in body(g) }
  }

  /// Whether row `s` must be refreshed before its value is used.
  @inlinable package func isStale(_ s: Slot) -> Bool {
    !rows.flags[s].isDisjoint(with: .stale)
  }

  /// Reads the status of the state `n` names: first `n` itself (so that its body has run and
  /// its work started, and, tracked, so that the reader reruns when it restarts), then its
  /// status row. A state that is not async reads as `.idle`. One operation.
  @inlinable
  package func readAsyncStatus<N: StateName>(_ n: N, _ mode: ReadMode) -> CogAsyncStatus
  where N.Edges == Edges {
    let s = n.resolve(in: self)
    let ok = mode == .tracked ? readTracked(s) : readUntracked(s)
    var status = CogAsyncStatus.idle
    if ok, let row = turns.asyncRows[s.raw] {
      let st = row.statusSlot
      _ = mode == .tracked ? readTracked(st) : readUntracked(st)
      status = loadValue(AsyncStatusType.typeIndex, rows.valueIndex[st], as: CogAsyncStatus.self)
    }
    if isIdle {
      endOperation(after: s)
      if _slowPath(isFailing) { reportCycle() }
    }
    return status
  }

  /// Part of `release`: an async row's tasks are cancelled and its async generation bumped
  /// before anything else goes, so that no late result can land (in this row or in a row that
  /// reuses the slot); then its status row goes.
  @inline(never) @inlinable
  func releaseAsync(_ s: Slot) {
    guard let row = turns.asyncRows.removeValue(forKey: s.raw) else { return }
    row.cancelAll()
    let st = row.statusSlot
    removeOwner(of: rows.descriptor[st])
    release(st)
  }
}

/// The status rows' shared value type index and equality.
@usableFromInline
enum AsyncStatusType {
  @usableFromInline package static let typeIndex = Registry.typeIndex(for: CogAsyncStatus.self)
  @usableFromInline package static let equality = SourceEquality<CogAsyncStatus>(
    CogAsyncStatus.same)
}

/// A status row's per-context record: its label, for errors and the debug history.
// Safety: immutable (`label` is a `let`).
@usableFromInline
final class AsyncStatusOwner: RowOwner, @unchecked Sendable {
  @usableFromInline let label: String
  @usableFromInline var cachePolicy: (limit: Int, retention: Duration)? { nil }
  @usableFromInline init(label: String) { self.label = label }
}
