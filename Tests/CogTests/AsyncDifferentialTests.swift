@_spi(Testing) import Cog
import CogEdgePool
import CogPrefixArrays
import Foundation
import Testing

/// Seeded random programs that mix sync cogs with async cogs under the four policies and
/// `.stream`, checked against a model of the documented semantics (swift/SEMANTICS.md §11 and
/// §14, swift/0004, swift/0005) after every step.
///
/// A program has a few sources, sync computeds over them, async cogs each reading one of those
/// (its input), a sync computed per async cog that reads its value and its status, one
/// reaction that reads all of them, and an export per async cog consumed by a fast task (always
/// waiting in `next()`), a slow one (busy until the test lets it take the next value) or none.
/// The test drives everything, one step at a time, then lets the main actor settle: writes
/// (which restart the async cogs whose input changed), the completion of a piece of work in
/// flight (success, failure, the work's own `CancellationError`, or the late return of work a
/// restart cancelled and that ignored it), stream elements (to the current or a superseded
/// sequence) and ends, slow consumers taking a value, consumers cancelled (the slow one's task,
/// possibly while busy; the fast one's export). At the end the context goes away with work
/// running, and every piece of work still in flight must be cancelled.
///
/// After every step the model says which work exists (one per change of the input, with that
/// input), which has started and which was cancelled; each async cog's value and status
/// (`cogs[x]`, `status(of:)`); what the reaction saw, and that it ran exactly once if anything
/// it reads changed and never otherwise; what each consumer received (a fast one every value,
/// in order; a slow one the newest) and whether its export has ended.
///
/// A failure prints its seed; replay it with `COG_ASYNC_DIFF_SEED=<seed> swift test --filter
/// AsyncDifferential`. `COG_ASYNC_DIFF_CASES` sets how many programs one run tries per runtime
/// (default 400 through the public API, 200 per layout, kept small because one default run
/// once failed in a way no replay reproduced (swift/0004)), `COG_ASYNC_DIFF_SHARD=i/n` runs
/// every n-th of those seeds from the i-th, `COG_ASYNC_DIFF_PROGRESS=k` prints progress every k
/// cases (`DifferentialRun`). The long mode, 100,000 cases per runtime in a release build,
/// sharded over parallel processes: `scripts/differential-long.sh async`.
@MainActor
@Suite("Async differential against the documented semantics")
struct AsyncDifferentialTests {
  @Test("random async programs follow the documented semantics, through the public API")
  func publicAPI() async { await Self.run(AsyncPublicRuntime.self, defaultCases: 400) }

  @Test(
    "random async programs follow the documented semantics on each edge layout",
    arguments: EdgeLayout.registered)
  func edgeLayout(layout: EdgeLayout) async {
    await Self.run(layout.asyncRuntime, defaultCases: 200)
  }

  static func run<R: AsyncDiffRuntime>(_: R.Type, defaultCases: Int) async {
    let env = ProcessInfo.processInfo.environment
    var run = DifferentialRun(
      prefix: "COG_ASYNC_DIFF", runtime: R.name, defaultCases: defaultCases
    ) { $0 &* 0x9E37_79B9 &+ 29 }
    let seeds = run.seeds
    var tally = AsyncDiffTally()
    for seed in seeds {
      let c = AsyncDiffCase<R>(seed: seed)
      let problem = await c.run()
      if let problem { Issue.record("\(R.name), seed \(seed): \(problem)") }
      run.finished(seed: seed, problem: problem)
      if run.failures >= 5 { break }
      tally.add(c.tally)
    }
    run.end()
    if env["COG_ASYNC_DIFF_VERBOSE"] != nil { print("\(R.name): \(run.done) cases, \(tally)") }
    // The generator must reach what it is meant to test, not only happy paths.
    if seeds.count >= 200 {
      for (what, n) in tally.counts where n == 0 {
        Issue.record("the generator never reached: \(what)")
      }
    }
  }
}

