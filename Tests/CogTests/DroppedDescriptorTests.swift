import CCogStack
import CogCore
import Foundation
import Testing

@_spi(Testing) @testable import Cog

/// Descriptor lifetime (issue 23): ARC owns descriptors, the context owns rows, and a
/// descriptor the app dropped takes its rows with it at the next sweep; dropping a long
/// chain of descriptors never recurses.
@MainActor
@Suite("Dropped descriptors")
struct DroppedDescriptorTests {
  @Test("100,000 dropped temporary automatic cogs leave no rows after releaseDropped()")
  func droppedTemporariesLeaveNoRows() {
    let source = Cog(1, label: "source")
    let cogs = Cogs()
    #expect(cogs[source] == 1)
    let before = cogs.liveRowCount
    for i in 0..<100_000 {
      let temporary = Cog { c in c[source] &+ i }
      #expect(cogs[temporary] == 1 &+ i)
    }
    #expect(cogs.liveRowCount == before + 100_000)
    cogs.turn("after") { w in w[source] = 2 }
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == before)
    #expect(cogs.registeredOwnerCount == 1)  // source
    #expect(cogs[source] == 2)
  }

  @Test("100,000 dropped temporaries leave no rows after the next flush, with no call")
  func droppedTemporariesGoAtTheNextFlush() {
    let source = Cog(1, label: "source")
    let cogs = Cogs()
    #expect(cogs[source] == 1)
    let before = cogs.liveRowCount
    for i in 0..<100_000 {
      let temporary = Cog { c in c[source] &+ i }
      #expect(cogs[temporary] == 1 &+ i)
    }
    #expect(cogs.liveRowCount == before + 100_000)
    cogs.turn("after") { w in w[source] = 2 }
    #expect(cogs.liveRowCount == before)
    #expect(cogs.registeredOwnerCount == 1)  // source
    #expect(cogs[source] == 2)
  }

  @Test("a flush sweeps only once a quarter of the owners are new; off, only releaseDropped")
  func automaticSweepIsAmortized() {
    let source = Cog(1, label: "source")
    let kept = (0..<100).map { i in Cog { c in c[source] &+ i } }
    let cogs = Cogs()
    for k in kept { _ = cogs[k] }
    cogs.turn("first") { w in w[source] = 2 }  // 101 new owners: a sweep, nothing dropped
    do {
      let few = (0..<10).map { i in Cog { c in c[source] &- i } }
      for f in few { _ = cogs[f] }
    }
    cogs.turn("few") { w in w[source] = 3 }  // 10 new of 111: not due
    #expect(cogs.liveRowCount == 1 + 100 + 10)
    cogs.sweepsDroppedAfterFlush = false
    do {
      let many = (0..<200).map { i in Cog { c in c[source] &* i } }
      for m in many { _ = cogs[m] }
    }
    cogs.turn("many, off") { w in w[source] = 4 }
    #expect(cogs.liveRowCount == 1 + 100 + 210)
    cogs.sweepsDroppedAfterFlush = true
    cogs.turn("many, on") { w in w[source] = 5 }  // 210 new of 311: due
    #expect(cogs.liveRowCount == 1 + 100)
    #expect(kept.allSatisfy { cogs[$0] > 0 })
  }

  @Test("dropped manual cogs and keyed boxes go too; what the app still names stays")
  func droppedManualAndKeyed() {
    let kept = Cog(5, label: "kept")
    let cogs = Cogs()
    var temporaries: [Cog<Int>] = (0..<1_000).map { Cog($0) }
    var box: CogBox<Int, Int>? = CogBox { (k: Int, c) in c[kept] + k }
    cogs.turn("write") { w in
      for t in temporaries { w[t] = 7 }
      w[kept] = 6
    }
    for k in 0..<100 { #expect(cogs[box![k]] == 6 + k) }
    let keyedRef = box![3]
    #expect(cogs.liveRowCount == 1 + 1_000 + 100)
    temporaries.removeAll()
    box = nil
    cogs.releaseDropped()
    // `keyedRef` names its box, so the box and its rows stay.
    #expect(cogs.liveRowCount == 1 + 100)
    #expect(cogs[keyedRef] == 9)
    _ = consume keyedRef
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 1)
    #expect(cogs[kept] == 6)
  }

  @Test("a plain manual cog's row does not hold it: the cog goes with the app's last reference")
  func plainManualIsNotHeld() {
    let cogs = Cogs()
    let other = Cogs()
    weak var gone: Cog<Int>?
    do {
      let plain = Cog(3)
      gone = plain
      #expect(cogs[plain] == 3 && other[plain] == 3)
      cogs.turn("write") { w in w[plain] = 4 }
      #expect(cogs[plain] == 4)
    }
    // No row holds it: the descriptor went with the app's last reference, rows still here.
    #expect(gone == nil)
    #expect(cogs.liveRowCount == 1 && other.liveRowCount == 1)
    cogs.releaseDropped()
    other.releaseDropped()
    #expect(cogs.liveRowCount == 0 && other.liveRowCount == 0)
    #expect(cogs.registeredOwnerCount == 0 && other.registeredOwnerCount == 0)
    // A labeled one (and one with its own equality) goes too; its row keeps its details
    // (the label, the equality), and is named by them until the sweep.
    weak var labeledGone: Cog<Int>?
    weak var equalityGone: Cog<Int>?
    weak var labeledDetails: KeylessDetails?
    do {
      let labeled = Cog(1, label: "labeled")
      let own = Cog(1, equals: { $0 == $1 })
      labeledGone = labeled
      equalityGone = own
      labeledDetails = labeled.state.details
      #expect(cogs[labeled] == 1 && cogs[own] == 1)
    }
    #expect(labeledGone == nil && equalityGone == nil && labeledDetails != nil)
    #expect(cogs.inspect().nodes.contains { $0.label == "labeled" })
    cogs.releaseDropped()
    #expect(labeledDetails == nil)
    #expect(cogs.liveRowCount == 0)
  }

  @Test("plain manual cogs dropped on another thread go from every context at its sweep")
  func plainManualDroppedElsewhere() async {
    let cogs = Cogs()
    let other = Cogs()
    let kept = Cog(9)
    let holder = Holder((0..<10_000).map { Cog($0) })
    for (i, p) in holder.cogs.enumerated() { #expect(cogs[p] == i && other[p] == i) }
    _ = cogs[kept]
    // The last references go on another thread: the descriptors' `deinit`s run there.
    await Task.detached { holder.cogs.removeAll() }.value
    #expect(cogs.liveRowCount == 10_001 && other.liveRowCount == 10_000)
    cogs.releaseDropped()
    other.releaseDropped()
    #expect(cogs.liveRowCount == 1 && other.liveRowCount == 0)
    #expect(cogs[kept] == 9)
  }

  @Test("automatic cogs dropped on another thread go from every context at its sweep")
  func automaticDroppedElsewhere() async {
    let source = Cog(1)
    let cogs = Cogs()
    let other = Cogs()
    let holder = Holder(
      (0..<10_000).map { i in
        i % 2 == 0
          ? Cog { c in c[source] &+ i } : Cog(label: "labeled \(i)") { c in c[source] &+ i }
      })
    weak var first = holder.cogs[0].state.details
    weak var last = holder.cogs[9_999].state.details
    for (i, p) in holder.cogs.enumerated() { #expect(cogs[p] == 1 &+ i && other[p] == 1 &+ i) }
    // The last references go on another thread: the descriptors' `deinit`s run there and
    // hand their details to the main thread.
    await Task.detached { holder.cogs.removeAll() }.value
    #expect(first != nil && last != nil)
    #expect(cogs.liveRowCount == 10_001 && other.liveRowCount == 10_001)
    // Rows of a dropped cog still run its details when read through a dependency's refresh
    // (none here), and are named by them.
    #expect(cogs.inspect().nodes.contains { $0.label == "labeled 9999" })
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 1 && other.liveRowCount == 10_001)
    #expect(first != nil)  // `other`'s rows still hold them
    other.turn("write") { w in w[source] = 2 }
    other.releaseDropped()
    #expect(other.liveRowCount == 1)
    #expect(first == nil && last == nil)
    #expect(cogs[source] == 1 && other[source] == 2)
  }

  @Test("a .whileObserved cog dropped after its row went frees its details with it")
  func droppedAfterItsRowWent() {
    let source = Cog(1)
    let cogs = Cogs()
    _ = cogs[source]
    weak var details: KeylessDetails?
    var cog: Cog<Int>? = Cog(lifetime: .whileObserved) { c in c[source] + 1 }
    details = cog!.state.details
    let reaction = cogs.react { [cog] c in _ = c[cog!] }
    #expect(cogs.liveRowCount == 3)
    reaction.cancel()
    #expect(cogs.liveRowCount == 1)  // the unobserved row went, and gave its hold back
    cog = nil
    // No row held them: no sweep, flush or context end is needed.
    #expect(details == nil)
  }

  @Test("a descriptor that went with no graph alive gives back its own parked reference only")
  func parkedWithNoGraphAliveTakesBackItsOwn() {
    // `other` stands for details parked by another thread for rows of a graph made after
    // this descriptor's `deinit` saw none alive: they are its rows' to give back.
    weak var other: KeylessDetails?
    weak var mine: KeylessDetails?
    var otherParked: Unmanaged<KeylessDetails>
    do {
      let o = KeylessDetails.manual(label: "other", equalityKeeper: nil)
      let m = KeylessDetails.manual(label: "mine", equalityKeeper: nil)
      other = o
      mine = m
      KeylessDetails.holdRow(Unmanaged.passUnretained(o))
      otherParked = Unmanaged.passRetained(o)
      _ = cog_park_details(otherParked.toOpaque())
      let mineParked = Unmanaged.passRetained(m)
      _ = cog_park_details(mineParked.toOpaque())
      KeylessDetails.takeBackParked(mineParked)
    }
    #expect(mine == nil)
    #expect(other != nil)
    // Clean up: `other` is still parked, or a graph's sweep (another test's) orphaned it.
    if cog_unpark_details(otherParked.toOpaque()) != 0 { otherParked.release() }
    if other != nil { KeylessDetails.releaseRow(otherParked) }
    #expect(other == nil)
  }

  @Test("a cog dropped on another thread once no context is left frees its details there")
  func automaticDroppedAfterTheContexts() async {
    let source = Cog(1)
    let holder = Holder([Cog { c in c[source] + 1 }])
    weak var details = holder.cogs[0].state.details
    do {
      let cogs = Cogs()
      #expect(cogs[holder.cogs[0]] == 2)
    }
    #expect(details != nil)
    await Task.detached { holder.cogs.removeAll() }.value
    #expect(details == nil)
  }

  @Test("a context that ends after a cog was dropped on another thread frees its details")
  func contextEndsAfterADropElsewhere() async {
    let source = Cog(1)
    let holder = Holder([Cog { c in c[source] + 1 }])
    weak var details = holder.cogs[0].state.details
    var cogs: Cogs? = Cogs()
    #expect(cogs![holder.cogs[0]] == 2)
    // Parked: a context is alive, so the main thread takes them back.
    await Task.detached { holder.cogs.removeAll() }.value
    #expect(details != nil)
    cogs = nil
    #expect(details == nil)
    _ = cogs
  }

  /// Cogs handed to another thread, which drops them.
  final class Holder: @unchecked Sendable {
    // Safety: the test touches `cogs` on one thread at a time (before and inside the task).
    var cogs: [Cog<Int>]
    init(_ cogs: [Cog<Int>]) { self.cogs = cogs }
  }

  @Test("a plain manual row is named as its cog is, while it lives and after it is dropped")
  func plainManualNames() {
    let cogs = Cogs()
    var plain: Cog<Int>? = Cog(2)
    let label = plain!.label
    #expect(label.hasPrefix("Cog<Int>#"))
    let reader = Cog(label: "reader") { c in c[plain!] + 1 }
    #expect(cogs[reader] == 3)
    #expect(cogs.inspect().nodes.map(\.label).sorted() == [label, "reader"])
    plain = nil  // dropped; its row stays while `reader`'s last run read it
    #expect(cogs.inspect().nodes.map(\.label).sorted() == [label, "reader"])
  }

  @Test("a temporary plain manual cog stays while a body reads it, and goes once it reruns")
  func plainManualWhileSubscribed() {
    let base = Cog(1, label: "base")
    let reader = Cog(label: "reader") { c -> Int in
      let temporary = Cog(10)
      return c[temporary] * c[base]
    }
    let cogs = Cogs()
    #expect(cogs[reader] == 10)
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 3)  // its row is read by `reader`'s last run
    for n in 2...50 {
      cogs.turn("base") { w in w[base] = n }
      #expect(cogs[reader] == n * 10)
    }
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 3)  // base, reader and the temporary its last run read
  }

  @Test("a temporary read by a body stays while that body keeps it, and goes once it reruns")
  func droppedWhileSubscribed() {
    let base = Cog(1, label: "base")
    let reader = Cog(label: "reader") { c -> Int in
      let temporary = Cog(label: "temporary") { c in c[base] * 10 }
      return c[temporary]
    }
    let cogs = Cogs()
    #expect(cogs[reader] == 10)
    cogs.releaseDropped()
    // The temporary is dropped, but `reader`'s row depends on its row: it stays.
    #expect(cogs.liveRowCount == 3)
    for n in 2...50 {
      cogs.turn("base") { w in w[base] = n }
      #expect(cogs[reader] == n * 10)
    }
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 3)  // base, reader and the temporary its last run read
  }

  @Test("a dropped async cog's work is cancelled and its rows go")
  func droppedAsync() async {
    let n = Cog(1)
    let jobs = Jobs<Int?>()
    var asyncCog: Cog<Int?>? = Cog<Int?>.Async(.latest) { c in
      let x = c[n]
      return .run { try await jobs.start(x).wait() }
    }
    let cogs = Cogs()
    _ = cogs[n]
    #expect(cogs[asyncCog!] == nil)
    await settle()
    #expect(jobs.count == 1)
    asyncCog = nil
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 1)
    await settle()
    #expect(jobs[0].wasCancelled)
  }

  @Test("a dropped .whileObserved cog's record goes with it")
  func droppedWhileObservedRecord() {
    let source = Cog(1)
    let cogs = Cogs()
    _ = cogs[source]
    for _ in 0..<100 {
      let t = Cog(lifetime: .whileObserved) { c in c[source] + 1 }
      _ = cogs[t]
    }
    cogs.releaseDropped()
    #expect(cogs.registeredOwnerCount == 1)
  }

  @Test("a descriptor used in two contexts is released from both once dropped")
  func droppedInTwoContexts() {
    let source = Cog(1)
    let a = Cogs()
    let b = Cogs()
    var shared: Cog<Int>? = Cog { c in c[source] + 1 }
    #expect(a[shared!] == 2 && b[shared!] == 2)
    shared = nil
    a.releaseDropped()
    b.releaseDropped()
    #expect(a.liveRowCount == 1 && b.liveRowCount == 1)
  }

  // MARK: Deep chains

  /// Deep enough to overflow the stack with recursive releases (about 50,000 fit the main
  /// thread's), shallow enough for a debug build; `ReleaseBuildTests` drops 10⁶-deep chains
  /// the same four ways in a release build.
  nonisolated static let chainDepth = 200_000

  /// A chain of automatic cogs, each reading the previous one; the returned cog is its head.
  nonisolated static func chain(_ depth: Int) -> Cog<Int> {
    var p = Cog(1, label: "root")
    for _ in 0..<depth {
      let q = p
      p = Cog { c in c[q] &+ 1 }
    }
    return p
  }

  @Test("a 10⁶-deep chain dropped with no context ends cleanly")
  func chainNoContext() {
    var head: Cog<Int>? = Self.chain(1_000_000)
    #expect(head != nil)
    head = nil
  }

  @Test("a 200,000-deep chain read in a live context, then dropped, goes at the next sweep")
  func chainThenSweep() {
    let cogs = Cogs()
    var head: Cog<Int>? = Self.chain(Self.chainDepth)
    #expect(cogs[head!] == Self.chainDepth + 1)
    head = nil
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 0)
  }

  @Test(
    "a sweep that orphans dropped .cache and .whileObserved rows releases them and their descriptors in the same pass"
  )
  func sweepReleasesManagedRowsItOrphans() {
    // Found by the differential test: a dropped reader's release orphans a `.whileObserved`
    // row, whose release orphans a dropped `.cache` row (it was cached, not released) and
    // leaves the dropped `.whileObserved` descriptor held with no row.
    final class Table { var cached: Cog<Int>?, observed: Cog<Int>?, reader: Cog<Int>? }
    let source = Cog(1, label: "source")
    let t = Table()
    t.cached = Cog(label: "cached", lifetime: .cache(limit: 3, retention: .seconds(3600))) { c in
      c[source] + 1
    }
    t.observed = Cog(label: "observed", lifetime: .whileObserved) { c in c[t.cached!] + 1 }
    t.reader = Cog(label: "reader") { c in c[t.observed!] + 1 }
    let cogs = Cogs()
    #expect(cogs[t.reader!] == 4)
    #expect(cogs.liveRowCount == 4)
    t.cached = nil
    t.observed = nil
    t.reader = nil
    cogs.releaseDropped()
    #expect(cogs.liveRowCount == 1)
    #expect(cogs.registeredOwnerCount == 1)  // source
  }

  @Test("a 200,000-deep chain read in a context: context dropped first, then the chain")
  func contextFirst() {
    var head: Cog<Int>? = Self.chain(Self.chainDepth)
    do {
      let cogs = Cogs()
      #expect(cogs[head!] == Self.chainDepth + 1)
    }
    head = nil
  }

  @Test("a 200,000-deep chain read in a context: chain dropped first, then the context")
  func chainFirst() {
    var cogs: Cogs? = Cogs()
    var head: Cog<Int>? = Self.chain(Self.chainDepth)
    #expect(cogs![head!] == Self.chainDepth + 1)
    head = nil
    cogs = nil
  }

  @Test("a 10⁶-deep chain dropped on a thread with a 512 KiB stack ends cleanly")
  func chainOnSmallStack() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        var head: Cog<Int>? = Self.chain(1_000_000)
        #expect(head != nil)
        head = nil
        done.resume()
      }
      thread.stackSize = 512 * 1024
      thread.start()
    }
  }
}
