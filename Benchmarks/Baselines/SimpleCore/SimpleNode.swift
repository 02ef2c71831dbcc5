/// What every state of a `SimpleCogs` has, whatever its value type: the part the revision
/// algorithm works on. Dependency lists hold this type, so `SimpleNode<V>` is its only subclass.
@MainActor
public class SimpleAnyNode {
  /// A name for diagnostics and tests; not used by the algorithm.
  public let label: String
  /// How many times the body ran (always 0 for a source).
  public internal(set) var runCount = 0
  /// The revision in which the value last changed (backdated recomputes leave it alone).
  public internal(set) var changedAt: Int
  /// The revision at which a computed was last known to be current (0: never computed).
  public internal(set) var verifiedAt = 0

  unowned let cogs: SimpleCogs
  /// The tracked reads of the last run, in read order.
  var deps: [Dependency] = []
  /// Set while the body runs; reading a computing node is a cycle.
  var isComputing = false
  /// Set while its dependencies are being checked; reaching it again is a cycle too.
  var isVerifying = false
  /// Set when a run's result was discarded (its body met a cycle): it runs on the next read.
  var mustRun = false
  /// Set once the running turn has staged a value for this source.
  var isStaged = false

  init(cogs: SimpleCogs, label: String, changedAt: Int) {
    self.cogs = cogs
    self.label = label
    self.changedAt = changedAt
  }

  /// True for computeds (nodes with a body), false for sources.
  public var isComputed: Bool { fatalError("abstract") }

  /// The nodes read (tracked) by the last run, in read order.
  public var dependencies: [SimpleAnyNode] { deps.map(\.node) }

  /// Runs the body and stores the result (computeds only).
  func recompute() { fatalError("abstract") }

  /// Publishes the staged value of a source at `revision`; true if it changed.
  func commitStaged(at revision: Int) -> Bool { fatalError("abstract") }
}

/// A source or a computed holding a `V`. Read it with `SimpleCogs.read`, a context's subscript
/// or a writer; write a source with a writer inside a turn.
@MainActor
public final class SimpleNode<V>: SimpleAnyNode {
  /// The current value (nil only for a computed that never ran).
  var value: V?
  /// The value a running turn wrote (meaningful only while `isStaged`).
  var staged: V?
  /// nil: every recompute counts as a change (only computeds may have no equality).
  let equals: ((V, V) -> Bool)?
  /// nil for a source.
  let body: ((SimpleContext<V>) -> V)?

  init(
    cogs: SimpleCogs, label: String, value: V?, equals: ((V, V) -> Bool)?,
    body: ((SimpleContext<V>) -> V)?
  ) {
    self.value = value
    self.equals = equals
    self.body = body
    // A source's value exists from now on; a computed has none until it runs.
    super.init(cogs: cogs, label: label, changedAt: body == nil ? cogs.revision : 0)
  }

  public override var isComputed: Bool { body != nil }

  override func recompute() {
    let old = value
    cogs.frames.append(Frame(owner: ObjectIdentifier(self), isReaction: false))
    cogs.active.append(self)
    isComputing = true
    let new = body!(SimpleContext(node: self))
    isComputing = false
    cogs.active.removeLast()
    let frame = cogs.frames.removeLast()
    precondition(frame.owner == ObjectIdentifier(self), "tracking frames out of order")
    deps = frame.deps
    runCount += 1
    // A run that met a cycle saw stale values: keep the old value and run again next time.
    mustRun = cogs.cycle != nil
    if mustRun { return }
    verifiedAt = cogs.revision
    // Backdating: an equal result keeps the old value and the old changedAt, so readers that
    // saw it do not run again.
    if let old, let equals, equals(old, new) { return }
    value = new
    changedAt = cogs.revision
  }

  override func commitStaged(at revision: Int) -> Bool {
    isStaged = false
    let new = staged!
    staged = nil
    if equals!(value!, new) { return false }
    value = new
    changedAt = revision
    return true
  }
}
