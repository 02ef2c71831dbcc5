import CogCore
import CogEdgePool
import CogInlineOverflow
import CogLayoutBinding
import CogPrefixArrays
import Testing

/// The edge-store contract (`EdgeStore`), checked the same way on every layout: a run's reads
/// become the row's dependency list in read order; a run that reads the same dependencies
/// again only confirms them; a changed run drops what it no longer reads and reports rows left
/// without subscribers; runs nest; subscribers are listed both ways. Each case ends with the
/// layout's own invariant check.
@MainActor
@Suite("Edge store conformance")
struct EdgeStoreConformanceTests {
  nonisolated static let layouts = EdgeLayout.all

  @Test("a run's reads become the dependency list, in order", arguments: layouts)
  func readsBecomeDependencies(layout: EdgeLayout) { layout.store.readsBecomeDependencies() }

  @Test("a steady run only confirms: same list, versions updated", arguments: layouts)
  func steadyRunConfirms(layout: EdgeLayout) { layout.store.steadyRunConfirms() }

  @Test("a changed run keeps its prefix, swaps in the rest, reports orphans", arguments: layouts)
  func changedRun(layout: EdgeLayout) { layout.store.changedRun() }

  @Test("a row read twice in a row is listed once", arguments: layouts)
  func repeatedRead(layout: EdgeLayout) { layout.store.repeatedRead() }

  @Test(
    "a run's first dependency read again between other reads is listed once", arguments: layouts)
  func firstDependencyAgain(layout: EdgeLayout) { layout.store.firstDependencyAgain() }

  @Test(
    "trackInline tracks a read the run has; when it does nothing it changes nothing",
    arguments: layouts)
  func inlineThenNew(layout: EdgeLayout) { layout.store.inlineThenNew() }

  @Test(
    "a run's previous row is one it read, or none; none when idle or just begun",
    arguments: layouts)
  func previousRow(layout: EdgeLayout) { layout.store.previousRow() }

  @Test("runs nest: an inner run's reads do not mix with the outer's", arguments: layouts)
  func nestedRuns(layout: EdgeLayout) { layout.store.nestedRuns() }

  @Test("removing every dependency unsubscribes the row everywhere", arguments: layouts)
  func removeAll(layout: EdgeLayout) { layout.store.removeAll() }

  @Test("many subscribers come and go without a scan going wrong", arguments: layouts)
  func subscriberChurn(layout: EdgeLayout) { layout.store.subscriberChurn() }

  @Test(
    "rows added one at a time past the reserve, then many at once, start with no edges",
    arguments: layouts)
  func rowsAdded(layout: EdgeLayout) { layout.store.rowsAdded() }
}

@MainActor
protocol EdgeStoreCase {
  static func readsBecomeDependencies()
  static func steadyRunConfirms()
  static func changedRun()
  static func repeatedRead()
  static func firstDependencyAgain()
  static func inlineThenNew()
  static func previousRow()
  static func nestedRuns()
  static func removeAll()
  static func subscriberChurn()
  static func rowsAdded()
}

/// The contract on store `E`, driven as the graph drives it.
@MainActor
enum StoreCase<E: EdgeStore>: EdgeStoreCase {
  /// Runs `reads` as one run of `sub`: each read confirms the candidate when it is that row,
  /// and tracks otherwise, as `Graph.read` does.
  static func run(
    _ store: inout E, _ sub: Int, reads: [(dep: Int, version: UInt32)],
    orphaned: inout OrphanQueue, inner: ((inout E, inout OrphanQueue) -> Void)? = nil
  ) {
    var run = store.beginRun(Slot(sub))
    for (i, r) in reads.enumerated() {
      if i == reads.count / 2, let inner { inner(&store, &orphaned) }
      if store.candidate(run) == Slot(r.dep) {
        store.confirm(&run, version: r.version)
      } else {
        store.track(Slot(r.dep), version: r.version, sub: Slot(sub), &run)
      }
    }
    store.endRun(run, sub: Slot(sub), orphaned: &orphaned)
  }

  static func deps(_ store: E, _ sub: Int) -> [Int] {
    var out: [Int] = []
    var p = store.firstDep(of: Slot(sub))
    while !p.isNone {
      out.append(Int(store.dep(of: Slot(sub), at: p).raw))
      p = store.nextDep(of: Slot(sub), after: p)
    }
    return out
  }

  static func versions(_ store: E, _ sub: Int) -> [UInt32] {
    var out: [UInt32] = []
    var p = store.firstDep(of: Slot(sub))
    while !p.isNone {
      out.append(store.version(of: Slot(sub), at: p))
      p = store.nextDep(of: Slot(sub), after: p)
    }
    return out
  }

