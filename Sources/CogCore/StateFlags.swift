/// The per-row flag column.
///
/// ```
///  bit  15 14 13 12 11 10  9  8  7  6  5  4  3  2  1  0
///       .  .  .  vi ob rl tc st rx cp sr hv qd cm pd dt
///
///  dt  dirty      a dependency surely changed: recompute before the next read
///  pd  pending    a dependency may have changed: check versions (CHECK)
///  cm  computing  the row's body is running (cycle detection)
///  qd  queued     a reaction waiting in this flush's queue
///  hv  hasValue   the row holds a value
///  sr  source     kind: manual state, written through a writer
///  cp  computed   kind: automatic state
///  rx  reaction   kind: reaction (a hot root with no value)
///  st  staged     a source whose staged value differs from its current one (this turn)
///  tc  touched    a source written in this turn (in the touched list)
///  rl  released   the row is free
///  ob  observed   a `.whileObserved` / `.cache` row already queued for a lifetime check
///  vi  visiting   the row is on the pull stack, its dependencies being checked
/// ```
/// CLEAN is "neither dirty nor pending". Bits 13–15 are free.
@frozen
public struct StateFlags: OptionSet, Sendable, Hashable {
  public var rawValue: UInt16
  @inlinable @inline(__always) public init(rawValue: UInt16) { self.rawValue = rawValue }

  public static let dirty = StateFlags(rawValue: 1 << 0)
  public static let pending = StateFlags(rawValue: 1 << 1)
  public static let computing = StateFlags(rawValue: 1 << 2)
  public static let queued = StateFlags(rawValue: 1 << 3)
  public static let hasValue = StateFlags(rawValue: 1 << 4)
  public static let source = StateFlags(rawValue: 1 << 5)
  public static let computed = StateFlags(rawValue: 1 << 6)
  public static let reaction = StateFlags(rawValue: 1 << 7)
  public static let staged = StateFlags(rawValue: 1 << 8)
  public static let touched = StateFlags(rawValue: 1 << 9)
  public static let released = StateFlags(rawValue: 1 << 10)
  public static let lifetimeQueued = StateFlags(rawValue: 1 << 11)
  public static let visiting = StateFlags(rawValue: 1 << 12)

  /// Dirty or pending: the row must be refreshed before its value is used.
  public static let stale: StateFlags = [.dirty, .pending]
  /// What a read must look at before using the value: stale, or part of a pull in progress
  /// (reaching a computing or visiting row closes a cycle).
  public static let attention: StateFlags = [.dirty, .pending, .computing, .visiting]
  /// A row on the way of the current pull: reading it again closes a cycle.
  public static let inProgress: StateFlags = [.computing, .visiting]
  /// Rows that run a body (computeds and reactions).
  public static let runs: StateFlags = [.computed, .reaction]
}
