@_spi(Testing) import Cog
import CogCore
import CogEdgePool
import CogInlineOverflow
import CogLayoutBinding
import CogPrefixArrays

/// What the differential test needs of a runtime: the public API (`Cogs`) and the layout
/// binding over each edge layout conform, so that one generator and one set of checks run on
/// every layout.
@MainActor
protocol DiffRuntime: AnyObject {
  /// A descriptor (a class: the test keeps weak references to dropped ones).
  associatedtype Node: AnyObject
  associatedtype Box
  /// A writable keyed family (`CogFamily`); `Never` for a runtime without one.
  associatedtype Family
  associatedtype Reaction
  /// Shown with a failing seed.
  static var name: String { get }
  /// Whether the runtime has writable keyed families (the spec then has family operations).
  static var hasFamilies: Bool { get }
  init(loopLimit: Int, onError: @escaping (CogError) -> Void)
  var isFailing: Bool { get }
  func source(_ label: String) -> Node
  func box(_ label: String, _ body: @escaping @MainActor (Int, (Node) -> Int) -> Int) -> Box
  func computed(
    _ label: String, _ lifetime: GraphSpec.Lifetime,
    _ body: @escaping @MainActor (DiffReads<Self>) -> Int
  ) -> Node
  /// A `.context` family whose row for `key` starts at `initial(key)` (`nil`: no families).
  func family(_ label: String, _ initial: @escaping @MainActor (Int) -> Int) -> Family?
  func react(_ body: @escaping @MainActor (DiffReactionReads<Self>) -> Void) -> Reaction
  func cancel(_ r: Reaction)
  func turn(_ body: (DiffWriter<Self>) -> Void)
  func read(_ n: Node) -> Int
  func hasRow(_ n: Node) -> Bool
  func hasRow(_ box: Box, _ key: Int) -> Bool
  /// The id of descriptor `n` (rows do not keep a dropped descriptor: the test tracks it by
  /// its id and its details).
  func descriptorID(_ n: Node) -> Int32
  /// What the rows of automatic `n` keep after it is dropped (its `KeylessDetails`).
  func details(_ n: Node) -> AnyObject?
  /// Whether the context has a live row of descriptor `id`.
  func hasRow(descriptorID id: Int32) -> Bool
  func readFamily(_ family: Family, _ key: Int) -> Int
  func hasFamilyRow(_ family: Family, _ key: Int) -> Bool
  /// Live rows in the context (computeds, sources, box rows, reactions).
  var liveRowCount: Int { get }
  /// Releases the rows of dropped descriptors now (`Cogs.releaseDropped`).
  func releaseDropped()
}

/// A body's reads, as closures over the runtime's context.
struct DiffReads<R: DiffRuntime> {
  var read: (R.Node) -> Int
  var peek: (R.Node) -> Int
  var key: (R.Box, Int) -> Int
  var curr: Int?
  var family: (R.Family, Int) -> Int = { _, _ in fatalError("this runtime has no families") }
}

/// A reaction's reads and its way to schedule a turn.
struct DiffReactionReads<R: DiffRuntime> {
  var read: (R.Node) -> Int
  /// The runtime's `isFailing` (the reaction need not capture the runtime).
  var isFailing: () -> Bool
  var schedule: (@escaping (DiffWriter<R>) -> Void) -> Void
}

/// A turn's writes.
struct DiffWriter<R: DiffRuntime> {
  var write: (R.Node, Int) -> Void
  /// A family row's staged value, and a write of it.
  var readFamily: (R.Family, Int) -> Int = { _, _ in fatalError("this runtime has no families") }
  var writeFamily: (R.Family, Int, Int) -> Void = { _, _, _ in
    fatalError("this runtime has no families")
  }
}

/// A runtime without families (the layout binding: `CogFamily` is the public API's).
extension DiffRuntime where Family == Never {
  static var hasFamilies: Bool { false }
  func family(_ label: String, _ initial: @escaping @MainActor (Int) -> Int) -> Never? { nil }
  func readFamily(_ family: Never, _ key: Int) -> Int {}
  func hasFamilyRow(_ family: Never, _ key: Int) -> Bool {}
}

