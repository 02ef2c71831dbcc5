import CogCore

/// The array layouts' edge store: per-row dependency lists (`Deps`, the part the two array
/// layouts differ in) and per-row subscriber arrays, with Reactively's prefix reuse for
/// tracking: a run compares its reads in order with the previous run's list; from the first
/// mismatch it collects the rest of its reads in a shared buffer, and at its end swaps them
/// in for the old tail. A steady run only confirms (no allocation, no search).
///
/// Positions are indices into a row's list (`ArrayPosition`). Runs nest: a run that starts
/// collecting records where its entries start in the shared buffer (`Run.collectStart`), and
/// a nested run's entries sit above its outer run's until it ends and pops them.
@frozen @usableFromInline
package struct PrefixReuseEdges<Deps: DependencyLists>: EdgeStore {
  @usableFromInline package var deps: Deps
  @usableFromInline package var subs: SubscriberArrays
  /// Reads collected past the first mismatch, for every run under way (a stack).
  @usableFromInline package var collected: RawColumn<(dep: Slot, version: UInt32)>
  @usableFromInline package var liveEdgeCount: Int

  /// A run: its row, the next position of the previous run's list to compare, and where its
  /// collected reads start in `collected` (`-1`: still confirming).
  @frozen @usableFromInline
  package struct Run {
    @usableFromInline package var sub: Slot
    @usableFromInline package var index: Int32
    @usableFromInline package var collectStart: Int32
    @inlinable init(sub: Slot) {
      self.sub = sub
      index = 0
      collectStart = -1
    }
  }

  @inlinable package init(reservingRows rows: Int) {
    deps = Deps(reservingRows: rows)
    subs = SubscriberArrays(reservingRows: rows)
    collected = RawColumn(capacity: 64)
    liveEdgeCount = 0
  }

  @usableFromInline package func free() {
    deps.free()
    subs.free()
    collected.free()
  }

  @inlinable @inline(__always) package mutating func ensureRows(_ count: Int) {
    deps.ensureRows(count)
    subs.ensureRows(count)
  }

  @usableFromInline package var reservedBytes: Int {
    deps.reservedBytes + subs.reservedBytes
      + collected.capacity * MemoryLayout<(dep: Slot, version: UInt32)>.stride
  }

  // MARK: Pull

  @inlinable @inline(__always) package func firstDep(of sub: Slot) -> ArrayPosition {
    ArrayPosition(deps.count(of: sub) > 0 ? 0 : -1)
  }
  @inlinable @inline(__always)
  package func nextDep(of sub: Slot, after p: ArrayPosition) -> ArrayPosition {
    ArrayPosition(p.index + 1 < deps.count(of: sub) ? p.index + 1 : -1)
  }
  @inlinable @inline(__always) package func dep(of sub: Slot, at p: ArrayPosition) -> Slot {
    deps.dep(of: sub, at: p.index)
  }
  @inlinable @inline(__always)
  package func version(of sub: Slot, at p: ArrayPosition) -> UInt32 {
    deps.version(of: sub, at: p.index)
  }

  // MARK: Push

  @inlinable @inline(__always) package func firstSub(of dep: Slot) -> ArrayPosition {
    ArrayPosition(subs.count(of: dep) > 0 ? 0 : -1)
  }
  @inlinable @inline(__always)
  package func nextSub(of dep: Slot, after p: ArrayPosition) -> ArrayPosition {
    ArrayPosition(p.index + 1 < subs.count(of: dep) ? p.index + 1 : -1)
  }
  @inlinable @inline(__always) package func sub(of dep: Slot, at p: ArrayPosition) -> Slot {
    subs.entry(of: dep, at: p.index).sub
  }
  @inlinable @inline(__always) package func hasSubscribers(_ dep: Slot) -> Bool {
    subs.count(of: dep) > 0
  }
}