/// What a run exercised (each must happen at least once in a few hundred cases).
struct AsyncDiffTally: CustomStringConvertible {
  var counts: KeyValuePairs<String, Int> {
    [
      "a restart of .latest work": restarts, "a late return dropped": lateDrops,
      "an older .merged result dropped": mergedDrops, "a failure": failures,
      "a failure cleared while still pending": clearedPending,
      "a stream element": elements, "a slow consumer skipping values": skips,
      "a consumer cancelled while busy": busyCancels, "work cancelled by the context": dropped,
      "a view told": viewsTold,
    ]
  }
  var restarts = 0
  var lateDrops = 0
  var mergedDrops = 0
  var failures = 0
  var clearedPending = 0
  var elements = 0
  var skips = 0
  var busyCancels = 0
  var dropped = 0
  var viewsTold = 0
  mutating func add(_ o: AsyncDiffTally) {
    restarts += o.restarts
    lateDrops += o.lateDrops
    mergedDrops += o.mergedDrops
    failures += o.failures
    clearedPending += o.clearedPending
    elements += o.elements
    skips += o.skips
    busyCancels += o.busyCancels
    dropped += o.dropped
    viewsTold += o.viewsTold
  }
  var description: String { counts.map { "\($0.key): \($0.value)" }.joined(separator: ", ") }
}

/// One random program's shape.
struct AsyncGraphSpec {
  enum Consumer { case none, fast, slow }
  struct AsyncNode {
    var policy: AsyncDiffPolicy
    /// The plain value (source or sync computed) it reads.
    var input: Int
    var consumer: Consumer
    /// Whether a view shows it (`cogs.ui[x]` under `withObservationTracking`).
    var shown: Bool
  }
  var sources = 0
  /// Sync computeds: node `sources + i` sums the plain values `sync[i]` (smaller ids), mod 3.
  var sync: [[Int]] = []
  var asyncNodes: [AsyncNode] = []
  var steps = 0

  init(_ r: inout SplitMix) {
    sources = 1 + r.int(3)
    for i in 0..<r.int(4) {
      let available = sources + i
      sync.append((0..<(1 + r.int(2))).map { _ in r.int(available) })
    }
    let plain = sources + sync.count
    for _ in 0..<(1 + r.int(3)) {
      let policy = AsyncDiffPolicy.allCases[r.int(AsyncDiffPolicy.allCases.count)]
      let consumer: Consumer = [.none, .fast, .slow, .slow][r.int(4)]
      asyncNodes.append(
        AsyncNode(policy: policy, input: r.int(plain), consumer: consumer, shown: r.chance(50)))
    }
    steps = 10 + r.int(40)
  }

  /// Every plain value from the sources' values.
  func plainValues(_ src: [Int]) -> [Int] {
    var v = src
    for deps in sync { v.append(deps.reduce(0) { $0 + v[$1] } % 3) }
    return v
  }
}

/// The documented behaviour of one async cog (swift/0004): its work, in creation order, and
/// what its policy does with each.
struct AsyncCogModel {
  struct Work {
    var input: Int
    var ignoresCancellation: Bool
    var started = false
    var done = false
    var cancelled = false
  }
  let policy: AsyncDiffPolicy
  var lastInput: Int?
  var work: [Work] = []
  /// In flight, in start order; not started yet (`.queue`'s backlog, `.exhaustLatest`'s one).
  var running: [Int] = []
  var waiting: [Int] = []
  /// `.merged`: the newest work whose outcome published (work starts in creation order).
  var lastPublished = -1
  var value = -1
  var failure: Int?
  /// `.stream`: whether the running sequence has delivered an element.
  var delivered = false

  var status: AsyncDiffStatus {
    switch policy {
    case .latest, .stream:
      return AsyncDiffStatus(pending: !running.isEmpty && !delivered, failure: failure)
    default: return AsyncDiffStatus(pending: !running.isEmpty || !waiting.isEmpty, failure: failure)
    }
  }

  /// The body ran with `input` (it runs when its input changed): new work, as the policy says.
  /// Returns how many running works a restart cancelled.
  mutating func submit(_ input: Int, ignores: Bool) -> Int {
    lastInput = input
    let j = work.count
    work.append(Work(input: input, ignoresCancellation: ignores && policy != .stream))
    var restarted = 0
    switch policy {
    case .latest, .stream:
      for r in running {
        work[r].cancelled = true
        if !work[r].ignoresCancellation { work[r].done = true }
        restarted += 1
      }
      running.removeAll()
      start(j)
    case .queue:
      if running.isEmpty { start(j) } else { waiting.append(j) }
    case .merged:
      start(j)
    case .exhaustLatest:
      if running.isEmpty { start(j) } else { waiting = [j] }
    }
    return restarted
  }

