/// The simple core: a deliberately plain implementation of `swift/SEMANTICS.md`.
///
/// It is the oracle of the differential tests and the "simple" baseline of the workbench, so it
/// is written to be obviously correct rather than fast: one class per state, an array of
/// dependencies per computation, recursion for pulls, and a global revision counter.
///
/// The algorithm (salsa's revisions with backdating):
/// - `revision` increases by one at the end of every turn that changed at least one source.
/// - Every node has `changedAt`, the revision in which its value last changed. A source takes
///   the new revision when a turn gives it an unequal value; a computed takes it when a recompute
///   returns an unequal value (an equal result keeps the old value and the old `changedAt`:
///   backdating).
/// - A computed remembers the tracked reads of its last run as `[(node, changedAtSeen)]`, in read
///   order, and `verifiedAt`, the revision at which it was last known to be current. To bring it
///   up to date, each dependency is brought up to date in order; the first one whose `changedAt`
///   differs from what was seen makes the body run again. If none does, only `verifiedAt` moves.
/// - Reactions keep the same dependency list and are checked, in registration order, after each
///   turn that changed something.
///
/// Everything runs on the main actor; there are no locks and no flags besides `isComputing`
/// (cycle detection).
///
/// ```swift
/// let cogs = SimpleCogs()
/// let count = cogs.source(0)
/// let double = cogs.computed { c in c[count] * 2 }
/// cogs.react("log") { c in print(c[double]) }  // prints 0
/// cogs.turn("increment") { w in w[count] += 1 }  // prints 2
/// ```
///
/// Choices SEMANTICS leaves open, made here (and so binding on the runtime via the
/// differential tests):
/// - a backdated recompute keeps the old value, not just the old `changedAt` (it matters only
///   for a custom equality);
/// - a turn body reads committed values of computeds (staged sources are published at the end);
/// - `turn` inside a reaction or computed is a precondition failure: reactions schedule turns
///   with their context's `turn(_:_:)` (or `scheduleTurn`); a reaction may register reactions,
///   a computed may not.
@MainActor
public final class SimpleCogs {
  /// The current revision. Starts at 1 so that 0 can mean "never verified".
  public internal(set) var revision = 1

  /// One tracking frame per running computation (computed or reaction), innermost last.
  /// Tracked reads append to the last frame.
  var frames: [Frame] = []

  /// Name of the turn whose body is running, if any (nested turns are a programming error).
  var activeTurn: String?
  /// Identifies the running turn so that an escaped `SimpleWriter` is caught.
  var turnSerial = 0
  /// Sources written in the running turn, in first-write order.
  var touched: [SimpleAnyNode] = []
  /// Number of reaction bodies running (registration runs and flush runs).
  var reactionDepth = 0
  /// True while the end of a turn publishes sources and runs reactions.
  var isFlushing = false

  /// Every reaction ever registered and not yet compacted away, in registration order.
  var reactions: [SimpleReaction] = []
  /// How many entries of `reactions` are cancelled (compacted when they are the majority).
  var cancelledReactions = 0
  /// Turns scheduled by reactions (or `scheduleTurn`), run first in first out once idle, with
  /// the reaction that scheduled each (to name a loop).
  var scheduled: [(name: String, by: SimpleReaction?, body: (SimpleWriter) -> Void)] = []
  /// True while scheduled turns run (see `drainScheduled`).
  var draining = false
  /// Reactions registered so far (their registration order).
  var registrations = 0

  /// The nodes being verified or computed and the reactions running, outermost first: the
  /// way of the current pull, which names a cycle.
  var active: [SimpleAnyNode] = []
  /// The cycle met by the current operation, if any (see `SimpleCogs+Pull.swift`).
  var cycle: [SimpleAnyNode]? = nil

  /// Receives cycles and reaction loops, as the runtime's `errorHandler` does. The default
  /// stops the program.
  public var failureHandler: (SimpleFailure) -> Void = { fatalError("\($0)") }
  /// As the runtime's `Cogs.scheduledTurnLimit`.
  public var scheduledTurnLimit = 10_000

  public init() {}

  /// True when no turn, flush, reaction or computation is running: a `turn` may start now.
  public var isIdle: Bool {
    activeTurn == nil && reactionDepth == 0 && !isFlushing && frames.isEmpty
  }

  /// True once a read of the current operation closed a cycle (see `SimpleCogs+Pull.swift`).
  public var isFailing: Bool { cycle != nil }

  /// True while a computed or reaction runs: `read` records a dependency now.
  public var isTracking: Bool { !frames.isEmpty }
}

/// A tracking frame: who is running, and the dependencies it has read so far.
struct Frame {
  let owner: ObjectIdentifier
  /// Reactions may schedule turns and register reactions; computeds may not.
  let isReaction: Bool
  /// The running reaction, for reaction frames.
  var reaction: SimpleReaction? = nil
  var deps: [Dependency] = []
}

/// A failure the simple core reports, as the runtime reports `CogError.cycle` and
/// `CogError.reactionLoop`.
public enum SimpleFailure: Equatable, CustomStringConvertible {
  /// The states of a cycle in read order, starting at the one the closing read reached.
  case cycle([String])
  case reactionLoop(reactions: [String], states: [String])

  public var description: String {
    switch self {
    case .cycle(let states): return "cycle \(states)"
    case .reactionLoop(let reactions, let states): return "reaction loop \(reactions) \(states)"
    }
  }
}

/// One tracked read: the node and the `changedAt` it had when it was read.
struct Dependency {
  let node: SimpleAnyNode
  let seen: Int
}
