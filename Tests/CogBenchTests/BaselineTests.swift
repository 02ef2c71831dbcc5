import CogBenchCases
import CogBenchSystems
import CogObjectGraph
import CogSimpleCore
import Observation
import Testing

// MARK: - Simple core (the oracle): SEMANTICS.md, one behaviour per test

@MainActor
@Suite("Simple core keeps SEMANTICS.md")
struct SimpleCoreTests {
  @Test("a computed runs on its first read, not before, and not again without a change")
  func lazy() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    let double = cogs.computed { c in c[s] * 2 }
    #expect(double.runCount == 0)
    #expect(cogs.read(double) == 2)
    #expect(cogs.read(double) == 2)
    #expect(double.runCount == 1)
    cogs.turn("write") { w in w[s] = 5 }
    #expect(double.runCount == 1, "a write does not run computeds")
    #expect(cogs.read(double) == 10)
    #expect(double.runCount == 2)
  }

  @Test("an equal recompute is backdated and stops its readers")
  func backdating() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    let parity = cogs.computed(label: "parity") { c in c[s] % 2 }
    let sink = cogs.computed(label: "sink") { c in c[parity] + 100 }
    #expect(cogs.read(sink) == 101)
    let changedAt = parity.changedAt
    cogs.turn("odd to odd") { w in w[s] = 3 }
    #expect(cogs.read(sink) == 101)
    #expect(parity.runCount == 2)
    #expect(sink.runCount == 1, "parity was equal, so sink must not rerun")
    #expect(parity.changedAt == changedAt)
    cogs.turn("odd to even") { w in w[s] = 4 }
    #expect(cogs.read(sink) == 100)
    #expect(sink.runCount == 2)
  }

  @Test("a computed without equality counts every recompute as a change")
  func noEquality() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    let parity = cogs.computed(equals: nil) { (c: SimpleContext<Int>) in c[s] % 2 }
    let sink = cogs.computed { c in c[parity] }
    _ = cogs.read(sink)
    cogs.turn("odd to odd") { w in w[s] = 3 }
    _ = cogs.read(sink)
    #expect(sink.runCount == 2)
  }

  @Test("a custom equality decides backdating, and the old value is kept")
  func customEquality() {
    let cogs = SimpleCogs()
    let s = cogs.source(10)
    let rounded = cogs.computed(equals: { $0 / 10 == $1 / 10 }) { (c: SimpleContext<Int>) in c[s] }
    let sink = cogs.computed { c in c[rounded] }
    #expect(cogs.read(sink) == 10)
    cogs.turn("same decade") { w in w[s] = 17 }
    #expect(cogs.read(rounded) == 10, "an equal result keeps the old value")
    #expect(cogs.read(sink) == 10)
    #expect(sink.runCount == 1)
  }

  @Test("a turn that writes an equal value publishes nothing")
  func equalWrite() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    var seen: [Int] = []
    cogs.react("log") { c in seen.append(c[s]) }
    let revision = cogs.revision
    cogs.turn("equal") { w in w[s] = 1 }
    cogs.turn("there and back") { w in
      w[s] = 2
      w[s] = 1
    }
    #expect(cogs.revision == revision)
    #expect(seen == [1])
  }

  @Test("dependencies are the tracked reads of the last run")
  func dynamicDependencies() {
    let cogs = SimpleCogs()
    let useA = cogs.source(true, label: "useA")
    let a = cogs.source(1, label: "a")
    let b = cogs.source(2, label: "b")
    let pick = cogs.computed { c in c[useA] ? c[a] : c[b] }
    #expect(cogs.read(pick) == 1)
    #expect(pick.dependencies.map(\.label) == ["useA", "a"])
    cogs.turn("switch") { w in w[useA] = false }
    #expect(cogs.read(pick) == 2)
    #expect(pick.dependencies.map(\.label) == ["useA", "b"])
    cogs.turn("write a") { w in w[a] = 50 }
    #expect(cogs.read(pick) == 2)
    #expect(pick.runCount == 2, "a is no longer a dependency")
    cogs.turn("write b") { w in w[b] = 7 }
    #expect(cogs.read(pick) == 7)
    #expect(pick.runCount == 3)
  }

  @Test("dependencies are checked in read order and the check stops at the first change")
  func checkOrder() {
    let cogs = SimpleCogs()
    let gate = cogs.source(1)
    let x = cogs.source(1)
    let expensive = cogs.computed(label: "expensive") { c in c[x] * 1000 }
    let top = cogs.computed { c in c[gate] > 0 ? c[expensive] : -1 }
    #expect(cogs.read(top) == 1000)
    cogs.turn("close the gate and change x") { w in
      w[gate] = 0
      w[x] = 2
    }
    #expect(cogs.read(top) == -1)
    #expect(expensive.runCount == 1, "gate changed first, so expensive is never checked")
  }

  @Test("peek reads without a dependency")
  func peek() {
    let cogs = SimpleCogs()
    let a = cogs.source(1)
    let b = cogs.source(10)
    let sum = cogs.computed { c in c[a] + c.peek(b) }
    #expect(cogs.read(sum) == 11)
    cogs.turn("b") { w in w[b] = 20 }
    #expect(cogs.read(sum) == 11)
    #expect(sum.runCount == 1)
    cogs.turn("a") { w in w[a] = 2 }
    #expect(cogs.read(sum) == 22)
  }

  @Test("curr is the previous value, nil on the first run")
  func curr() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    var firstRunSawNil = false
    let total = cogs.computed { (c: SimpleContext<Int>) in
      if c.curr == nil { firstRunSawNil = true }
      return (c.curr ?? 0) + c[s]
    }
    #expect(cogs.read(total) == 1)
    #expect(firstRunSawNil)
    cogs.turn("2") { w in w[s] = 2 }
    #expect(cogs.read(total) == 3)
    cogs.turn("5") { w in w[s] = 5 }
    #expect(cogs.read(total) == 8)
  }

  @Test("reads through the context object are tracked while a computation runs")
  func ambientTracking() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    let double = cogs.computed { (_: SimpleContext<Int>) in cogs.read(s) * 2 }
    #expect(cogs.read(double) == 2)
    #expect(double.dependencies.count == 1)
    cogs.turn("s") { w in w[s] = 4 }
    #expect(cogs.read(double) == 8)
    #expect(!cogs.isTracking, "a read outside any computation is not tracked")
  }

  @Test("a keyed box gives one computed per key, created on first use")
  func keyedBoxes() {
    let cogs = SimpleCogs()
    let scale = cogs.source(10)
    let scaled = cogs.box(label: "scaled") { (key: Int, c: SimpleContext<Int>) in key * c[scale] }
    let one = scaled[1]
    #expect(scaled[1] === one)
    #expect(scaled[2] !== one)
    #expect(scaled.count == 2)
    #expect(one.label == "scaled[1]")
    #expect(cogs.read(scaled[2]) == 20)
    #expect(one.runCount == 0, "naming a key does not run it")
    cogs.turn("scale") { w in w[scale] = 3 }
    #expect(cogs.read(scaled[2]) == 6)
    #expect(cogs.read(one) == 3)
  }

  @Test("writer reads see staged values; computeds see the committed state until the turn ends")
  func turnStaging() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    let double = cogs.computed { c in c[s] * 2 }
    var seenInside: (Int, Int) = (0, 0)
    cogs.turn("increment twice") { w in
      w[s] += 1
      w[s] += 1
      seenInside = (w[s], w[double])
    }
    #expect(seenInside == (3, 2))
    #expect(cogs.read(s) == 3)
    #expect(cogs.read(double) == 6)
  }

  @Test("reactions run once at registration, then once per turn that changed a dependency")
  func reactions() {
    let cogs = SimpleCogs()
    let a = cogs.source(1)
    let b = cogs.source(2)
    let sum = cogs.computed { c in c[a] + c[b] }
    var seen: [Int] = []
    let reaction = cogs.react("log") { c in seen.append(c[sum]) }
    cogs.turn("both") { w in
      w[a] = 10
      w[b] = 20
    }
    cogs.turn("swap to the same sum") { w in
      w[a] = 20
      w[b] = 10
    }
    #expect(seen == [3, 30])
    #expect(reaction.runCount == 2)
    reaction.cancel()
    cogs.turn("after cancel") { w in w[a] = 0 }
    #expect(reaction.runCount == 2)
  }

  @Test("reactions run in registration order and see a consistent diamond")
  func reactionOrderAndGlitches() {
    let cogs = SimpleCogs()
    let s = cogs.source(1)
    let left = cogs.computed { c in c[s] * 2 }
    let right = cogs.computed { c in c[s] + 1 }
    var log: [String] = []
    cogs.react("first") { c in
      log.append("first \(c[left]) \(c[right])")
      #expect(c[left] == 2 * (c[right] - 1), "glitch: inconsistent diamond")
    }
    cogs.react("second") { c in log.append("second \(c[right])") }
    cogs.turn("s") { w in w[s] = 5 }
    #expect(log == ["first 2 2", "second 2", "first 10 6", "second 6"])
  }

  @Test("turns scheduled by reactions run afterwards, first in first out, each with its flush")
  func scheduledTurns() {
    let cogs = SimpleCogs()
    let s = cogs.source(0, label: "s")
    let a = cogs.source(0, label: "a")
    let b = cogs.source(0, label: "b")
    var log: [String] = []
    cogs.react("schedule a") { c in
      let v = c[s]
      log.append("R1 s=\(v)")
      if v > 0 { c.turn("set a") { w in w[a] = v } }
    }
    cogs.react("schedule b") { c in
      let v = c[s]
      log.append("R2 s=\(v)")
      if v > 0 { c.turn("set b") { w in w[b] = v * 10 } }
    }
    cogs.react("watch") { c in log.append("R3 a=\(c[a]) b=\(c[b])") }
    log.removeAll()
    cogs.turn("s") { w in w[s] = 1 }
    #expect(
      log == ["R1 s=1", "R2 s=1", "R3 a=1 b=0", "R3 a=1 b=10"],
      "set a gets its own flush before set b runs")
    #expect(cogs.read(a) == 1 && cogs.read(b) == 10)
  }

  @Test("a reaction's registration run may schedule a turn; it runs when react returns")
  func scheduleFromRegistration() {
    let cogs = SimpleCogs()
    let s = cogs.source(0)
    let reaction = cogs.react("init") { c in
      if c.peek(s) == 0 { c.turn("init s") { w in w[s] = 42 } }
    }
    #expect(cogs.read(s) == 42)
    #expect(reaction.runCount == 1, "s was peeked, not tracked")
  }

  @Test("a nested turn is a precondition failure")
  func nestedTurnTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let cogs = SimpleCogs()
        let s = cogs.source(0)
        cogs.turn("outer") { _ in
          cogs.turn("inner") { w in w[s] = 1 }
        }
      }
    }
  }

  @Test("writing a computed is a precondition failure")
  func writingComputedTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let cogs = SimpleCogs()
        let c = cogs.computed { _ in 1 }
        cogs.turn("bad") { w in w[c] = 2 }
      }
    }
  }

  @Test("a computed reading itself is a cycle and traps")
  func cycleTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let cogs = SimpleCogs()
        var me: SimpleNode<Int>?
        me = cogs.computed { (_: SimpleContext<Int>) in cogs.read(me!) + 1 }
        _ = cogs.read(me!)
      }
    }
  }
}