  mutating func start(_ j: Int) {
    work[j].started = true
    running.append(j)
    delivered = false
  }

  enum Outcome { case value(Int), failure(Int), cancelled }
  enum Effect { case published, droppedLate, droppedOlder, none }

  /// Work `j` (started, not done) ended with `outcome`.
  mutating func complete(_ j: Int, _ outcome: Outcome) -> Effect {
    work[j].done = true
    guard let index = running.firstIndex(of: j) else { return .droppedLate }
    running.remove(at: index)
    var effect = Effect.none
    if policy == .merged && j < lastPublished {
      if case .cancelled = outcome {} else { effect = .droppedOlder }
    } else {
      switch outcome {
      case .value(let v):
        value = v
        failure = nil
        lastPublished = j
        effect = .published
      case .failure(let code):
        failure = code
        lastPublished = j
        effect = .published
      case .cancelled: break
      }
    }
    if running.isEmpty && !waiting.isEmpty { start(waiting.removeFirst()) }
    return effect
  }

  /// A stream element from the current sequence.
  mutating func deliver(_ v: Int) {
    delivered = true
    value = v
    failure = nil
  }

  /// The current sequence ended.
  mutating func end() {
    if let j = running.first { work[j].done = true }
    running.removeAll()
  }
}

/// What a consumer of an export should have received (swift/SEMANTICS.md §14): a consumer
/// waiting in `next()` when a turn ends gets that turn's value; one busy gets only the newest;
/// a cancelled task's subscription ends in `next()`, at once if it waits there, else at its
/// next call, without a value buffered meanwhile.
struct ConsumerModel {
  let fast: Bool
  var received: [Int]
  var busy: Bool
  var buffered: Int?
  var cancelRequested = false
  var ended = false

  mutating func offer(_ v: Int) -> Bool {
    if ended { return false }
    if fast || !busy {
      received.append(v)
      busy = !fast
      return false
    }
    let skipped = buffered != nil
    buffered = v
    return skipped
  }

  mutating func take() {
    if ended || !busy { return }
    if cancelRequested {
      ended = true
      busy = false
    } else if let v = buffered {
      received.append(v)
      buffered = nil
    } else {
      busy = false
    }
  }
}

/// The consuming side of one export in the runtime: what arrived, and the slow one's wait.
@MainActor
final class ConsumerProbe {
  var received: [Int] = []
  var busy: CheckedContinuation<Void, Never>?
  /// The ticket of the resumed consumer's hand-off, until it runs again (`HandOffs`).
  var handOff: Int?
  /// The case is ending: a slow consumer stops waiting after each value, so that the value
  /// its export still holds when the context goes away (it ends on the current value) cannot
  /// leave it waiting with nobody to resume it (the release-build hang of issue 29).
  var draining = false
  var task: Task<Void, Never>?
  var export: AsyncDiffExport?

  /// Lets the busy consumer go on to its next value.
  func release() {
    guard let c = busy else { return }
    busy = nil
    handOff = HandOffs.resumed()
    c.resume()
  }

  /// The consumer has `v`; a slow one is busy with it until the test releases it. Both in one
  /// step on the main actor (the continuation's body), so that the test never sees the value
  /// without the busy consumer: a call here from a task with an executor preference (the
  /// consumers prefer `AsyncDiffExport.hops`) may go through the main actor's queue, even from
  /// the main actor (seen in debug builds), so code before the call and after it can be
  /// separate jobs with the test's step between them.
  func receive(_ v: Int, slow: Bool) async {
    guard slow && !draining else {
      received.append(v)
      return
    }
    await withCheckedContinuation { c in
      received.append(v)
      busy = c
    }
    if let t = handOff {
      handOff = nil
      HandOffs.landed(t)
    }
  }
}

