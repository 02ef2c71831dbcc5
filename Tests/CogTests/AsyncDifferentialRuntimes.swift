@_spi(Testing) import Cog
import CogCore
import CogEdgePool
import CogLayoutBinding
import Foundation

/// What the async differential family needs of a runtime: sources, sync computeds, async cogs
/// under every policy, reactions, turns, outermost reads, `status(of:)` and exports. The public
/// API (`Cogs`) and the layout binding over each edge layout conform, so that one generator
/// and one model run on every layout.
@MainActor
protocol AsyncDiffRuntime: AnyObject {
  associatedtype Node
  static var name: String { get }
  init()
  func source(_ label: String) -> Node
  /// A sync computed; its body reads values and statuses (tracked).
  func computed(_ label: String, _ body: @escaping @MainActor (AsyncDiffReads<Self>) -> Int)
    -> Node
  /// An async cog with initial value -1; its body's reads are tracked.
  func async(
    _ label: String, _ policy: AsyncDiffPolicy,
    _ body: @escaping @MainActor (AsyncDiffReads<Self>) -> AsyncDiffWork
  ) -> Node
  func react(_ body: @escaping @MainActor (AsyncDiffReads<Self>) -> Void)
  func turn(_ writes: [(Node, Int)])
  func read(_ n: Node) -> Int
  func status(_ n: Node) -> AsyncDiffStatus
  /// A UI read (`cogs.ui[x]`): registers Observation access on the state's boundary.
  func uiRead(_ n: Node) -> Int
  func export(_ n: Node) -> AsyncDiffExport
}

/// A body's tracked reads.
struct AsyncDiffReads<R: AsyncDiffRuntime> {
  var read: (R.Node) -> Int
  var status: (R.Node) -> AsyncDiffStatus
}

enum AsyncDiffPolicy: String, CaseIterable {
  case latest, queue, merged, exhaustLatest, stream
}

/// What an async body returns, for every runtime.
enum AsyncDiffWork {
  case run(@MainActor () async throws -> Int)
  case stream(FeedSequence<Int>)
}

/// A status as the tests compare it: pending, and the failure's code.
struct AsyncDiffStatus: Equatable, CustomStringConvertible {
  var pending: Bool
  var failure: Int?
  init(pending: Bool, failure: Int?) {
    self.pending = pending
    self.failure = failure
  }
  init(_ s: CogAsyncStatus) {
    pending = s.isPending
    failure = s.failure.map { ($0 as? TestFailure)?.code ?? -999 }
  }
  var description: String { "\(pending ? "pending" : "idle")/\(failure.map(String.init) ?? "ok")" }
}

/// One export subscription: a consuming task runs `onValue` for each value, in order.
@MainActor
final class AsyncDiffExport {
  /// The executor the consuming tasks prefer, so that `settle()` waits for their hops: into
  /// the stream's `next()` (off the main actor: a task cancelled before it got there ends its
  /// export only when it does) and back with a value or the end.
  /// `COG_ASYNC_DIFF_HOP_YIELDS=N[/k]` makes (every k-th) hop wait N main-actor yields first,
  /// to find what `settle()` misses.
  nonisolated static let hops: TrackedExecutor = {
    // "N" (every hop waits N yields) or "N/k" (every k-th hop does).
    let hold = (ProcessInfo.processInfo.environment["COG_ASYNC_DIFF_HOP_YIELDS"] ?? "")
      .split(separator: "/").map { Int($0) ?? 0 }
    return TrackedExecutor(holdFor: hold.first ?? 0, every: hold.count > 1 ? hold[1] : 1)
  }()

  let consume: (@escaping @MainActor (Int) async -> Void) -> Task<Void, Never>
  let cancel: @MainActor () -> Void
  let isCancelled: @MainActor () -> Bool
  init(
    consume: @escaping (@escaping @MainActor (Int) async -> Void) -> Task<Void, Never>,
    cancel: @escaping @MainActor () -> Void, isCancelled: @escaping @MainActor () -> Bool
  ) {
    self.consume = consume
    self.cancel = cancel
    self.isCancelled = isCancelled
  }
}

/// The public API, over the default layouts.
@MainActor
final class AsyncPublicRuntime: AsyncDiffRuntime {
  static var name: String { "Cog (public API)" }
  let cogs = Cogs()
  init() {}
  func source(_ label: String) -> Cog<Int> { Cog(0, label: label) }
  func computed(
    _ label: String, _ body: @escaping @MainActor (AsyncDiffReads<AsyncPublicRuntime>) -> Int
  ) -> Cog<Int> {
    Cog(label: label) { c -> Int in
      body(AsyncDiffReads(read: { c[$0] }, status: { AsyncDiffStatus(c.status(of: $0)) }))
    }
  }
  func async(
    _ label: String, _ policy: AsyncDiffPolicy,
    _ body: @escaping @MainActor (AsyncDiffReads<AsyncPublicRuntime>) -> AsyncDiffWork
  ) -> Cog<Int> {
    func reads(_ c: CogContext<Int>) -> AsyncDiffReads<AsyncPublicRuntime> {
      AsyncDiffReads(read: { c[$0] }, status: { AsyncDiffStatus(c.status(of: $0)) })
    }
    let run: CogRunPolicy
    switch policy {
    case .latest, .stream:
      return Cog.Async(.latest, initial: -1, label: label) { c -> CogWork<Int> in
        switch body(reads(c)) {
        case .run(let work): return .run(work)
        case .stream(let feed): return .stream(feed)
        }
      }
    case .queue: run = .queue
    case .merged: run = .merged
    case .exhaustLatest: run = .exhaustLatest
    }
    return Cog.Async(run, initial: -1, label: label) { c -> CogRun<Int> in
      guard case .run(let work) = body(reads(c)) else { fatalError("a stream under \(policy)") }
      return .run(work)
    }
  }
  func react(_ body: @escaping @MainActor (AsyncDiffReads<AsyncPublicRuntime>) -> Void) {
    cogs.react("reaction") { c in
      body(AsyncDiffReads(read: { c[$0] }, status: { AsyncDiffStatus(c.status(of: $0)) }))
    }
  }
  func turn(_ writes: [(Cog<Int>, Int)]) {
    cogs.turn("turn") { w in for (n, v) in writes { w[n] = v } }
  }
  func read(_ n: Cog<Int>) -> Int { cogs[n] }
  func status(_ n: Cog<Int>) -> AsyncDiffStatus { AsyncDiffStatus(cogs.status(of: n)) }
  func uiRead(_ n: Cog<Int>) -> Int { cogs.ui[n] }
  func export(_ n: Cog<Int>) -> AsyncDiffExport {
    let e = cogs.export(n)
    return AsyncDiffExport(
      consume: { onValue in
        Task { @MainActor in
          await withTaskExecutorPreference(AsyncDiffExport.hops) {
            for await v in e { await onValue(v) }
          }
        }
      },
      cancel: { e.cancel() }, isCancelled: { e.isCancelled })
  }
}

