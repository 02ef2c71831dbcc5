import CogCore
import CogTypedKey

/// Hooks for the runtime's own tests: row identity is not public API.
extension Cogs {
  /// Moves the process's next descriptor id to `first` (only forward), so that a test can
  /// reach their limit (2³¹ descriptors) without declaring them all.
  @_spi(Testing) public nonisolated static func skipDescriptorIDs(to first: Int32) {
    Registry.skipDescriptorIDs(to: first)
  }

  /// The generation of `ref`'s row, or nil when it has none.
  @_spi(Testing) public func generation<K, T>(of ref: CogRef<K, T>) -> UInt16? {
    let s = ref.name.existing(in: graph)
    return s.isNone ? nil : graph.rows.generation[s]
  }

  /// The slot index of `ref`'s row, or nil when it has none.
  @_spi(Testing) public func slotIndex<K, T>(of ref: CogRef<K, T>) -> Int32? {
    let s = ref.name.existing(in: graph)
    return s.isNone ? nil : s.raw
  }

  /// The slot index of `cog`'s row, or nil when it has none.
  @_spi(Testing) public func slotIndex<T>(of cog: Cog<T>) -> Int32? {
    let s = cog.existing(in: graph)
    return s.isNone ? nil : s.raw
  }

  /// `ref`'s row as it is now (slot and generation), or nil when it has none: `checkLive`
  /// later traps if that row has been released since.
  @_spi(Testing) public func rowToken<K, T>(of ref: CogRef<K, T>) -> CogRowToken? {
    let s = ref.name.existing(in: graph)
    return s.isNone ? nil : CogRowToken(ref: graph.ref(s))
  }

  /// Traps (in debug builds) if the row `token` was taken from has been released since.
  @_spi(Testing) public func checkLive(_ token: CogRowToken) { graph.checkLive(token.ref) }

  /// Whether the current operation met a cycle (its refreshes give up and its results are
  /// discarded): lets tests tell values read in a failing operation from glitches.
  @_spi(Testing) public var isFailingOperation: Bool { graph.isFailing }

  /// The tasks of `cog`'s async work in flight, oldest first (tests await them to know that
  /// an outcome has been handled); empty when it has none or is not async.
  @_spi(Testing) public func asyncTasks<T>(of cog: Cog<T>) -> [Task<Void, Never>] {
    graph.asyncControl(of: cog.existing(in: graph))?.tasks ?? []
  }

  /// The async generation of `cog`'s row (bumped by every `.latest` restart and by the
  /// release), or nil when it has no async row.
  @_spi(Testing) public func asyncGeneration<T>(of cog: Cog<T>) -> UInt32? {
    graph.asyncControl(of: cog.existing(in: graph))?.generation
  }

  /// How many Observation boundaries (each with one `ObservationRegistrar`) this context owns.
  @_spi(Testing) public var boundaryCount: Int { graph.boundaryCount }

  /// Whether `cog`'s row has an Observation boundary.
  @_spi(Testing) public func hasBoundary<T>(_ cog: Cog<T>) -> Bool {
    graph.existingBoundary(of: cog.existing(in: graph)) != nil
  }

  /// Whether `ref`'s row has an Observation boundary.
  @_spi(Testing) public func hasBoundary<K, T>(_ ref: CogRef<K, T>) -> Bool {
    graph.existingBoundary(of: ref.name.existing(in: graph)) != nil
  }

  /// Boundaries plus live export subscriptions.
  @_spi(Testing) public var watcherCount: Int { graph.maps.watchers }

  /// Rows in the table, live and free (grows only when no free slot is left).
  @_spi(Testing) public var rowTableCount: Int { graph.rows.count }

  /// Registrations alive in the process: reactions (their objects, which live as long as their
  /// rows), leases and exports (their shared handle objects).
  @_spi(Testing) public static var liveRegistrationCount: Int {
    registrationsAlive.load(ordering: .relaxed) + Reactions.alive
  }

  /// How many descriptors this context keeps a record of (reactions keep none: the graph
  /// holds their objects through the row).
  @_spi(Testing) public var registeredOwnerCount: Int {
    graph.maps.holdCount
  }

  #if DEBUG
    /// Releases `cog`'s row whatever its lifetime (to exercise slot reuse).
    @_spi(Testing) public func releaseRow<T>(of cog: Cog<T>) {
      graph.release(cog.resolve(in: graph))
    }

    /// Bodies (computeds and reactions) run in this context so far. Debug builds only.
    @_spi(Testing) public var runCount: Int { graph.runCount }
  #endif
}

/// A row as it was when taken (slot and generation), for stale-use checks in tests.
@_spi(Testing) public struct CogRowToken {
  let ref: SlotRef
}