/// Runs one program on a runtime, step by step, against the model.
@MainActor
final class AsyncDiffCase<R: AsyncDiffRuntime> {
  let seed: UInt64
  var rng: SplitMix
  let spec: AsyncGraphSpec
  var problem: String?
  var tally = AsyncDiffTally()
  var sources: [Int]
  var models: [AsyncCogModel]
  var consumers: [ConsumerModel?]
  var probes: [ConsumerProbe?]
  /// The runtime's work, per async cog: jobs (`.run`) or feeds (`.stream`), and which jobs
  /// started.
  var jobs: [[Job<Int>]]
  var started: [[Bool]]
  var feeds: [[Feed<Int>]]
  var reactionLog: [[Int]] = []
  /// What each step did, for a failure's message.
  var history: [String] = []
  /// Views showing async cogs, and the reaction log's length each time one was told.
  var views: [FakeView<Int>?]
  var toldAt: [[Int]]

  init(seed: UInt64) {
    self.seed = seed
    rng = SplitMix(state: seed)
    spec = AsyncGraphSpec(&rng)
    sources = Array(repeating: 0, count: spec.sources)
    models = spec.asyncNodes.map { AsyncCogModel(policy: $0.policy) }
    consumers = spec.asyncNodes.map { _ in nil }
    probes = spec.asyncNodes.map { _ in nil }
    jobs = spec.asyncNodes.map { _ in [] }
    started = spec.asyncNodes.map { _ in [] }
    feeds = spec.asyncNodes.map { _ in [] }
    views = spec.asyncNodes.map { _ in nil }
    toldAt = spec.asyncNodes.map { _ in [] }
  }

  func fail(_ message: @autoclosure () -> String) {
    if problem == nil { problem = message() }
  }

  /// Whether job `j` of cog `i` ignores cancellation (a function of the seed, so that the
  /// model and the runtime agree).
  func ignores(_ i: Int, _ j: Int) -> Bool {
    var r = SplitMix(state: seed ^ UInt64(i << 20 | j))
    return r.int(3) == 0
  }

  static func downstream(_ value: Int, _ status: AsyncDiffStatus) -> Int {
    value * 2 + (status.pending ? 1 : 0) + (status.failure == nil ? 0 : 100)
  }

  /// What the reaction reads, as the model says.
  var snapshot: [Int] {
    models.flatMap { m -> [Int] in
      let s = m.status
      return [m.value, s.pending ? 1 : 0, s.failure ?? -1, Self.downstream(m.value, s)]
    }
  }

  /// The model's side of the body runs a turn causes: every async cog whose input changed.
  func submitChanged() {
    let plain = spec.plainValues(sources)
    for i in models.indices where models[i].lastInput != plain[spec.asyncNodes[i].input] {
      let j = models[i].work.count
      if models[i].submit(plain[spec.asyncNodes[i].input], ignores: ignores(i, j)) > 0 {
        tally.restarts += 1
      }
    }
  }

  func run() async -> String? {
    let inFlight = await steps()
    // The context went away with work running: every work in flight is cancelled.
    await settle(until: { inFlight.allSatisfy { self.jobs[$0.0][$0.1].wasCancelled } })
    for (i, j) in inFlight where problem == nil {
      if !jobs[i][j].wasCancelled { fail("context gone: work \(j) of a\(i) was not cancelled") }
      tally.dropped += 1
    }
    // Let everything end: late returns land nowhere, consumers finish.
    for i in jobs.indices { for job in jobs[i] where !job.isDone { job.succeed(77) } }
    for probe in probes {
      probe?.draining = true
      probe?.release()
    }
    await CogTests.settle()
    for probe in probes {
      guard let probe else { continue }
      probe.release()
      await probe.task?.value
    }
    return problem
  }

