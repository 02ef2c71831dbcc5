import Observation

// Observation boundaries (seed 000 §6, §9.4: registrar counts, notices for pinned keyed
// states, the cost of a turn with N boundaries), on the systems that connect to Observation
// (`.uiReads`: Cog's boundaries, raw `@Observable`). A *view* here is what SwiftUI does with
// a body: it renders under `withObservationTracking`, and an `onChange` invalidates it; the
// case re-renders invalidated views after each turn, as SwiftUI would on its next frame.
//
// Every check states which views must be told: exactly those whose value changed, once.

extension CogCases {
  @inlinable @MainActor
  public static func visitBoundaryCases<V: CaseVisitor>(_ v: inout V) {
    v.visit(CogBoundaryRegistrars())
    v.visitKeyed(CogBoundaryKeyedNotices())
    for n in CogBoundaryTurn.sizes { v.visit(CogBoundaryTurn(boundaries: n)) }
  }
}

/// A view over one UI-read value: its last rendered value and its invalidations.
@MainActor @usableFromInline
final class CaseView {
  @usableFromInline let body: @MainActor () -> Int
  @usableFromInline var shown = 0
  @usableFromInline let notices = CaseNotices()
  /// Notices already handled by a render.
  @usableFromInline var seen = 0

  @inlinable init(_ body: @escaping @MainActor () -> Int) {
    self.body = body
    render()
  }

  @inlinable func render() {
    let counter = notices
    shown = withObservationTracking {
      body()
    } onChange: {
      counter.count &+= 1
    }
    seen = notices.count
  }

  /// Notices since the last render.
  @inlinable var pending: Int { notices.count - seen }
}

/// Counts `onChange` calls: Observation types the handler `@Sendable`; it runs synchronously
/// inside the notifying mutation, on the main actor in these cases.
@usableFromInline
final class CaseNotices: @unchecked Sendable {
  @usableFromInline @exclusivity(unchecked) var count = 0
  @inlinable init() {}
}

/// Renders every invalidated view and checks that exactly the views whose value changed were
/// told, once each. Returns how many were told.
@inlinable @MainActor
func settleViews(
  _ views: [CaseView], expected: (Int) -> Int, _ checks: CaseChecks, _ id: String
) -> Int {
  var told = 0
  for i in 0..<views.count {
    let view = views[i]
    let before = view.shown
    let now = expected(i)
    let pending = view.pending
    checks.expect(
      pending == (now != before ? 1 : 0),
      "\(id): view \(i) was told \(pending)× while its value went \(before) → \(now)")
    if pending > 0 {
      told += 1
      view.render()
      checks.expect(
        view.shown == now, "\(id): view \(i) rendered \(view.shown), expected \(now)")
    }
  }
  return told
}

/// The registrar count of a 1,000-state graph with 12 UI-read values (seed 000 §6: "a graph
/// with 1,000 states but 12 UI-read values owns 12 registrars"): the graph of
/// `cog/peak-memory-1000` (100 signals, 9 rows of 100 computeds, node x of a row summing
/// nodes x and x+1 of the row before), 12 views on the last row's nodes 0, 8, …, 88. Each
/// iteration writes one source; leaf x changes iff the source is one of x … x+9 (mod 100).
/// Cog owns 12 registrars (one per boundary); raw `@Observable` one per model object (100).
public struct CogBoundaryRegistrars: BenchmarkCase {
  public init() {}
  public var id: String { "cog/boundary-registrars-1000" }
  public var summary: String {
    "registrars of a 1,000-state graph with 12 UI-read values (Cog: 12), one write per turn"
  }
  public var requirements: SystemCapabilities { .uiReads }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let width = 100
    let rows = 9
    let counts = RunCounter()
    let (sources, leaves) = s.withBuild { () -> ([SignalHandle<Int>], [ComputedHandle<Int>]) in
      let sources = (0..<width).map { s.signal($0) }
      var row = peakMemoryRow(s, sources, counts)
      for _ in 1..<rows { row = peakMemoryRow(s, row, counts) }
      return (sources, row)
    }
    let shown = (0..<12).map { $0 * 8 }
    let views = shown.map { x in CaseView { s.uiRead(leaves[x]) } }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let expectedRegistrars = memoized ? 12 : width
    if let r = system.registrarCount {
      checks.expect(
        r == expectedRegistrars,
        "\(id): \(r) registrars, expected \(expectedRegistrars) (12 UI-read values)")
    }
    let values = CaseState((0..<width).map { $0 })
    let tick = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 100 : 10) {
      tick.value += 1
      let j = (tick.value * 7) % width
      values.value[j] += width
      let v = values.value[j]
      s.withBatch { s.write(sources[j], v) }
      // Leaf x = Σ_{d=0}^{9} C(9, d) · source[x + d]: it changed iff j − x (mod 100) < 10.
      let current = values.value
      let told = settleViews(
        views,
        expected: { i in
          var t = 0
          var binomial = 1
          for d in 0...rows {
            t += binomial * current[(shown[i] + d) % width]
            binomial = binomial * (rows - d) / (d + 1)
          }
          return t
        }, checks, "cog/boundary-registrars-1000")
      let changed = shown.filter { x in (j - x + width) % width < rows + 1 }.count
      checks.expect(
        told == changed, "cog/boundary-registrars-1000: \(told) views told, expected \(changed)")
      if let r = system.registrarCount {
        checks.expect(
          r == expectedRegistrars,
          "cog/boundary-registrars-1000: \(r) registrars, expected \(expectedRegistrars)")
      }
    }
  }
}