// MARK: - Baseline systems through the benchmark adapter

/// s → left = s·2, right = s + 1 → sink = left + right, with an effect on sink. Returns the
/// values seen and the body run counts after writing 1…`writes`.
@MainActor
private func runDiamond<S: ReactiveSystem>(_ system: S, writes: Int) -> (
  sink: Int, leftRuns: Int, sinkRuns: Int, effectRuns: Int, effectSaw: [Int]
) {
  var leftRuns = 0
  var sinkRuns = 0
  var effectRuns = 0
  var effectSaw: [Int] = []
  let s = system.signal(0)
  let left = system.computed { () -> Int in
    leftRuns += 1
    return system.read(s) * 2
  }
  let right = system.computed { system.read(s) + 1 }
  let sink = system.computed { () -> Int in
    sinkRuns += 1
    return system.read(left) + system.read(right)
  }
  system.effect {
    effectRuns += 1
    effectSaw.append(system.read(sink))
  }
  for i in 1...writes { system.write(s, i) }
  let value = system.read(sink)
  system.cleanup()
  return (value, leftRuns, sinkRuns, effectRuns, effectSaw)
}

/// A chain of `length` computeds, each `previous + 1`, from one signal; a batch of two writes.
@MainActor
private func runChain<S: ReactiveSystem>(_ system: S, length: Int) -> (head: Int, runs: Int) {
  var runs = 0
  let s = system.signal(0)
  var last = system.computed { system.read(s) }
  for _ in 0..<length {
    let previous = last
    last = system.computed { () -> Int in
      runs += 1
      return system.read(previous) + 1
    }
  }
  _ = system.read(last)
  system.withBatch {
    system.write(s, 7)
    system.write(s, 10)
  }
  return (system.read(last), runs)
}