  /// Builds the program on a fresh runtime and runs its steps; returns the work in flight
  /// when the runtime (its context) goes away, at the return.
  func steps() async -> [(Int, Int)] {
    let runtime = R()
    let (nodes, asyncNodes, downstream) = build(runtime)
    submitChanged()
    for i in spec.asyncNodes.indices where spec.asyncNodes[i].consumer != .none {
      let fast = spec.asyncNodes[i].consumer == .fast
      let probe = ConsumerProbe()
      let export = runtime.export(asyncNodes[i])
      probe.export = export
      probe.task = export.consume { v in await probe.receive(v, slow: !fast) }
      probes[i] = probe
      consumers[i] = ConsumerModel(fast: fast, received: [models[i].value], busy: !fast)
    }
    for i in spec.asyncNodes.indices where spec.asyncNodes[i].shown {
      let cog = asyncNodes[i]
      // Weak: a view must not keep the context alive (the case drops it with work running).
      let view = FakeView { [weak runtime] in runtime?.uiRead(cog) ?? -2 }
      view.notices.onHit = { [unowned self] in self.toldAt[i].append(self.reactionLog.count) }
      view.render()
      views[i] = view
    }
    await settle(until: { self.observedAsModelled(runsBefore: 0, before: []) })
    check(runtime, asyncNodes, downstream, step: -1, before: [], runsBefore: 0)
    var before = snapshot
    for step in 0..<spec.steps where problem == nil {
      let runs = reactionLog.count
      let values = models.map(\.value)
      let notices = views.map { $0?.notices.count ?? 0 }
      let what = await act(runtime, nodes)
      // Each step is at most one turn: an async cog whose value changed offers it once.
      for i in models.indices where models[i].value != values[i] {
        if consumers[i]?.offer(models[i].value) == true { tally.skips += 1 }
      }
      await settle(until: { self.observedAsModelled(runsBefore: runs, before: before) })
      check(runtime, asyncNodes, downstream, step: step, before: before, runsBefore: runs)
      checkViews(notices: notices, values: values, runsBefore: runs)
      history.append("\(what)")
      if problem != nil {
        problem =
          "step \(step) (\(what)): " + problem!
          + "; the steps before: \(history.suffix(6).dropLast())"
      }
      before = snapshot
    }
    return models.indices.flatMap { i in
      models[i].running.filter { _ in spec.asyncNodes[i].policy != .stream }.map { (i, $0) }
    }
  }

  /// Makes the program's cogs and its reaction (which runs once, starting the first work).
  func build(_ runtime: R) -> (nodes: [R.Node], async: [R.Node], downstream: [R.Node]) {
    var nodes: [R.Node] = []
    for s in 0..<spec.sources { nodes.append(runtime.source("s\(s)")) }
    for (i, deps) in spec.sync.enumerated() {
      let captured = nodes
      nodes.append(
        runtime.computed("n\(spec.sources + i)") { r in
          deps.reduce(0) { $0 + r.read(captured[$1]) } % 3
        })
    }
    var asyncNodes: [R.Node] = []
    var downstream: [R.Node] = []
    for (i, a) in spec.asyncNodes.enumerated() {
      let input = nodes[a.input]
      let cog = runtime.async("a\(i)", a.policy) { [unowned self] r -> AsyncDiffWork in
        let x = r.read(input)
        let j = self.jobs[i].count + self.feeds[i].count
        if a.policy == .stream {
          let feed = Feed<Int>(name: j)
          self.feeds[i].append(feed)
          return .stream(feed.sequence)
        }
        let job = Job<Int>(input: x)
        job.ignoresCancellation = self.ignores(i, j)
        self.jobs[i].append(job)
        self.started[i].append(false)
        return .run {
          self.started[i][j] = true
          return try await job.wait()
        }
      }
      asyncNodes.append(cog)
      downstream.append(
        runtime.computed("d\(i)") { r in Self.downstream(r.read(cog), r.status(cog)) })
    }
    runtime.react { [unowned self] r in
      self.reactionLog.append(
        asyncNodes.indices.flatMap { i -> [Int] in
          let v = r.read(asyncNodes[i])
          let s = r.status(asyncNodes[i])
          return [v, s.pending ? 1 : 0, s.failure ?? -1, r.read(downstream[i])]
        })
    }
    return (nodes, asyncNodes, downstream)
  }