/// Notices for pinned keyed states: a box `item[k] = 1000 · source[k % 10] + k` over N keys,
/// every key on screen (a view each, so every key's state is pinned by its boundary). Each
/// iteration writes one of the 10 sources: the N/10 keys that read it are told, once each,
/// the others not at all; a second turn writes the same value again and tells nobody.
public struct CogBoundaryKeyedNotices: KeyedBenchmarkCase {
  public init() {}
  public var id: String { "cog/boundary-keyed-notices" }
  public var summary: String {
    "notices for pinned keyed states: 1000 keys on screen, a write reaches 100 of them"
  }
  public var requirements: SystemCapabilities { .uiReads }

  @inlinable
  public func prepare<S: KeyedReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let keys = size == .full ? 1000 : 200
    let groups = 10
    let (sources, item) = s.withBuild { () -> ([SignalHandle<Int>], KeyedHandle<Int, Int>) in
      let sources = (0..<groups).map { _ in s.signal(0) }
      let item = s.box { (k: Int) -> Int in 1000 * s.read(sources[k % groups]) + k }
      return (sources, item)
    }
    // A list row's body reads its keyed state: Cog pins the key's row with a boundary.
    let keyViews = (0..<keys).map { k in CaseView { s.uiRead(item, key: k) } }
    if let r = system.registrarCount, S.capabilities.contains(.memoizedComputeds) {
      checks.expect(r == keys, "\(id): \(r) registrars, expected \(keys)")
    }
    let values = CaseState([Int](repeating: 0, count: groups))
    let tick = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 20 : 5) {
      tick.value += 1
      let g = tick.value % groups
      values.value[g] = tick.value
      let v = tick.value
      s.withBatch { s.write(sources[g], v) }
      let current = values.value
      let told = settleViews(
        keyViews, expected: { k in 1000 * current[k % groups] + k }, checks,
        "cog/boundary-keyed-notices")
      checks.expect(
        told == keys / groups,
        "cog/boundary-keyed-notices: \(told) keys told, expected \(keys / groups)")
      // The same value again: nobody is told.
      s.withBatch { s.write(sources[g], v) }
      let again = keyViews.reduce(0) { $0 + $1.pending }
      checks.expect(
        again == 0, "cog/boundary-keyed-notices: \(again) notices for an equal write, expected 0")
    }
  }
}

/// The cost of a turn with N boundaries that all change: N views each show `head + i`
/// (a computed per view); each iteration writes `head` (every view is told once and renders
/// again), then writes `other`, which no view reads (nobody is told). Raw `@Observable` does
/// the same with one model per source: N observers of `head`'s registrar.
public struct CogBoundaryTurn: BenchmarkCase {
  public static let sizes = [12, 100, 1000]
  public let boundaries: Int
  public init(boundaries: Int) { self.boundaries = boundaries }
  public var id: String { "cog/boundary-turn-\(boundaries)" }
  public var summary: String {
    "a turn that changes \(boundaries) UI-read values (every view told once), then one no view reads"
  }
  public var requirements: SystemCapabilities { .uiReads }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let n = boundaries
    let id = self.id
    let (head, other, shown) = s.withBuild {
      () -> (SignalHandle<Int>, SignalHandle<Int>, [ComputedHandle<Int>]) in
      let head = s.signal(0)
      let other = s.signal(0)
      let shown = (0..<n).map { i in s.computed { s.read(head) + i } }
      return (head, other, shown)
    }
    let views = (0..<n).map { i in CaseView { s.uiRead(shown[i]) } }
    if let r = system.registrarCount, S.capabilities.contains(.memoizedComputeds) {
      checks.expect(r == n, "\(id): \(r) registrars, expected \(n)")
    }
    let tick = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 100 : 10) {
      tick.value += 1
      let v = tick.value
      s.withBatch { s.write(head, v) }
      let told = settleViews(views, expected: { i in v + i }, checks, id)
      checks.expect(told == n, "\(id): \(told) views told, expected \(n)")
      s.withBatch { s.write(other, v) }
      let stray = views.reduce(0) { $0 + $1.pending }
      checks.expect(stray == 0, "\(id): \(stray) notices for a value no view reads, expected 0")
    }
  }
}
