/// The per-row flag column.
///
/// ```
///  bit  15 14 13 12 11 10  9  8  7  6  5  4  3  2  1  0
///       ls ex ob vi as rl tc st rx cp sr hv ca cm pd dt
///
///  dt  dirty      a dependency surely changed: recompute before the next read
///  pd  pending    a dependency may have changed: check versions (CHECK)
///  cm  computing  the row's body is running (cycle detection)
///  ca  cached     a `.cache` row kept while unobserved (it has an entry in the cache list)
///  hv  hasValue   the row holds a value
///  sr  source     kind: manual state, written through a writer
///  cp  computed   kind: automatic state
///  rx  reaction   kind: reaction (a hot root with no value)
///  st  staged     a source whose staged value differs from its current one (this turn)
///  tc  touched    a source written in this turn (in the touched list)
///  rl  released   the row is free
///  as  async      an async cog's row: it has an `AsyncRow` (see `Graph+Async.swift`)
///  vi  visiting   the row is on the pull stack, its dependencies being checked
///  ob  observed   the row has an Observation boundary (a UI read made one): a hot root
///  ex  exported   the row has export subscribers: a hot root
///  ls  leased     the row has explicit leases (`ContextMaps.leases` counts them)
/// ```
/// CLEAN is "neither dirty nor pending". `observed` and `exported` are
/// set and cleared by `Graph+Boundaries.swift` only; push and publish read them (`hotRoot`).
@frozen @usableFromInline
package struct StateFlags: OptionSet, Sendable, Hashable {
  @usableFromInline package var rawValue: UInt16
  @inlinable @inline(__always) package init(rawValue: UInt16) { self.rawValue = rawValue }

  @inlinable package static var dirty: StateFlags { StateFlags(rawValue: 1 << 0) }
  @inlinable package static var pending: StateFlags { StateFlags(rawValue: 1 << 1) }
  @inlinable package static var computing: StateFlags { StateFlags(rawValue: 1 << 2) }
  @inlinable package static var cached: StateFlags { StateFlags(rawValue: 1 << 3) }
  @inlinable package static var hasValue: StateFlags { StateFlags(rawValue: 1 << 4) }
  @inlinable package static var source: StateFlags { StateFlags(rawValue: 1 << 5) }
  @inlinable package static var computed: StateFlags { StateFlags(rawValue: 1 << 6) }
  @inlinable package static var reaction: StateFlags { StateFlags(rawValue: 1 << 7) }
  @inlinable package static var staged: StateFlags { StateFlags(rawValue: 1 << 8) }
  @inlinable package static var touched: StateFlags { StateFlags(rawValue: 1 << 9) }
  @inlinable package static var released: StateFlags { StateFlags(rawValue: 1 << 10) }
  @inlinable package static var async: StateFlags { StateFlags(rawValue: 1 << 11) }
  @inlinable package static var visiting: StateFlags { StateFlags(rawValue: 1 << 12) }
  @inlinable package static var observed: StateFlags { StateFlags(rawValue: 1 << 13) }
  @inlinable package static var exported: StateFlags { StateFlags(rawValue: 1 << 14) }
  @inlinable package static var leased: StateFlags { StateFlags(rawValue: 1 << 15) }

  /// Dirty or pending: the row must be refreshed before its value is used.
  @inlinable package static var stale: StateFlags { [.dirty, .pending] }
  /// What a read must look at before using the value: stale, or part of a pull in progress
  /// (reaching a computing or visiting row closes a cycle).
  @inlinable package static var attention: StateFlags { [.dirty, .pending, .computing, .visiting] }
  /// What sends a body's read of a row it has found without resolving (`Graph.read`'s
  /// second test) or resolved (`readInBody`) down the general path: attention, or a cached
  /// row, whose entry in the cache list the read must take out.
  @inlinable package static var generalRead: StateFlags { attention.union(.cached) }
  /// A row on the way of the current pull: reading it again closes a cycle.
  @inlinable package static var inProgress: StateFlags { [.computing, .visiting] }
  /// Rows the flush settles when push reaches them: reactions (run in step 6) and watched
  /// rows (settled in step 3, their boundary and exports told in steps 4–5). One mask, so
  /// that push tests one bit set per flagged row whether or not anything is watched.
  @inlinable package static var hotRoot: StateFlags { [.reaction, .observed, .exported] }
  /// Rows watched from outside the graph (a boundary or an export).
  @inlinable package static var watched: StateFlags { [.observed, .exported] }
  /// Rows that run a body (computeds and reactions).
  @inlinable package static var runs: StateFlags { [.computed, .reaction] }
}
