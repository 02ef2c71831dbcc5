/// A context's graph as data, taken by `Cogs.inspect()`: every live row (states and
/// reactions) with its label, kind, lifetime, flags, value and version, and the edges between
/// rows in both directions. A value: it does not change when the context does.
/// `dot` renders it as Graphviz DOT text.
public struct CogGraphSnapshot: Sendable, Equatable {
  /// What a row is.
  public enum Kind: String, Sendable, Equatable {
    /// A manual state, written in turns.
    case manual
    /// An automatic state, computed from what it reads.
    case automatic
    /// An async automatic state (`Cog.Async`).
    case async
    /// A reaction.
    case reaction
  }

  /// A row's state at the time of the snapshot.
  public enum Flag: String, Sendable, Equatable, Hashable, Comparable {
    /// A dependency surely changed: it recomputes before its next read.
    case dirty
    /// A dependency may have changed: its dependencies' versions are checked at its next read.
    case pending
    /// It holds a value (an automatic state that never ran holds none).
    case hasValue
    /// A UI read made an Observation boundary for it.
    case observed
    /// It has export subscribers (`Cogs.export`).
    case exported
    /// A `.cache` row kept while unobserved.
    case cached
    /// A lease keeps it alive (`Cogs.lease`, an export or a boundary).
    case leased

    /// By name.
    public static func < (a: Flag, b: Flag) -> Bool { a.rawValue < b.rawValue }
  }

  /// One row.
  public struct Node: Sendable, Equatable, Identifiable {
    /// The row's slot in its context: unique among the snapshot's nodes (a slot is reused
    /// after its row is released, so ids are not stable across snapshots).
    public let id: Int
    /// The state's label (with its key for a keyed state), or the reaction's name.
    public let label: String
    /// Manual, automatic, async or reaction.
    public let kind: Kind
    /// How long the row lives; nil for a reaction (it lives until cancelled).
    public let lifetime: CogLifetime?
    /// The row's flags.
    public let flags: Set<Flag>
    /// The value's `String(describing:)`; nil for a reaction and a state with no value yet.
    public let value: String?
    /// The context revision at which the value last changed (0 for a reaction).
    public let version: UInt32
    /// For a keyed state: its box's label (its rows are grouped in `dot`); nil otherwise.
    public let box: String?
    /// The ids of the rows this row read in its last run, in the order it read them.
    public let dependencies: [Int]
    /// The ids of the rows that read this one in their last run.
    public let subscribers: [Int]
  }

  /// The live rows, by id.
  public let nodes: [Node]
  /// The context's revision when the snapshot was taken.
  public let revision: UInt32

  /// The node with label `label`, if any (the first one by id).
  public func node(labeled label: String) -> Node? { nodes.first { $0.label == label } }
}