@MainActor
@Suite("Baseline systems compute correct values")
struct BaselineSystemTests {
  @Test("handles are unretained: the system keeps their objects until collect")
  func handleOwnership() {
    let system = ObjectGraphSystem()
    weak var object: AnyObject?
    do {
      let signal = system.signal(1)
      object = signal.ref.takeUnretainedValue()
      let copies = Array(repeating: signal, count: 3)
      system.write(copies[0], 5)
      #expect(system.read(copies[2]) == 5)
    }
    #expect(object != nil)
    #expect(system.handles.count == 1)
    system.cleanup()
    #expect(object != nil, "cleanup disposes effects only; the JS leaves objects to its GC")
    system.collect()
    #expect(object == nil)
    #expect(system.handles.count == 0)
  }

  /// The JS `cleanup` stops the effects built in the scope; the signals stay (garbage for a
  /// later collection). Every adapter: after `cleanup` an effect no longer runs, the signal it
  /// read still works; `collect` frees both.
  @Test(
    "cleanup disposes effects and keeps signals until collect",
    arguments: ["cog", "simple", "object-graph", "observation"])
  func cleanupDisposesEffectsOnly(system id: String) {
    @MainActor func run<S: ReactiveSystem>(_ system: S, handles: () -> Int) {
      let signal = system.signal(0)
      var runs = 0
      system.effect {
        runs += 1
        _ = system.read(signal)
      }
      system.write(signal, 1)
      #expect(runs == 2)
      system.cleanup()
      system.write(signal, 2)
      #expect(runs == 2, "\(S.id): a disposed effect ran")
      #expect(system.read(signal) == 2)
      #expect(handles() == 1)
      system.collect()
      #expect(handles() == 0)
    }
    switch id {
    case "cog":
      let s = CogSystem()
      run(s) { s.handles.count }
    case "simple":
      let s = SimpleSystem()
      run(s) { s.handles.count }
    case "object-graph":
      let s = ObjectGraphSystem()
      run(s) { s.handles.count }
    default:
      let s = ObservationSystem()
      run(s) { s.handles.count }
    }
  }

