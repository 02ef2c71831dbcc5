import CogBenchCases
import CogCounters

/// What to measure in one `run`.
@MainActor
struct MeasurePlan {
  var cases: [CaseInfo]
  var systems: [SystemEntry]
  var size: CaseSize
  var samples: Int
  var warmupSamples: Int
  var metrics: Set<Metric>
  /// Wall-clock budget of the timing phase per case (all systems together), in nanoseconds:
  /// sampling stops at `samples` or, after `minimumSamples`, when the budget is spent.
  var timeBudgetNanoseconds: UInt64 = .max
  static let minimumSamples = 3
  /// Warm-up samples before a counted or instruction sample: fixed, so that counts do not
  /// depend on options or time.
  static let countedWarmupSamples = 1
}

// MARK: Measured regions
//
// Each region takes the case's iteration as a non-escaping closure, so calling it needs no
// retain; everything the harness does around it is outside the counted window. The
// `calibrate` command checks that an empty region counts 0 allocations, retains and releases.

@MainActor @inline(never)
func runIterations(_ iterate: @MainActor () -> Void, _ count: Int) {
  var i = 0
  while i < count {
    iterate()
    i += 1
  }
}

/// Wall and thread-CPU nanoseconds of `count` iterations.
@MainActor @inline(never)
func timedSample(_ iterate: @MainActor () -> Void, _ count: Int) -> (wall: UInt64, cpu: UInt64) {
  let c0 = BenchClock.threadCPUNanoseconds()
  let t0 = BenchClock.monotonicNanoseconds()
  runIterations(iterate, count)
  let t1 = BenchClock.monotonicNanoseconds()
  let c1 = BenchClock.threadCPUNanoseconds()
  return (t1 &- t0, c1 &- c0)
}

/// Allocations, retains and releases of `count` iterations.
@MainActor @inline(never)
func countedSample(
  _ iterate: @MainActor () -> Void, _ count: Int, _ allocations: AllocationProducer,
  _ arc: ARCProducer
) -> (AllocationProducer.Snapshot, ARCProducer.Snapshot) {
  allocations.reset()
  arc.reset()
  allocations.hook()
  arc.hook()
  runIterations(iterate, count)
  arc.unhook()
  allocations.unhook()
  return (allocations.snapshot(), arc.snapshot())
}

/// One callgrind region: zero, collect, iterate, stop collecting, dump under `name`.
@MainActor @inline(never)
func instructionSample(
  _ iterate: @MainActor () -> Void, _ count: Int, _ callgrind: CallgrindProducer,
  _ name: UnsafePointer<CChar>
) {
  callgrind.reset()
  callgrind.hook()
  runIterations(iterate, count)
  callgrind.unhook()
  callgrind.dump(name)
}

// MARK: Phases

/// Measures a plan: the timing phase in this process (the systems of a case interleaved),
/// and one counted or instruction region per case × system in a child (`RegionRun`).
@MainActor
final class Measurer {
  let plan: MeasurePlan
  private(set) var results: [String: CaseResult] = [:]

  init(plan: MeasurePlan) { self.plan = plan }

  private func key(_ c: CaseInfo, _ s: SystemEntry) -> String { "\(c.id)@\(s.id)" }

  /// The result entry for case × system, created on first use.
  func entry(_ c: CaseInfo, _ s: SystemEntry) -> CaseResult {
    results[key(c, s)]
      ?? CaseResult(
        id: key(c, s), caseID: c.id, family: c.family, system: s.id,
        notApplicable: nil, iterationsPerSample: 0,
        checks: CheckOutcome(passed: true, failures: []), metrics: [:])
  }

  /// Merges a region child's result into the entry of the same case × system.
  func merge(_ other: CaseResult) {
    guard var r = results[other.id] else {
      results[other.id] = other
      return
    }
    r.merge(other)
    results[other.id] = r
  }

  func update(_ c: CaseInfo, _ s: SystemEntry, _ body: (inout CaseResult) -> Void) {
    var r = entry(c, s)
    body(&r)
    results[key(c, s)] = r
  }

  /// The case's not-applicable reason on this system, recorded; nil when it applies.
  func notApplicable(_ c: CaseInfo, _ s: SystemEntry) -> String? {
    let reason: String?
    if let b = s.bound(c.id) {
      reason = b.notApplicableReason
    } else {
      reason = "the system's registry has no case \(c.id)"
    }
    if let reason { update(c, s) { $0.notApplicable = reason } }
    return reason
  }