/// The public API, over the default layouts.
@MainActor
final class PublicRuntime: DiffRuntime {
  static var name: String { "Cog (public API)" }
  static var hasFamilies: Bool { true }
  let cogs = Cogs()
  init(loopLimit: Int, onError: @escaping (CogError) -> Void) {
    cogs.scheduledTurnLimit = loopLimit
    cogs.errorHandler = onError
  }
  var isFailing: Bool { cogs.isFailingOperation }
  func source(_ label: String) -> Cog<Int> { Cog(0, label: label) }
  func box(_ label: String, _ body: @escaping @MainActor (Int, (Cog<Int>) -> Int) -> Int)
    -> CogBox<Int, Int>
  {
    CogBox(label: label) { (k: Int, c) -> Int in body(k) { c[$0] } }
  }
  func computed(
    _ label: String, _ lifetime: GraphSpec.Lifetime,
    _ body: @escaping @MainActor (DiffReads<PublicRuntime>) -> Int
  ) -> Cog<Int> {
    Cog(label: label, lifetime: lifetime.cog) { c -> Int in
      body(
        DiffReads(
          read: { c[$0] }, peek: { c.peek($0) }, key: { c[$0[$1]] }, curr: c.curr,
          family: { c[$0[$1]] }))
    }
  }
  func family(_ label: String, _ initial: @escaping @MainActor (Int) -> Int)
    -> CogFamily<Int, Int>?
  {
    CogFamily(label: label) { initial($0) }
  }
  func react(_ body: @escaping @MainActor (DiffReactionReads<PublicRuntime>) -> Void)
    -> CogReaction
  {
    cogs.react("reaction") { [unowned self] c in
      body(
        DiffReactionReads(
          read: { c[$0] }, isFailing: { self.isFailing },
          schedule: { write in
            c.turn("reaction write") { w in write(DiffWriter(write: { w[$0] = $1 })) }
          }))
    }
  }
  func cancel(_ r: CogReaction) { r.cancel() }
  func turn(_ body: (DiffWriter<PublicRuntime>) -> Void) {
    cogs.turn("turn") { w in
      body(
        DiffWriter(
          write: { w[$0] = $1 }, readFamily: { w[$0[$1]] }, writeFamily: { w[$0[$1]] = $2 }))
    }
  }
  func read(_ n: Cog<Int>) -> Int { cogs[n] }
  func hasRow(_ n: Cog<Int>) -> Bool { cogs.hasRow(n) }
  func descriptorID(_ n: Cog<Int>) -> Int32 { n.id }
  func details(_ n: Cog<Int>) -> AnyObject? { n.state.details }
  func hasRow(descriptorID id: Int32) -> Bool { cogs.graph.hasLiveRow(descriptorID: id) }
  func hasRow(_ box: CogBox<Int, Int>, _ key: Int) -> Bool { cogs.hasRow(box[key]) }
  func readFamily(_ family: CogFamily<Int, Int>, _ key: Int) -> Int { cogs[family[key]] }
  func hasFamilyRow(_ family: CogFamily<Int, Int>, _ key: Int) -> Bool {
    cogs.hasRow(family[key])
  }
  var liveRowCount: Int { cogs.liveRowCount }
  func releaseDropped() { cogs.releaseDropped() }
}

/// The layout binding over the edge store `Edges` and the reference layout `Refs`.
@MainActor
final class LayoutRuntime<Edges: EdgeStore, Refs: ReferenceLayout>: DiffRuntime {
  static var name: String { "layout \(Edges.self) + \(Refs.layoutName) references" }
  typealias Family = Never
  let cogs = LayoutCogs<Edges>()
  init(loopLimit: Int, onError: @escaping (CogError) -> Void) {
    cogs.graph.turns.scheduledTurnLimit = loopLimit
    cogs.errorHandler = onError
  }
  var isFailing: Bool { cogs.isFailingOperation }
  func source(_ label: String) -> LayoutCog<Int, Edges> { LayoutCog(0, label: label) }
  func box(
    _ label: String, _ body: @escaping @MainActor (Int, (LayoutCog<Int, Edges>) -> Int) -> Int
  ) -> LayoutBox<Int, Int, Edges, Refs> {
    LayoutBox(label: label) { (k: Int, c) -> Int in body(k) { c[$0] } }
  }
  func computed(
    _ label: String, _ lifetime: GraphSpec.Lifetime,
    _ body: @escaping @MainActor (DiffReads<LayoutRuntime>) -> Int
  ) -> LayoutCog<Int, Edges> {
    let l = lifetime.cog
    return LayoutCog(label: label, lifetime: l.rowLifetime, cachePolicy: l.rowCachePolicy) {
      c -> Int in
      body(DiffReads(read: { c[$0] }, peek: { c.peek($0) }, key: { c[$0, $1] }, curr: c.curr))
    }
  }
  func react(_ body: @escaping @MainActor (DiffReactionReads<LayoutRuntime>) -> Void)
    -> LayoutReaction<Edges>
  {
    cogs.react("reaction") { [unowned self] c in
      body(
        DiffReactionReads(
          read: { c[$0] }, isFailing: { self.isFailing },
          schedule: { write in
            c.turn("reaction write") { w in write(DiffWriter(write: { w[$0] = $1 })) }
          }))
    }
  }
  func cancel(_ r: LayoutReaction<Edges>) { r.cancel() }
  func turn(_ body: (DiffWriter<LayoutRuntime>) -> Void) {
    cogs.turn("turn") { w in body(DiffWriter(write: { w[$0] = $1 })) }
  }
  func read(_ n: LayoutCog<Int, Edges>) -> Int { cogs[n] }
  func hasRow(_ n: LayoutCog<Int, Edges>) -> Bool { cogs.hasRow(n) }
  func descriptorID(_ n: LayoutCog<Int, Edges>) -> Int32 { n.id }
  func details(_ n: LayoutCog<Int, Edges>) -> AnyObject? { n.state.details }
  func hasRow(descriptorID id: Int32) -> Bool { cogs.graph.hasLiveRow(descriptorID: id) }
  func hasRow(_ box: LayoutBox<Int, Int, Edges, Refs>, _ key: Int) -> Bool {
    cogs.hasRow(box, key)
  }
  var liveRowCount: Int { cogs.liveRowCount }
  func releaseDropped() { cogs.graph.sweepDropped() }
}

extension CogLifetime {
  var rowLifetime: RowLifetime {
    switch self {
    case .context: return .context
    case .whileObserved: return .whileObserved
    case .cache: return .cache
    }
  }
  var rowCachePolicy: (limit: Int, retention: Duration)? {
    if case .cache(let limit, let retention) = self { return (limit, retention) }
    return nil
  }
}

extension Graph {
  /// Whether a live row of descriptor `id` is in the graph (a walk: tests only).
  func hasLiveRow(descriptorID id: Int32) -> Bool {
    (0..<rows.count).contains { i in
      let s = Slot(Int32(i))
      return rows.descriptor[s] == id && !rows.flags[s].contains(.released)
    }
  }
}