  /// sbench's timed region is the JS one: build the effects, run the updates, `cleanup()`
  /// (dispose the effects). The signals `beforeSample` built are not freed inside it (the JS
  /// collects them after the clock stops): here the next `beforeSample` collects them.
  @Test("sbench frees its signals outside the timed region")
  func sbenchCollectsOutsideTheTimedRegion() throws {
    let system = CogSystem()
    let checks = CaseChecks()
    let c = SBenchCase(.create1to1)
    let p = try #require(c.prepare(on: system, size: .quick, checks: checks))
    let scount = c.quickShape.scount
    for _ in 0..<2 {
      p.beforeSample?()
      #expect(system.handles.count == scount)
      p.iterate()
      #expect(system.handles.count == scount, "the timed region freed the sources")
    }
    p.finish()
    #expect(checks.failures.isEmpty, "\(checks.failures)")
    system.cleanup()  // what the bound case's tearDown does
    system.collect()
    #expect(system.handles.count == 0)
  }

  @Test("simple: diamond values and SEMANTICS run counts")
  func simpleDiamond() {
    let r = runDiamond(SimpleSystem(), writes: 3)
    #expect(r.sink == 3 * 2 + 3 + 1)
    #expect(r.effectSaw == [1, 4, 7, 10])
    #expect(r.leftRuns == 4 && r.sinkRuns == 4 && r.effectRuns == 4)
  }