  /// Builds case × system on a fresh system (not measured), or records why it cannot be.
  func prepare(_ c: CaseInfo, _ s: SystemEntry) -> Prepared? {
    if notApplicable(c, s) != nil { return nil }
    let checks = CaseChecks()
    let bound = s.bound(c.id)!
    let prepared = bound.prepare(plan.size, checks)
    guard let p = prepared else {
      update(c, s) { $0.notApplicable = "prepare returned nil for this system" }
      return nil
    }
    update(c, s) {
      $0.iterationsPerSample = p.iterationsPerSample
      if let created = c.createdRows {
        $0.createdRowsPerIteration = created.count(plan.size)
        $0.createdRowKind = created.kind
      }
      // The declared reruns are those of a memoizing system; one without memoization reruns
      // rows per read instead, so the record does not divide its instructions by them.
      if s.capabilities.contains(.memoizedComputeds) {
        $0.recomputesPerIteration = c.recomputesPerIteration
      }
    }
    return Prepared(case: p, checks: checks)
  }

  /// Runs up to `count` unmeasured samples (each with its `beforeSample`); stops early, after
  /// at least one, once they have taken `budget` nanoseconds.
  func warmUp(_ p: PreparedCase, _ count: Int, budget: UInt64 = .max) {
    let start = BenchClock.monotonicNanoseconds()
    for _ in 0..<count {
      p.beforeSample?()
      runIterations(p.iterate, p.iterationsPerSample)
      if BenchClock.monotonicNanoseconds() &- start >= budget { break }
    }
  }

  /// What every region child does first: a build, one sample, `finish` and `tearDown`,
  /// unmeasured, which pays the process's one-time costs (type metadata, conformance caches,
  /// the runtime's tables growing); then a fresh allocator state for this thread
  /// (`AllocationProducer.freshHeap`). What came before depends on the build (the catalog of
  /// every system it holds fills the runtime's tables and the heap), and a region must not:
  /// otherwise adding a layout variant moves every other system's counts
  /// (scripts/isolation-check.sh). False when the case does not apply.
  func settle(_ c: CaseInfo, _ s: SystemEntry) throws -> Bool {
    guard let first = prepare(c, s) else { return false }
    warmUp(first.case, 1)
    finish(c, s, first, phase: "first build")
    if let problem = AllocationProducer.freshHeap() { throw BenchError(problem) }
    return true
  }

  /// `finish`, then the failures, then `tearDown`.
  func finish(_ c: CaseInfo, _ s: SystemEntry, _ p: Prepared, phase: String) {
    p.case.finish()
    let failures = p.checks.failures
    let count = p.checks.failureCount
    p.case.tearDown()
    if count > 0 {
      update(c, s) {
        $0.checks.passed = false
        $0.checks.failures += failures.map { "\(phase): \($0)" }
        if count > failures.count {
          $0.checks.failures.append("\(phase): \(count - failures.count) more failed check(s)")
        }
      }
    }
  }

  /// Samples every applicable system of each case in turn (system order rotates per sample)
  /// so that drifts of a shared machine spread evenly over the systems being compared.
  func runTiming() {
    let wantWall = plan.metrics.contains(.wallTime)
    let wantCPU = plan.metrics.contains(.cpuTime)
    guard wantWall || wantCPU else { return }
    for (index, c) in plan.cases.enumerated() {
      note("[time \(index + 1)/\(plan.cases.count)] \(c.id)")
      var bound: [(SystemEntry, Prepared)] = []
      for s in plan.systems {
        if let p = prepare(c, s) { bound.append((s, p)) }
      }
      let budget = plan.timeBudgetNanoseconds
      let perSystem = bound.isEmpty ? budget : budget / UInt64(bound.count)
      for (_, p) in bound { warmUp(p.case, plan.warmupSamples, budget: perSystem / 4) }
      var wall = [[Double]](repeating: [], count: bound.count)
      var cpu = [[Double]](repeating: [], count: bound.count)
      let start = BenchClock.monotonicNanoseconds()
      for sample in 0..<plan.samples {
        if sample >= MeasurePlan.minimumSamples,
          BenchClock.monotonicNanoseconds() &- start >= budget
        {
          break
        }
        for k in 0..<bound.count {
          let j = (k + sample) % bound.count
          let p = bound[j].1.case
          p.beforeSample?()
          let t = timedSample(p.iterate, p.iterationsPerSample)
          let n = Double(max(p.iterationsPerSample, 1))
          wall[j].append(Double(t.wall) / n)
          cpu[j].append(Double(t.cpu) / n)
        }
      }
      for (j, (s, b)) in bound.enumerated() {
        finish(c, s, b, phase: "time")
        update(c, s) {
          if wantWall { $0.metrics[Metric.wallTime.rawValue] = .spread(.wallTime, wall[j]) }
          if wantCPU { $0.metrics[Metric.cpuTime.rawValue] = .spread(.cpuTime, cpu[j]) }
        }
      }
    }
  }

