@_spi(Testing) import Cog
import CogCore
import Testing

/// Registration handles (seed 000 §5): copies share one cancellation, safe to cancel more than
/// once, and cancelling frees what the registration held.
@MainActor
@Suite("Registration handles")
struct RegistrationTests {
  @Test("copies of a handle share one cancellation, safe to cancel more than once")
  func copiesShareCancellation() {
    let a = Cog(0)
    let cogs = Cogs()
    var runs = 0
    let reaction = cogs.react("count") { c in
      _ = c[a]
      runs += 1
    }
    let copy = reaction
    copy.cancel()
    #expect(reaction.isCancelled)
    reaction.cancel()
    copy.cancel()
    cogs.turn("a") { w in w[a] = 1 }
    #expect(runs == 1)

    let box = CogBox(lifetime: .whileObserved) { (k: Int, _) in k }
    let lease = cogs.lease(box[1])
    let leaseCopy = lease
    #expect(cogs.hasRow(box[1]))
    lease.end()
    leaseCopy.end()
    lease.end()
    #expect(leaseCopy.isEnded)
    #expect(!cogs.hasRow(box[1]))
  }

  @Test("10,000 register/cancel pairs leave nothing behind")
  func churnFreesEverything() {
    let a = Cog(1)
    let box = CogBox(lifetime: .whileObserved) { (k: Int, c) in c[a] + k }
    let cogs = Cogs()
    _ = cogs[a]
    _ = cogs[box[-1]]  // registers the box's per-context record (kept, like every descriptor's)
    let rows = cogs.liveRowCount
    let owners = cogs.registeredOwnerCount
    let registrations = Cogs.liveRegistrationCount
    var table = 0
    for i in 0..<10_000 {
      let r = cogs.react("churn") { c in _ = c[box[i % 3]] }
      let lease = cogs.lease(box[i % 5])
      let export = cogs.export(box[i % 7])
      r.cancel()
      lease.end()
      export.cancel()
      r.cancel()
      export.cancel()
      if i == 10 { table = cogs.rowTableCount }
    }
    #expect(cogs.liveRowCount == rows)
    #expect(cogs.registeredOwnerCount == owners)
    #expect(cogs.watcherCount == 0)
    // Freed slots are reused: the table stopped growing after the first rounds.
    #expect(cogs.rowTableCount == table)
    #expect(Cogs.liveRegistrationCount == registrations)
  }

  @Test("cancelling frees the body at once, even while copies of the handle are kept")
  func cancelFreesTheBody() {
    let a = Cog(0)
    let cogs = Cogs()
    let live = LiveCount()
    var handles: [CogReaction] = []
    var runs = 0
    do {
      let token = Token(live)
      handles.append(
        cogs.react("holds") { c in
          _ = c[a]
          _ = token
          runs += 1
        })
    }
    handles.append(handles[0])
    #expect(live.count == 1 && runs == 1)
    handles[1].cancel()
    #expect(live.count == 0)
    #expect(handles[0].isCancelled && handles[1].isCancelled)
    cogs.turn("a") { w in w[a] = 1 }
    #expect(runs == 1)
  }

  @Test("the end of the context frees its reactions' bodies; their handles stay harmless")
  func contextEndFreesReactions() {
    let a = Cog(0)
    let live = LiveCount()
    let registrations = Cogs.liveRegistrationCount
    var handle: CogReaction?
    do {
      let cogs = Cogs()
      let token = Token(live)
      handle = cogs.react("kept") { c in
        _ = c[a]
        _ = token
      }
      #expect(handle?.isCancelled == false)
    }
    #expect(live.count == 0)
    #expect(Cogs.liveRegistrationCount == registrations)
    #expect(handle?.isCancelled == true)
    handle?.cancel()
    handle?.cancel()
    // A later context reuses the gone one's graph handle, and its reaction lands in the same
    // slot with the same generation: the old handle still names nothing.
    let later = Cogs()
    var runs = 0
    let current = later.react("current") { c in
      _ = c[a]
      runs += 1
    }
    handle?.cancel()
    #expect(handle?.isCancelled == true && !current.isCancelled)
    later.turn("a") { w in w[a] = 1 }
    #expect(runs == 2)
    current.cancel()
  }

  @Test("reactions take no descriptor ids, and each registration gets an id of its own")
  func reactionsTakeNoDescriptorIDs() {
    let a = Cog(0)
    let cogs = Cogs()
    let registrations = Cogs.liveRegistrationCount
    var handles: [CogReaction] = []
    // The descriptor ids do not grow with reactions. Other suites may declare cogs on other
    // threads meanwhile: of three tries, one must see no id taken between its own two.
    var grew: [Int32] = []
    for _ in 0..<3 where !grew.contains(1) {
      let before = Registry.makeDescriptorID()
      for _ in 0..<100 { handles.append(cogs.react("r") { c in _ = c[a] }) }
      grew.append(Registry.makeDescriptorID() - before)
    }
    #expect(grew.contains(1), "descriptor ids grew by \(grew) around 100 reactions")
    #expect(Cogs.liveRegistrationCount == registrations + handles.count)
    // A cancelled reaction's slot is reused by the next one: its handle still names nothing.
    handles[0].cancel()
    let next = cogs.react("next") { c in _ = c[a] }
    handles[0].cancel()
    #expect(handles[0].isCancelled && !next.isCancelled)
    for h in handles { h.cancel() }
    next.cancel()
    #expect(Cogs.liveRegistrationCount == registrations)
  }

  @Test("every kind of handle reports ended once its context is gone, and ending it is harmless")
  func handlesOutliveTheirContext() async {
    let a = Cog(0)
    let box = CogBox(lifetime: .whileObserved) { (k: Int, _) in k }
    var reaction: CogReaction?
    var lease: CogLease?
    var export: CogExport<Int>?
    do {
      let cogs = Cogs()
      reaction = cogs.react("kept") { c in _ = c[a] }
      lease = cogs.lease(box[1])
      export = cogs.export(a)
      #expect(reaction?.isCancelled == false && lease?.isEnded == false)
      #expect(export?.isCancelled == false)
    }
    #expect(reaction?.isCancelled == true)
    #expect(lease?.isEnded == true)
    #expect(export?.isCancelled == true)
    reaction?.cancel()
    lease?.end()
    export?.cancel()
    // The export's sequence finished with its context.
    var iterator = export?.makeAsyncIterator()
    var seen: [Int] = []
    while let v = await iterator?.next() { seen.append(v) }
    #expect(seen.count <= 1)
  }

  @Test("a handle kept after its cancel never cancels a later reaction in the same slot")
  func staleHandleAfterSlotReuse() {
    let a = Cog(0)
    let cogs = Cogs()
    var runs = 0
    let old = cogs.react("old") { c in _ = c[a] }
    old.cancel()
    // The free list reuses the slot at once: 65,535 more registrations wrap its 16-bit
    // generation back to the value the old handle holds.
    for _ in 0..<65_535 { cogs.react("churn") { _ in }.cancel() }
    let current = cogs.react("current") { c in
      _ = c[a]
      runs += 1
    }
    old.cancel()
    #expect(old.isCancelled && !current.isCancelled)
    cogs.turn("a") { w in w[a] = 1 }
    #expect(runs == 2)
    current.cancel()
  }
}