  @Test("object-graph: diamond values and SEMANTICS run counts")
  func objectGraphDiamond() {
    let r = runDiamond(ObjectGraphSystem(), writes: 3)
    #expect(r.sink == 10)
    #expect(r.effectSaw == [1, 4, 7, 10])
    #expect(r.leftRuns == 4 && r.sinkRuns == 4 && r.effectRuns == 4)
  }

  @Test("observation: diamond values; computeds run once per read")
  func observationDiamond() {
    let r = runDiamond(ObservationSystem(), writes: 3)
    #expect(r.sink == 10)
    #expect(r.effectSaw == [1, 4, 7, 10])
    #expect(r.effectRuns == 4)
    // No memoization: the effect's 4 reads and the final read each run sink (and left).
    #expect(r.sinkRuns == 5 && r.leftRuns == 5)
  }

  @Test("chains: every system ends at head = 10 + length", arguments: [50, 2000])
  func chains(length: Int) {
    let simple = runChain(SimpleSystem(), length: length)
    let graph = runChain(ObjectGraphSystem(), length: length)
    let observation = runChain(ObservationSystem(), length: length)
    #expect(simple.head == 10 + length)
    #expect(graph.head == 10 + length)
    #expect(observation.head == 10 + length)
    #expect(simple.runs == 2 * length && graph.runs == 2 * length, "one run per link per change")
    #expect(observation.runs == 2 * length, "two reads of the head, each reruns the whole chain")
  }

  @Test("object-graph: an equal computed stops its readers and effects")
  func objectGraphCutoff() {
    let system = ObjectGraphSystem()
    var sinkRuns = 0
    var effectRuns = 0
    let s = system.signal(1)
    let parity = system.computed { system.read(s) % 2 }
    let sink = system.computed { () -> Int in
      sinkRuns += 1
      return system.read(parity)
    }
    system.effect {
      effectRuns += 1
      _ = system.read(sink)
    }
    system.write(s, 3)
    system.write(s, 5)
    #expect(system.read(sink) == 1)
    #expect(sinkRuns == 1 && effectRuns == 1)
    system.write(s, 6)
    #expect(system.read(sink) == 0)
    #expect(sinkRuns == 2 && effectRuns == 2)
  }

  @Test("object-graph: edges are rebuilt per recompute and dropped on switch")
  func objectGraphEdges() {
    let useA = OGStored(wrappedValue: true)
    let a = OGStored(wrappedValue: 1)
    let b = OGStored(wrappedValue: 2)
    let pick = OGComputed { useA.wrappedValue ? a.wrappedValue : b.wrappedValue }
    #expect(pick.wrappedValue == 1)
    #expect(a.edgeCounts.outgoing == 1 && b.edgeCounts.outgoing == 0)
    useA.wrappedValue = false
    #expect(pick.wrappedValue == 2)
    #expect(a.edgeCounts.outgoing == 0 && b.edgeCounts.outgoing == 1)
    #expect(pick.edgeCounts.incoming == 2)
    a.wrappedValue = 9
    #expect(pick.wrappedValue == 2)
    #expect(pick.runCount == 2)
  }