/// The layout binding over the edge store `Edges`. Status reads and exports go to the core
/// as the public API's do (`Graph.readAsyncStatus`; an `ExportSink` over an `AsyncStream` with
/// a buffer of one, ended the same way: `CogExport`'s iterator returns nil for a cancelled
/// task and ends the subscription).
@MainActor
final class AsyncLayoutRuntime<Edges: EdgeStore>: AsyncDiffRuntime {
  static var name: String { "layout \(Edges.self)" }
  let cogs = LayoutCogs<Edges>()
  init() {}
  func source(_ label: String) -> LayoutCog<Int, Edges> { LayoutCog(0, label: label) }
  func statusRead(_ n: LayoutCog<Int, Edges>) -> AsyncDiffStatus {
    AsyncDiffStatus(cogs.graph.readAsyncStatus(n, .tracked))
  }
  func computed(
    _ label: String, _ body: @escaping @MainActor (AsyncDiffReads<AsyncLayoutRuntime>) -> Int
  ) -> LayoutCog<Int, Edges> {
    LayoutCog(label: label) { [unowned self] c -> Int in
      body(AsyncDiffReads(read: { c[$0] }, status: { self.statusRead($0) }))
    }
  }
  func async(
    _ label: String, _ policy: AsyncDiffPolicy,
    _ body: @escaping @MainActor (AsyncDiffReads<AsyncLayoutRuntime>) -> AsyncDiffWork
  ) -> LayoutCog<Int, Edges> {
    let core: AsyncPolicy
    switch policy {
    case .latest, .stream: core = .latest
    case .queue: core = .queue
    case .merged: core = .merged
    case .exhaustLatest: core = .exhaustLatest
    }
    return LayoutCog(async: core, initial: -1, label: label) { [unowned self] c in
      switch body(AsyncDiffReads(read: { c[$0] }, status: { self.statusRead($0) })) {
      case .run(let work): return .run(work)
      case .stream(let feed): return .following(feed) { $0 }
      }
    }
  }
  func react(_ body: @escaping @MainActor (AsyncDiffReads<AsyncLayoutRuntime>) -> Void) {
    cogs.react("reaction") { [unowned self] c in
      body(AsyncDiffReads(read: { c[$0] }, status: { self.statusRead($0) }))
    }
  }
  func turn(_ writes: [(LayoutCog<Int, Edges>, Int)]) {
    cogs.turn("turn") { w in for (n, v) in writes { w[n] = v } }
  }
  func read(_ n: LayoutCog<Int, Edges>) -> Int { cogs[n] }
  func status(_ n: LayoutCog<Int, Edges>) -> AsyncDiffStatus {
    AsyncDiffStatus(cogs.graph.readAsyncStatus(n, .tracked))
  }
  func uiRead(_ n: LayoutCog<Int, Edges>) -> Int { cogs.uiRead(n) }
  func export(_ n: LayoutCog<Int, Edges>) -> AsyncDiffExport {
    let graph = cogs.graph
    let (stream, continuation) = AsyncStream.makeStream(
      of: Int.self, bufferingPolicy: .bufferingNewest(1))
    let s = n.resolve(in: graph)
    let sink = ExportSink(
      row: graph.ref(s),
      offer: { base, index, _ in
        continuation.yield(ValueEntry<Int>.load(base, index))
        return true
      },
      finish: { continuation.finish() })
    graph.addExport(sink)
    let ended = LayoutExportState()
    // Weak, as `ExportRegistration` holds its context: the subscription must not keep the
    // graph alive once the runtime has gone.
    let end: @MainActor () -> Void = { [weak graph] in
      if ended.value { return }
      ended.value = true
      graph?.removeExport(sink)
      continuation.finish()
    }
    _ = graph.read(n, .tracked)
    graph.offer(s, to: sink)
    return AsyncDiffExport(
      consume: { onValue in
        Task { @MainActor in
          await withTaskExecutorPreference(AsyncDiffExport.hops) {
            var it = stream.makeAsyncIterator()
            while !Task.isCancelled, let v = await it.next() { await onValue(v) }
          }
          end()
        }
      },
      cancel: end, isCancelled: { ended.value })
  }
}

@MainActor
final class LayoutExportState {
  var value = false
}