  /// The counted region of case × system, in the `__region` child (`RegionRun`): the process
  /// is fresh, so the counts cannot depend on what else the run measures.
  ///
  /// 1. `settle`: a first build, one sample, `finish` and `tearDown`, unmeasured: it pays the
  ///    process's one-time costs (type metadata, protocol conformance caches, first-use
  ///    buffers of the runtime and Foundation), which belong to no graph; then a fresh heap.
  /// 2. A second build with the allocation counter hooked from before `prepare` until after
  ///    its first `beforeSample` and one sample: the bytes it leaves live are `graphBytes`,
  ///    the graph as it runs (cases that build in `beforeSample`, such as CellX, included).
  /// 3. `beforeSample`, then one counted sample: allocations, bytes, peak, retains, releases.
  func countRegion(_ c: CaseInfo, _ s: SystemEntry) throws {
    let wantARC = plan.metrics.contains { $0.usesARCCounter }
    let allocations = AllocationProducer()
    let arc: ARCProducer = wantARC ? ARCProducer() : ARCProducer.disabled
    guard try settle(c, s) else { return }

    allocations.reset()
    allocations.hook()
    let prepared = prepare(c, s)
    if let p = prepared?.case { warmUp(p, MeasurePlan.countedWarmupSamples) }
    allocations.unhook()
    guard let b = prepared else { return }
    let built = allocations.snapshot()
    let p = b.case
    p.beforeSample?()
    let (a, r) = countedSample(p.iterate, p.iterationsPerSample, allocations, arc)
    // Registrars only where views read (the boundary cases): elsewhere the count is the
    // system's constant (0 for Cog, one per model for @Observable) and says nothing new.
    let registrars = c.requirements.contains(.uiReads) ? p.registrarCount?() ?? nil : nil
    finish(c, s, b, phase: "count")
    update(c, s) { e in
      func put(_ m: Metric, _ reading: CounterReading) {
        if plan.metrics.contains(m) { e.metrics[m.rawValue] = .count(m, reading) }
      }
      put(.graphBytes, built.liveBytes)
      put(.allocations, a.allocations)
      put(.allocatedBytes, a.bytes)
      put(.peakBytes, a.peakBytes)
      put(.retains, r.retains)
      put(.releases, r.releases)
      if let n = registrars { put(.registrars, .available(n)) }
      var misses: [String] = []
      if c.steadyStateTargets.contains(.noAllocations), let n = a.allocations.value, n > 0 {
        misses.append("target: no allocations in steady iterations; counted \(n)")
      }
      if c.steadyStateTargets.contains(.noRetainRelease) {
        let rr = (r.retains.value ?? 0) + (r.releases.value ?? 0)
        if rr > 0 {
          misses.append("target: no retains/releases in steady iterations; counted \(rr)")
        }
      }
      if !misses.isEmpty { e.steadyStateMisses = misses }
    }
  }

  /// The callgrind region of case × system, in the `__region` child run under valgrind:
  /// `settle`, then build and warm-up uninstrumented, then one sample, dumped as
  /// `RegionRun.dumpName`.
  func instructionRegion(_ c: CaseInfo, _ s: SystemEntry) throws {
    let callgrind = CallgrindProducer()
    guard try settle(c, s), let b = prepare(c, s) else { return }
    let p = b.case
    warmUp(p, MeasurePlan.countedWarmupSamples)
    p.beforeSample?()
    RegionRun.dumpName.withCString { cName in
      callgrind.startInstrumentation()
      instructionSample(p.iterate, p.iterationsPerSample, callgrind, cName)
      callgrind.stopInstrumentation()
    }
    finish(c, s, b, phase: "instructions")
  }

  /// The cache region of case × system, in the `__region` child run under callgrind with the
  /// cache simulator (`CacheRun`): the same window as `instructionRegion`, but the simulator
  /// is on from before what natively precedes a timed sample (its `beforeSample`, or for
  /// cases without one the warm-up sample), so that the simulated caches hold what the
  /// native caches would when the sample starts.
  func cacheRegion(_ c: CaseInfo, _ s: SystemEntry) throws {
    let callgrind = CallgrindProducer()
    guard try settle(c, s), let b = prepare(c, s) else { return }
    let p = b.case
    if p.beforeSample == nil { callgrind.startInstrumentation() }
    warmUp(p, MeasurePlan.countedWarmupSamples)
    if p.beforeSample != nil { callgrind.startInstrumentation() }
    p.beforeSample?()
    RegionRun.dumpName.withCString { cName in
      instructionSample(p.iterate, p.iterationsPerSample, callgrind, cName)
    }
    callgrind.stopInstrumentation()
    finish(c, s, b, phase: "cache")
  }
}

/// A prepared case and the checks it reports to.
@MainActor
struct Prepared {
  var `case`: PreparedCase
  var checks: CaseChecks
}