  @Test("object-graph: nodes report reads and changes to Observation, inline on the main actor")
  func objectGraphObservation() {
    // swift-state-graph gives every node an ObservationRegistrar: withObservationTracking sees
    // reads of stored and computed nodes, a write notifies willSet, and a computed notifies
    // when it turns potentially dirty, each through a Task.immediate that runs before the
    // write returns when the writer is on the main actor.
    final class Count: @unchecked Sendable { var value = 0 }
    let s = OGStored(wrappedValue: 1)
    let double = OGComputed { s.wrappedValue * 2 }
    let stored = Count()
    let computed = Count()
    withObservationTracking {
      _ = s.wrappedValue
    } onChange: {
      stored.value += 1
    }
    withObservationTracking {
      _ = double.wrappedValue
    } onChange: {
      computed.value += 1
    }
    #expect(stored.value == 0 && computed.value == 0)
    s.wrappedValue = 1
    #expect(stored.value == 0 && computed.value == 0, "an equal write notifies nothing")
    s.wrappedValue = 2
    #expect(stored.value == 1, "the stored node's willSet ran before the write returned")
    #expect(computed.value == 1, "the computed notified when it turned potentially dirty")
    #expect(double.wrappedValue == 4 && double.runCount == 2)
  }

  @Test("object-graph: an effect that stopped reading a node does not rerun when it changes")
  func objectGraphStaleRegistration() {
    // The effect's tracking registration stays in the set of a node it no longer reads; a
    // change there schedules the effect, which finds no pending edge and runs nothing.
    let system = ObjectGraphSystem()
    let useA = system.signal(true)
    let a = system.signal(1)
    let b = system.signal(2)
    var runs = 0
    var seen: [Int] = []
    system.effect {
      runs += 1
      seen.append(system.read(useA) ? system.read(a) : system.read(b))
    }
    system.write(useA, false)
    system.write(a, 10)
    system.withBatch {
      system.write(a, 11)
      system.write(b, 3)
    }
    #expect(seen == [1, 2, 3])
    #expect(runs == 3)
    system.cleanup()
  }

  @Test("a write inside an effect is applied after it, and its readers run once")
  func effectWrites() {
    func run<S: ReactiveSystem>(_ system: S) -> (mirror: Int, seen: [Int]) {
      let s = system.signal(0)
      let mirror = system.signal(0)
      var seen: [Int] = []
      system.effect { system.write(mirror, system.read(s) * 10) }
      system.effect { seen.append(system.read(mirror)) }
      system.write(s, 2)
      system.withBatch { system.write(s, 3) }
      return (system.read(mirror), seen)
    }
    // Cog's adapter finds the running reaction through the runtime (the effect's closure is
    // the reaction's body as is): a write, and a batch, inside an effect become its turns.
    for result in [
      run(SimpleSystem()), run(ObjectGraphSystem()), run(ObservationSystem()), run(CogSystem()),
    ] {
      #expect(result.mirror == 30)
      #expect(result.seen == [0, 20, 30])
    }
  }

  @Test("keyed boxes: one computed per key, same values on every system")
  func keyed() {
    func run<S: KeyedReactiveSystem>(_ system: S) -> (values: [Int], runs: [Int: Int]) {
      var runs: [Int: Int] = [:]
      let scale = system.signal(10)
      let scaled = system.box { (key: Int) -> Int in
        runs[key, default: 0] += 1
        return key * system.read(scale)
      }
      let total = system.computed { system.read(scaled, key: 1) + system.read(scaled, key: 2) }
      var values = [system.read(total), system.read(scaled, key: 2)]
      system.write(scale, 3)
      values += [system.read(total), system.read(scaled, key: 1)]
      system.release(scaled, key: 2)
      return (values, runs)
    }
    let simple = run(SimpleSystem())
    let graph = run(ObjectGraphSystem())
    let observation = run(ObservationSystem())
    #expect(simple.values == [30, 20, 9, 3])
    #expect(graph.values == simple.values && observation.values == simple.values)
    #expect(simple.runs == [1: 2, 2: 2], "each key runs once per change, not per read")
    #expect(graph.runs == simple.runs)
    #expect(observation.runs == [1: 3, 2: 3], "no memoization: once per read")
  }

