/// The collector's queue (`WorkBuffers.orphaned`): rows that lost their last subscriber or
/// lease, released or cached when the operation ends (`Graph.collectSlow`). The edge stores
/// append to it as they unlink (`EdgeStore.endRun`, `removeAllDeps`); the graph, as a lease
/// ends or a read outside bodies leaves a row unobserved.
///
/// It keeps only the rows the collector may release or cache: a row with a lifetime, or any
/// row while a sweep runs (a dropped descriptor's row goes whatever its lifetime). A
/// `.context` row outside a sweep stays, so it is not queued, and an operation that orphaned
/// only such rows (a cancelled reaction's signals, as in sbench's create cases; a body that
/// stopped reading a computed, as kairo/unstable's) ends with no call to the collector
/// (impl/perf-notes.md, "Stop 58"). A dropped descriptor's row that was not queued is found
/// by the next sweep, which looks at every row.
@frozen @usableFromInline
package struct OrphanQueue {
  @usableFromInline package var rows: RawColumn<Slot>
  /// True while a sweep runs (`Graph.sweepDropped`): every row is queued.
  @usableFromInline package var sweeping = false
  /// The graph's lifetime column; `nil` in a queue made apart from a graph (the edge stores'
  /// tests), which queues every row.
  // Lifetime: points into the graph's hot state, which holds this queue too: both are
  // allocated once, in `Graph.init`, and freed together in its `deinit`.
  @usableFromInline package var lifetimes: UnsafePointer<RawColumn<RowLifetime>>?

  @inlinable package init(capacity: Int = 16) { rows = RawColumn(capacity: capacity) }

  /// Whether the collector may release or cache row `s` once it is unobserved.
  @inlinable @inline(__always) package func keeps(_ s: Slot) -> Bool {
    guard let lifetimes, !sweeping else { return true }
    return lifetimes.pointee[s] != .context
  }

  /// Queues `s` if the collector may release or cache it (`keeps`).
  @inlinable @inline(__always) package mutating func append(_ s: Slot) {
    if keeps(s) { rows.append(s) }
  }

  /// `append`, out of line, for a store whose unlink loop the inlined test would cost
  /// registers on every edge (the array stores': dependency-churn +1.3% to +1.7% with it
  /// inline, impl/perf-notes.md "Stop 58"). The pool's unlink takes the inline one.
  @inlinable @inline(never) package mutating func appendOutOfLine(_ s: Slot) { append(s) }

  @inlinable package var count: Int { rows.count }
  @inlinable package subscript(i: Int) -> Slot { rows[i] }
  /// Removes the first `n` rows (the ones the collector handled).
  @inlinable package mutating func removeFirst(_ n: Int) { rows.removeFirst(n) }
  /// Frees the buffer; the graph's `deinit` calls it once.
  @inlinable package func free() { rows.free() }
}