  /// One random step; returns what it did.
  func act(_ runtime: R, _ nodes: [R.Node]) async -> String {
    let roll = rng.int(100)
    if roll < 45 {
      // Complete some work in flight (or a superseded one that ignored its cancellation).
      var candidates: [(Int, Int)] = []
      for i in models.indices {
        if spec.asyncNodes[i].policy == .stream {
          if !models[i].running.isEmpty || !feeds[i].isEmpty { candidates.append((i, -1)) }
        } else {
          for j in models[i].work.indices where models[i].work[j].started && !models[i].work[j].done
          {
            candidates.append((i, j))
          }
        }
      }
      if !candidates.isEmpty {
        let (i, j) = candidates[rng.int(candidates.count)]
        if j < 0 { return streamStep(i) }
        let k = rng.int(100)
        let outcome: AsyncCogModel.Outcome
        if k < 55 {
          outcome = .value(rng.int(4))
        } else if k < 85 {
          outcome = .failure(i * 1000 + j)
        } else {
          outcome = .cancelled
        }
        let wasFailed = models[i].failure != nil
        let effect = models[i].complete(j, outcome)
        switch effect {
        case .droppedLate: tally.lateDrops += 1
        case .droppedOlder: tally.mergedDrops += 1
        case .published:
          if case .failure = outcome { tally.failures += 1 }
          if case .value = outcome, wasFailed, models[i].status.pending {
            tally.clearedPending += 1
          }
        case .none: break
        }
        switch outcome {
        case .value(let v): jobs[i][j].succeed(v)
        case .failure(let code): jobs[i][j].fail(TestFailure(code: code))
        case .cancelled: jobs[i][j].fail(CancellationError())
        }
        return "a\(i) work \(j): \(outcome)"
      }
    }
    if roll >= 45 && roll < 58 {
      // A slow consumer takes its next value.
      let slow = consumers.indices.filter { consumers[$0].map { !$0.fast && !$0.ended } ?? false }
      if !slow.isEmpty {
        let i = slow[rng.int(slow.count)]
        consumers[i]!.take()
        probes[i]!.release()
        return "a\(i)'s slow consumer takes"
      }
    }
    if roll >= 58 && roll < 62 {
      // A consumer is cancelled: the slow one's task, the fast one's export.
      let alive = consumers.indices.filter {
        consumers[$0].map { !$0.ended && !$0.cancelRequested } ?? false
      }
      if !alive.isEmpty {
        let i = alive[rng.int(alive.count)]
        if consumers[i]!.fast {
          consumers[i]!.ended = true
          probes[i]!.export!.cancel()
          return "a\(i)'s fast consumer's export cancelled"
        }
        if consumers[i]!.busy {
          consumers[i]!.cancelRequested = true
          tally.busyCancels += 1
        } else {
          consumers[i]!.ended = true
        }
        probes[i]!.task!.cancel()
        return "a\(i)'s slow consumer's task cancelled"
      }
    }
    // A turn writing one or two sources.
    let writes = (0..<(1 + rng.int(2))).map { _ in (rng.int(spec.sources), rng.int(3)) }
    for (s, v) in writes { sources[s] = v }
    runtime.turn(writes.map { (nodes[$0.0], $0.1) })
    submitChanged()
    return "write \(writes)"
  }

  /// A stream step for cog `i`: an element to the current sequence, to a superseded one, or
  /// the current one's end.
  func streamStep(_ i: Int) -> String {
    let k = rng.int(100)
    let current = models[i].running.isEmpty ? nil : feeds[i].last
    if let feed = current, k < 70 {
      let v = rng.int(4)
      models[i].deliver(v)
      tally.elements += 1
      feed.send(v)
      return "a\(i) element \(v)"
    }
    if let feed = current, k < 85 {
      models[i].end()
      feed.end()
      return "a\(i) stream ends"
    }
    if feeds[i].count > 1 {
      feeds[i][rng.int(feeds[i].count - 1)].send(rng.int(4))  // superseded: dropped
      return "a\(i) element to a superseded stream"
    }
    return "nothing"
  }

  /// A view is told once when its state's value changed in the step (one turn), never for an
  /// equal value, and before the flush's reactions run (swift/0005, flush steps 4 and 6);
  /// rendered again, it shows the new value.
  func checkViews(notices: [Int], values: [Int], runsBefore: Int) {
    for i in views.indices {
      guard let view = views[i] else { continue }
      let changed = models[i].value != values[i]
      let told = view.notices.count - notices[i]
      if told != (changed ? 1 : 0) {
        fail(
          "a\(i)'s view was told \(told)×, expected \(changed ? 1 : 0)× (\(values[i]) → \(models[i].value))"
        )
      } else if changed && toldAt[i].last != runsBefore {
        fail("a\(i)'s view was told after the reaction ran")
      }
      if told > 0 {
        tally.viewsTold += 1
        view.render()
        if view.shown.last != models[i].value {
          fail("a\(i)'s view shows \(view.shown.last ?? -3), expected \(models[i].value)")
        }
      }
    }
  }