  @Test("capabilities: observation cases needing memoization are not applicable")
  func capabilities() {
    #expect(SimpleSystem.capabilities == .all)
    #expect(ObjectGraphSystem.capabilities == .all.subtracting(.stagedTurns))
    #expect(ObservationSystem.capabilities.reasonMissing(.memoizedComputeds) != nil)
    #expect(ObjectGraphSystem.capabilities.reasonMissing(.equalityCutoff) == nil)
    #expect(StateGraphSystem.unavailableReason.hasPrefix("unavailable: "))
  }
}

// MARK: - Differential: object-graph against the oracle

/// A small deterministic generator (the tests must not depend on the hash seed or the clock).
private struct SplitMix64 {
  var state: UInt64
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}

/// Builds the same random graph (dynamic reads, equality cutoffs through `% 7`, effects) on a
/// system and applies the same single writes; returns every value read and the run counts.
@MainActor
private func runRandomGraph<S: ReactiveSystem>(_ system: S, seed: UInt64) -> (
  values: [Int], runs: [Int]
) {
  var rng = SplitMix64(state: seed)
  let sources = (0..<5).map { system.signal($0) }
  var computeds: [ComputedHandle<Int>] = []
  var runs: [Int] = []
  for index in 0..<30 {
    let picks = (0..<3).map { _ in rng.next(5 + computeds.count) }
    let known = computeds
    runs.append(0)
    computeds.append(
      system.computed { () -> Int in
        runs[index] += 1
        let value = { @MainActor (pick: Int) -> Int in
          pick < 5 ? system.read(sources[pick]) : system.read(known[pick - 5])
        }
        // Dynamic: the third read happens only when the first value is even.
        let first = value(picks[0])
        let second = value(picks[1])
        return (first % 2 == 0 ? first + value(picks[2]) : first * 3 + second) % 7
      })
  }
  var values: [Int] = []
  for index in 0..<4 {
    runs.append(0)
    let target = computeds[29 - index * 3]
    let slot = runs.count - 1
    system.effect {
      runs[slot] += 1
      values.append(system.read(target))
    }
  }
  for _ in 0..<200 {
    system.write(sources[rng.next(5)], rng.next(4))
    if rng.next(3) == 0 { values.append(system.read(computeds[rng.next(30)])) }
  }
  system.cleanup()
  return (values, runs)
}

@MainActor
@Suite("Object-graph core against the simple core")
struct ObjectGraphDifferentialTests {
  @Test(
    "same values and the same run counts on random graphs", arguments: [1, 2, 3, 4, 5] as [UInt64])
  func sameAsOracle(seed: UInt64) {
    let oracle = runRandomGraph(SimpleSystem(), seed: seed)
    let graph = runRandomGraph(ObjectGraphSystem(), seed: seed)
    // Report the first difference only: the full arrays are hundreds of numbers.
    let firstValue = zip(graph.values, oracle.values).enumerated().first { $1.0 != $1.1 }?.offset
    #expect(graph.values.count == oracle.values.count && firstValue == nil)
    let firstRuns = zip(graph.runs, oracle.runs).enumerated().first { $1.0 != $1.1 }?.offset
    #expect(firstRuns == nil, "run counts differ at node \(firstRuns ?? -1)")
    #expect(oracle.runs.reduce(0, +) > 30, "the graph must actually recompute")
  }
}