  static func subs(_ store: E, _ dep: Int) -> Set<Int> {
    var out: Set<Int> = []
    var p = store.firstSub(of: Slot(dep))
    while !p.isNone {
      out.insert(Int(store.sub(of: Slot(dep), at: p).raw))
      p = store.nextSub(of: Slot(dep), after: p)
    }
    return out
  }

  static func hasNoEdges(_ store: E, _ row: Int) -> Bool {
    let noDeps = store.firstDep(of: Slot(row)).isNone
    let noSubs = store.firstSub(of: Slot(row)).isNone
    return noDeps && noSubs
  }

  static func make(rows: Int) -> E {
    var store = E(reservingRows: 4)
    store.ensureRows(rows)
    return store
  }

  static func check(_ store: E, rows: Int) {
    store.checkInvariants(rowCount: rows) { _ in false }
  }

  static func readsBecomeDependencies() {
    var store = make(rows: 10)
    var orphaned = OrphanQueue()
    run(&store, 9, reads: [(3, 1), (1, 2), (7, 3), (2, 4), (5, 5)], orphaned: &orphaned)
    #expect(deps(store, 9) == [3, 1, 7, 2, 5])
    #expect(versions(store, 9) == [1, 2, 3, 4, 5])
    for d in [3, 1, 7, 2, 5] { #expect(subs(store, d) == [9]) }
    #expect(store.liveEdgeCount == 5)
    #expect(orphaned.count == 0)
    check(store, rows: 10)
    store.free()
    orphaned.free()
  }

  static func steadyRunConfirms() {
    var store = make(rows: 10)
    var orphaned = OrphanQueue()
    let reads = [3, 1, 7, 2, 5, 6]
    run(&store, 9, reads: reads.map { ($0, 1) }, orphaned: &orphaned)
    var r = store.beginRun(Slot(9))
    for d in reads {
      #expect(store.candidate(r) == Slot(d))
      store.confirm(&r, version: 2)
    }
    #expect(store.candidate(r).isNone)
    store.endRun(r, sub: Slot(9), orphaned: &orphaned)
    #expect(deps(store, 9) == reads)
    #expect(versions(store, 9) == Array(repeating: 2, count: reads.count))
    #expect(orphaned.count == 0)
    check(store, rows: 10)
    store.free()
    orphaned.free()
  }

  static func changedRun() {
    var store = make(rows: 10)
    var orphaned = OrphanQueue()
    run(&store, 9, reads: [1, 2, 3, 4, 5].map { ($0, 1) }, orphaned: &orphaned)
    run(&store, 8, reads: [(4, 1)], orphaned: &orphaned)
    // Same prefix 1, 2; then 6 instead of 3; 4 again; 5 dropped.
    run(&store, 9, reads: [1, 2, 6, 4].map { ($0, 2) }, orphaned: &orphaned)
    #expect(deps(store, 9) == [1, 2, 6, 4])
    #expect(subs(store, 3).isEmpty && subs(store, 5).isEmpty)
    #expect(subs(store, 4) == [8, 9])
    // Rows that lost their last subscriber are reported (4 kept one: 8; it may be reported
    // while the run swaps, but must have a subscriber afterwards).
    let lost = Set((0..<orphaned.count).map { Int(orphaned[$0].raw) })
    #expect(lost.isSuperset(of: [3, 5]))
    for s in lost where s != 3 && s != 5 { #expect(store.hasSubscribers(Slot(s))) }
    #expect(store.liveEdgeCount == 5)
    check(store, rows: 10)
    store.free()
    orphaned.free()
  }

  /// kairo/unstable's shape: a source read before each read of a second row, which flips.
  static func firstDependencyAgain() {
    var store = make(rows: 10)
    var orphaned = OrphanQueue()
    let alternate = { (x: Int, v: UInt32) in (0..<20).flatMap { _ in [(1, v), (x, v)] } }
    run(&store, 9, reads: alternate(2, 1), orphaned: &orphaned)
    #expect(deps(store, 9) == [1, 2])
    #expect(store.liveEdgeCount == 2)
    // The flip: the first run after it diverges at the second read.
    run(&store, 9, reads: alternate(3, 2), orphaned: &orphaned)
    #expect(deps(store, 9) == [1, 3])
    #expect(versions(store, 9) == [2, 2])
    #expect(subs(store, 1) == [9] && subs(store, 3) == [9] && subs(store, 2).isEmpty)
    #expect(store.liveEdgeCount == 2)
    check(store, rows: 10)
    store.free()
    orphaned.free()
  }

  /// `Graph.readInBody` calls `trackInline` and, only when it says false, `trackNew`; so a
  /// false must leave the store and the run as they were. Runs that read rows again, drop
  /// some and read many new ones (past a store's first capacity) end as they do through
  /// `track`; every false leaves the run's candidate, previous row and edge count as they
  /// were; and a row just read is always tracked inline.
  static func inlineThenNew() {
    var plain = make(rows: 200)
    var probed = make(rows: 200)
    var orphaned = OrphanQueue()
    let many = Array(100..<190)
    let runs: [[Int]] = [
      [1, 2, 3], [1, 4, 1, 4, 4], [2, 2, 5, 2], many, [6, 1, 6, 1] + many, [1, 2, 3],
    ]
    var falses = 0
    for (k, reads) in runs.enumerated() {
      let v = UInt32(k + 1)
      run(&plain, 9, reads: reads.map { ($0, v) }, orphaned: &orphaned)
      var r = probed.beginRun(Slot(9))
      for dep in reads {
        if probed.candidate(r) == Slot(dep) {
          probed.confirm(&r, version: v)
        } else {
          let (candidate, previous) = (probed.candidate(r), probed.previous(r))
          let edges = probed.liveEdgeCount
          if !probed.trackInline(Slot(dep), version: v, sub: Slot(9), &r) {
            falses += 1
            #expect(probed.candidate(r) == candidate && probed.previous(r) == previous)
            #expect(probed.liveEdgeCount == edges)
            probed.trackNew(Slot(dep), version: v, sub: Slot(9), &r)
          }
        }
        #expect(probed.trackInline(Slot(dep), version: v, sub: Slot(9), &r))
      }
      probed.endRun(r, sub: Slot(9), orphaned: &orphaned)
      #expect(deps(probed, 9) == deps(plain, 9))
      #expect(versions(probed, 9) == versions(plain, 9))
      #expect(probed.liveEdgeCount == plain.liveEdgeCount)
      for d in [1, 2, 3, 4, 5, 6, 100, 150, 189] { #expect(subs(probed, d) == subs(plain, d)) }
    }
    // The pool says false for every new entry, an array store when `collected` is full.
    #expect(falses > 0)
    check(probed, rows: 200)
    plain.free()
    probed.free()
    orphaned.free()
  }

  static func repeatedRead() {
    var store = make(rows: 10)
    var orphaned = OrphanQueue()
    run(&store, 9, reads: [(1, 1), (1, 2), (2, 3), (2, 4)], orphaned: &orphaned)
    #expect(deps(store, 9) == [1, 2])
    #expect(versions(store, 9) == [2, 4])
    check(store, rows: 10)
    store.free()
    orphaned.free()
  }

  /// `previous` may serve a read without tracking it (`Graph.read`), so it must only name a
  /// row the run has already read: after each read of a steady, a changed and a repeating
  /// run, and with a nested run in between.
  static func previousRow() {
    var store = make(rows: 12)
    var orphaned = OrphanQueue()
    #expect(store.previous(store.idleRun).isNone)
    run(&store, 9, reads: [1, 2, 3].map { ($0, 1) }, orphaned: &orphaned)
    for reads in [[1, 2, 3], [1, 4, 1, 4, 4], [2, 2, 5, 2], [6, 6, 6]] {
      var r = store.beginRun(Slot(9))
      #expect(store.previous(r).isNone)
      var readSoFar: Set<Int32> = []
      for (i, d) in reads.enumerated() {
        if i == 1 { run(&store, 10, reads: [7, 7, 8].map { ($0, 1) }, orphaned: &orphaned) }
        if store.candidate(r) == Slot(d) {
          store.confirm(&r, version: 2)
        } else {
          store.track(Slot(d), version: 2, sub: Slot(9), &r)
        }
        readSoFar.insert(Int32(d))
        let p = store.previous(r)
        #expect(p.isNone || readSoFar.contains(p.raw), "previous \(p) after reads \(reads[...i])")
      }
      store.endRun(r, sub: Slot(9), orphaned: &orphaned)
      var unique: [Int] = []
      for d in reads where !unique.contains(d) { unique.append(d) }
      #expect(deps(store, 9) == unique)
    }
    check(store, rows: 12)
    store.free()
    orphaned.free()
  }

  static func nestedRuns() {
    var store = make(rows: 12)
    var orphaned = OrphanQueue()
    run(&store, 9, reads: [1, 2, 3].map { ($0, 1) }, orphaned: &orphaned)
    run(&store, 10, reads: [4, 5].map { ($0, 1) }, orphaned: &orphaned)
    // The outer run changes after its first read; an inner run of 10 changes too.
    run(
      &store, 9, reads: [1, 6, 7, 3].map { ($0, 2) }, orphaned: &orphaned,
      inner: { inner, orphans in
        run(&inner, 10, reads: [5, 8].map { ($0, 2) }, orphaned: &orphans)
      })
    #expect(deps(store, 9) == [1, 6, 7, 3])
    #expect(deps(store, 10) == [5, 8])
    #expect(subs(store, 2).isEmpty && subs(store, 4).isEmpty)
    check(store, rows: 12)
    store.free()
    orphaned.free()
  }

  static func removeAll() {
    var store = make(rows: 10)
    var orphaned = OrphanQueue()
    run(&store, 9, reads: [1, 2, 3].map { ($0, 1) }, orphaned: &orphaned)
    run(&store, 8, reads: [2].map { ($0, 1) }, orphaned: &orphaned)
    store.removeAllDeps(of: Slot(9), orphaned: &orphaned)
    #expect(deps(store, 9).isEmpty)
    #expect(subs(store, 2) == [8])
    #expect(!store.hasSubscribers(Slot(1)) && !store.hasSubscribers(Slot(3)))
    #expect(store.liveEdgeCount == 1)
    check(store, rows: 10)
    store.free()
    orphaned.free()
  }

  static func subscriberChurn() {
    let rows = 300
    var store = make(rows: rows)
    var orphaned = OrphanQueue()
    // 200 readers of rows 0 and 1; then every other reader drops row 0, then all re-read.
    for s in 100..<rows { run(&store, s, reads: [(0, 1), (1, 1)], orphaned: &orphaned) }
    for s in stride(from: 100, to: rows, by: 2) {
      run(&store, s, reads: [(1, 2)], orphaned: &orphaned)
    }
    #expect(subs(store, 0) == Set(stride(from: 101, to: rows, by: 2)))
    #expect(subs(store, 1) == Set(100..<rows))
    for s in 100..<rows { run(&store, s, reads: [(2, 3)], orphaned: &orphaned) }
    #expect(subs(store, 0).isEmpty && subs(store, 1).isEmpty)
    #expect(subs(store, 2) == Set(100..<rows))
    #expect(store.liveEdgeCount == rows - 100)
    check(store, rows: rows)
    store.free()
    orphaned.free()
  }

  /// A new row extends the store's per-row columns by one (the graph's `allocateRow`), past
  /// the reserved rows' capacity; a context made with many rows at once extends them by many.
  static func rowsAdded() {
    var store = E(reservingRows: 4)
    var orphaned = OrphanQueue()
    for n in 1...70 {
      store.ensureRows(n)
      store.ensureRows(n - 1)  // fewer rows than it has: nothing changes
      #expect(hasNoEdges(store, n - 1), "row \(n - 1)")
    }
    store.ensureRows(300)
    var allEmpty = true
    for r in 70..<300 where !hasNoEdges(store, r) { allEmpty = false }
    #expect(allEmpty)
    run(&store, 299, reads: [(0, 1), (69, 2), (70, 3), (298, 4)], orphaned: &orphaned)
    run(&store, 69, reads: [(3, 5)], orphaned: &orphaned)
    #expect(deps(store, 299) == [0, 69, 70, 298])
    #expect(deps(store, 69) == [3])
    #expect(subs(store, 69) == [299] && subs(store, 3) == [69])
    check(store, rows: 300)
    store.free()
    orphaned.free()
  }
}

/// Behaviour through the layout binding, the same on every layout: the public API's behaviour
/// tests pin the semantics on the default layouts; these check that other layouts keep them
/// on the shapes that stress their storage (wide reads, switching dependencies, lifetimes,
/// cycles).
@MainActor
@Suite("Layout behaviour")
struct LayoutBehaviourTests {
  nonisolated static let layouts = EdgeLayout.registered

  @Test("a body reading many rows, then fewer, then others", arguments: layouts)
  func wideAndSwitching(layout: EdgeLayout) { layout.behaviour.wideAndSwitching() }

  @Test(".whileObserved rows go with their last reader", arguments: layouts)
  func whileObserved(layout: EdgeLayout) { layout.behaviour.whileObserved() }

  @Test("a cycle closed and opened again", arguments: layouts)
  func cycle(layout: EdgeLayout) { layout.behaviour.cycle() }

  @Test("async states: .latest restarts and publishes, a stream follows", arguments: layouts)
  func async(layout: EdgeLayout) async { await layout.behaviour.async() }
}

@MainActor
protocol LayoutBehaviourCase {
  static func wideAndSwitching()
  static func whileObserved()
  static func cycle()
  static func async() async
}

@MainActor
enum BehaviourCase<E: EdgeStore>: LayoutBehaviourCase {
  /// The core's async rows through the binding (`LayoutCog+Async.swift`): a `.latest` state
  /// cancels its work on a change and publishes only the newest result, in a turn of its
  /// own; a stream's elements publish one by one and a restart stops the old sequence.
  static func async() async {
    let jobs = Jobs<Int>()
    let zip = LayoutCog<Int, E>(1, label: "zip")
    let forecast = LayoutCog<Int, E>(async: .latest, initial: 0, label: "forecast") { c in
      let job = jobs.start(c[zip])
      return .run { try await job.wait() * 10 }
    }
    let feeds = [Feed<Int>(name: 0), Feed<Int>(name: 1)]
    let live = LayoutCog<Int, E>(async: .latest, initial: -1, label: "live") { c in
      .following(feeds[c[zip] % 2].sequence) { $0 }
    }
    let cogs = LayoutCogs<E>()
    var seen: [Int] = []
    var streamed: [Int] = []
    cogs.react { c in seen.append(c[forecast]) }
    cogs.react { c in streamed.append(c[live]) }
    cogs.turn("zip") { w in w[zip] = 2 }
    await settle()
    #expect(jobs.inputs == [1, 2])
    #expect(jobs.all[0].wasCancelled && !jobs.all[1].wasCancelled)
    jobs.all[1].succeed(7)
    await settle()
    #expect(seen == [0, 70])
    feeds[0].send(5)
    await settle()
    #expect(streamed == [-1, 5])
    cogs.turn("zip") { w in w[zip] = 3 }
    await settle()
    feeds[1].send(9)
    await settle()
    #expect(streamed == [-1, 5, 9])
    #expect(feeds[0].wasCancelled)
  }

  static func wideAndSwitching() {
    let sources = (0..<20).map { LayoutCog<Int, E>($0, label: "s\($0)") }
    let mode = LayoutCog<Int, E>(0, label: "mode")
    let sum = LayoutCog<Int, E>(label: "sum") { c -> Int in
      switch c[mode] {
      case 0: return sources.reduce(0) { $0 + c[$1] }
      case 1: return sources[0..<3].reduce(0) { $0 + c[$1] }
      default: return sources[10..<20].reduce(0) { $0 + c[$1] }
      }
    }
    let cogs = LayoutCogs<E>()
    var seen: [Int] = []
    cogs.react { c in seen.append(c[sum]) }
    cogs.turn("three") { w in w[mode] = 1 }
    cogs.turn("s5 is not read now") { w in w[sources[5]] = 100 }
    cogs.turn("others") { w in w[mode] = 2 }
    cogs.turn("s15") { w in w[sources[15]] = 1000 }
    cogs.turn("all") { w in w[mode] = 0 }
    #expect(seen == [190, 3, 145, 1130, 190 - 5 + 100 - 15 + 1000])
  }

  static func whileObserved() {
    let s = LayoutCog<Int, E>(1, label: "s")
    let inner = LayoutCog<Int, E>(label: "inner", lifetime: .whileObserved) { c in c[s] * 2 }
    let on = LayoutCog<Bool, E>(true, label: "on")
    let outer = LayoutCog<Int, E>(label: "outer") { c in c[on] ? c[inner] : -1 }
    let cogs = LayoutCogs<E>()
    #expect(cogs[outer] == 2)
    #expect(cogs.hasRow(inner))
    cogs.turn("off") { w in w[on] = false }
    #expect(cogs[outer] == -1)
    #expect(!cogs.hasRow(inner))
    cogs.turn("on") { w in w[on] = true }
    #expect(cogs[outer] == 2)
  }

  static func cycle() {
    let close = LayoutCog<Bool, E>(false, label: "close")
    let seed = LayoutCog<Int, E>(1, label: "seed")
    let late = Late<LayoutCog<Int, E>>()
    let a = LayoutCog<Int, E>(label: "a") { c in c[close] ? c[late.value] + 1 : c[seed] }
    let b = LayoutCog<Int, E>(label: "b") { c in c[a] * 10 }
    late.value = b
    let cogs = LayoutCogs<E>()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var seen: [Int] = []
    cogs.react { c in seen.append(c[b]) }
    cogs.turn("close") { w in w[close] = true }
    #expect(errors == [.cycle(states: ["b", "a"])])
    #expect(throws: CogError.self) { try cogs.read(b) }
    cogs.turn("open") { w in
      w[close] = false
      w[seed] = 3
    }
    #expect(seen == [10, 30])
  }
}