  /// Lets the main actor run a step's whole chain (a work's task, its outcome's turn, the
  /// next work a policy starts, the consumers' tasks): `settle()`, then more yields, up to a
  /// bound, until what the test observes without touching the graph (the reaction's log, the
  /// consumers, the work started) is what the model expects. A chain's length in yields depends
  /// on what else the main actor has queued (other tests run on it too); `check` then compares
  /// everything, so a runtime that is only slow or that does too much still fails.
  ///
  /// `settle()` waits for every work, element and consumer the step resumed: a step whose
  /// outcome changes nothing observable (a late or older result dropped, an equal value) has
  /// nothing for `done` to wait for, and its outcome, landing in the next step, would
  /// reach the runtime after that step's (the reaction then ran twice there). It also waits
  /// for the consumers' hops (`AsyncDiffExport.hops`): a consumer waits in its stream's
  /// `next()` off the main actor, so a value on its way to it, or a consumer on its way into
  /// `next()` (a cancellation before it got there ends the export only when it does), took
  /// more than this loop's 400 yields under load (the long run's "consumer received" and
  /// "export ended false" failures, about 1 case in 128,000).
  func settle(until done: () -> Bool) async {
    await CogTests.settle()
    var yields = 0
    while yields < 400 && !done() {
      await HandOffs.allLanded()
      await Task.yield()
      yields += 1
    }
  }

  func observedAsModelled(runsBefore: Int, before: [Int]) -> Bool {
    let now = snapshot
    if reactionLog.count - runsBefore != (now == before ? 0 : 1) || reactionLog.last != now {
      return false
    }
    for i in models.indices {
      if let c = consumers[i], let probe = probes[i],
        probe.received != c.received || probe.export!.isCancelled() != c.ended
      {
        return false
      }
      if spec.asyncNodes[i].policy != .stream && started[i] != models[i].work.map(\.started) {
        return false
      }
    }
    return true
  }

  func check(
    _ runtime: R, _ asyncNodes: [R.Node], _ downstream: [R.Node], step: Int, before: [Int],
    runsBefore: Int
  ) {
    for i in models.indices {
      let m = models[i]
      let label = "a\(i) (\(m.policy))"
      let madeInputs = spec.asyncNodes[i].policy == .stream ? nil : jobs[i].map(\.input)
      if let made = madeInputs, made != m.work.map(\.input) {
        fail("\(label): work made for inputs \(made), expected \(m.work.map(\.input))")
      }
      if spec.asyncNodes[i].policy == .stream && feeds[i].count != m.work.count {
        fail("\(label): \(feeds[i].count) sequences followed, expected \(m.work.count)")
      }
      if madeInputs != nil && started[i] != m.work.map(\.started) {
        fail("\(label): work started \(started[i]), expected \(m.work.map(\.started))")
      }
      if madeInputs != nil {
        for j in m.work.indices where m.work[j].cancelled != jobs[i][j].wasCancelled {
          // A work that finished before the restart cancelled nothing.
          if !m.work[j].cancelled || !jobs[i][j].isDone {
            fail(
              "\(label): work \(j) cancelled \(jobs[i][j].wasCancelled), expected \(m.work[j].cancelled)"
            )
          }
        }
      }
      let v = runtime.read(asyncNodes[i])
      let s = runtime.status(asyncNodes[i])
      if v != m.value || s != m.status {
        fail("\(label): value \(v) status \(s), expected \(m.value) \(m.status)")
      }
      let d = runtime.read(downstream[i])
      if d != Self.downstream(m.value, m.status) {
        fail("\(label): downstream \(d), expected \(Self.downstream(m.value, m.status))")
      }
      if let c = consumers[i], let probe = probes[i] {
        if probe.received != c.received {
          fail("\(label): consumer received \(probe.received), expected \(c.received)")
        }
        if probe.export!.isCancelled() != c.ended {
          fail("\(label): export ended \(probe.export!.isCancelled()), expected \(c.ended)")
        }
      }
    }
    let now = snapshot
    let expectedRuns = step < 0 ? 1 : (now == before ? 0 : 1)
    if reactionLog.count - runsBefore != expectedRuns {
      fail(
        "the reaction ran \(reactionLog.count - runsBefore)×, expected \(expectedRuns)× (\(before) → \(now))"
      )
    } else if reactionLog.last != now {
      fail("the reaction saw \(reactionLog.last ?? []), expected \(now)")
    }
  }
}
