// sbench cases (js-reactivity-benchmark `benches/sBench.ts`, milomg @56eb45e; after Solid's
// bench.cjs): building many effects over many signals, and updating signals read by effects.
//
// JS timing, per sub-case, fastest of 10: inside `withBuild`, make `scount` signals `signal(i)`
// and read each 3 times, THEN start the clock and run `fn(n, sources)` (builds the effects),
// and after `withBuild` run the returned update closure and `cleanup()`, then stop the clock.
// The JS `cleanup()` disposes the effects (an effect scope's dispose, preact's disposers);
// the signals and the disposed effects are garbage, collected after the clock stopped (`gc()`
// between runs). Here `beforeSample` does the untimed part: `collect()` (the last sample's
// garbage), then the signals and their 3 reads; one `iterate()` is the timed part: build the
// effects inside `withBuild`, run the updates (each write in its own `withBatch`), `cleanup()`
// (dispose the effects, free nothing). So `iterationsPerSample == 1`.
//
// The JS has no asserts. The effects here count their runs and sum the values they read (the
// JS effects return those values) in a counter they capture unretained (`UnretainedCounter`:
// the JS effects capture none); both are checked after each iteration. Expected values come
// from plain loops over the same arithmetic (see `expectation`): every effect runs once when
// created, and once per write that changes its signal. Signal i starts at i, so the first write
// (`s0 = 0`) of every update sub-case is a no-op. This holds on every system (no computeds), so
// sbench has no requirements.
//
// `.full` = the published n and scount. `.quick` = n / 100 (the JS warm-up size; n / 1000 for
// update1to1000, 10 writes to 1000 effects) with only the signals that it reads (`quickShape`).

extension PublishedMeasure {
  @inlinable static func sbench(_ group: String) -> PublishedMeasure {
    PublishedMeasure(name: group, samples: 10, aggregate: .fastest, summedOverGroup: true)
  }
}

public enum SBenchCases {
  @inlinable @MainActor
  public static func visit<V: CaseVisitor>(_ v: inout V) {
    for kind in SBenchCase.Kind.allCases { v.visit(SBenchCase(kind)) }
  }
}

public struct SBenchCase: BenchmarkCase {
  public enum Kind: String, CaseIterable, Sendable {
    case createSignals
    case create0to1, create1to1, create2to1, create4to1, create1000to1
    case create1to2, create1to4, create1to8, create1to1000
    case update1to1, update2to1, update4to1, update1000to1
    case update1to2, update1to4, update1to1000
  }

  public let kind: Kind
  @inlinable public init(_ kind: Kind) { self.kind = kind }

  /// The JS group this sub-case is reported in.
  public var group: String {
    switch kind {
    case .createSignals: return "createSignals"
    case .create0to1, .create1to1, .create2to1, .create4to1, .create1000to1, .create1to2,
      .create1to4, .create1to8, .create1to1000:
      return "createComputations"
    default: return "updateSignals"
    }
  }

  public var id: String {
    kind == .createSignals ? "sbench/createSignals" : "sbench/\(group)/\(kind.rawValue)"
  }

  public var summary: String {
    let (n, scount) = fullShape
    return "sbench \(kind.rawValue): n = \(n) over \(scount) signals (build + update + cleanup)"
  }

  public var published: PublishedMeasure? { .sbench(group) }

  /// createSignals makes n signals (manual cogs), the create sub-cases n effects (reactions)
  /// in the timed region; the update sub-cases measure updates, not creation.
  public var createdRows: CreatedRows? {
    switch group {
    case "createSignals": return CreatedRows(.manual, quick: quickShape.n, full: fullShape.n)
    case "createComputations":
      return CreatedRows(.reaction, quick: quickShape.n, full: fullShape.n)
    default: return nil
    }
  }

  /// The published `run(fn, n, scount)` arguments (`COUNT = 1e5`).
  @inlinable public var fullShape: (n: Int, scount: Int) {
    switch kind {
    case .createSignals: return (100_000, 100_000)
    case .create0to1: return (100_000, 0)
    case .create1to1: return (100_000, 100_000)
    case .create2to1: return (50_000, 100_000)
    case .create4to1: return (25_000, 100_000)
    case .create1000to1: return (100, 100_000)
    case .create1to2: return (100_000, 50_000)
    case .create1to4: return (100_000, 25_000)
    case .create1to8: return (100_000, 12_500)
    case .create1to1000: return (100_000, 100)
    case .update1to1: return (400_000, 1)
    case .update2to1: return (200_000, 2)
    case .update4to1: return (100_000, 4)
    case .update1000to1: return (400, 1000)
    case .update1to2: return (100_000, 1)
    case .update1to4: return (100_000, 1)
    case .update1to1000: return (100_000, 1)
    }
  }

  /// n / 100 and the signals that reads (the JS warm-up keeps the full scount; fewer signals
  /// only shorten the untimed setup).
  @inlinable public var quickShape: (n: Int, scount: Int) {
    switch kind {
    case .createSignals: return (1000, 1000)
    case .create0to1: return (1000, 0)
    case .create1to1: return (1000, 1000)
    case .create2to1: return (500, 1000)
    case .create4to1: return (250, 1000)
    case .create1000to1: return (1, 1000)
    case .create1to2: return (1000, 500)
    case .create1to4: return (1000, 250)
    case .create1to8: return (1000, 125)
    case .create1to1000: return (1000, 1)
    case .update1to1: return (4000, 1)
    case .update2to1: return (2000, 2)
    case .update4to1: return (1000, 4)
    case .update1000to1: return (4, 1000)
    case .update1to2: return (1000, 1)
    case .update1to4: return (1000, 1)
    case .update1to1000: return (100, 1)  // n / 1000: 10 writes × 1000 effects
    }
  }

  /// Expected effect runs and the sum of the values the effects read, after one iteration
  /// with `n` (plain loops over the JS arithmetic; signal i holds i until written).
  @inlinable
  public func expectation(n: Int) -> (runs: Int, total: Int) {
    func sum(_ range: Range<Int>, _ f: (Int) -> Int) -> Int {
      var t = 0
      for i in range { t += f(i) }
      return t
    }
    switch kind {
    case .createSignals: return (0, 0)
    case .create0to1: return (n, sum(0..<n) { $0 })  // effect i "returns" i
    case .create1to1: return (n, sum(0..<n) { $0 })
    case .create2to1: return (n, sum(0..<n) { 2 * $0 + 2 * $0 + 1 })
    case .create4to1: return (n, sum(0..<n) { 4 * (4 * $0) + 6 })
    case .create1000to1:
      return (n, sum(0..<n) { i in sum(0..<1000) { i * 1000 + $0 } })
    case .create1to2: return (n / 2 * 2, 2 * sum(0..<(n / 2)) { $0 })
    case .create1to4: return (n / 4 * 4, 4 * sum(0..<(n / 4)) { $0 })
    case .create1to8: return (n / 8 * 8, 8 * sum(0..<(n / 8)) { $0 })
    case .create1to1000: return (n / 1000 * 1000, 1000 * sum(0..<(n / 1000)) { $0 })
    // update*: the effect runs at creation (s0 = 0) and after writes 1 ..< n (write 0 is equal).
    case .update1to1: return (n, sum(0..<n) { $0 })
    case .update2to1: return (n, sum(0..<n) { $0 + 1 })
    case .update4to1: return (n, sum(0..<n) { $0 + 1 + 2 + 3 })
    case .update1000to1: return (n, sum(0..<n) { $0 + sum(1..<1000) { $0 } })
    case .update1to2: return (2 * n, 2 * sum(0..<n) { $0 })
    case .update1to4: return (4 * n, 4 * sum(0..<n) { $0 })
    case .update1to1000: return (1000 * (n / 10), 1000 * sum(0..<(n / 10)) { $0 })
    }
  }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let (n, scount) = size == .full ? fullShape : quickShape
    let expected = expectation(n: n)
    let kind = self.kind
    let id = self.id
    let counter = RunCounter()
    // The signals of the current sample, and (createSignals) the signals the iteration makes.
    let sources = CaseState<[SignalHandle<Int>]>([])
    let created = CaseState<[SignalHandle<Int>]>([])
    let ready = CaseState(false)

    let setUp: @MainActor () -> Void = {
      // The last sample's signals and disposed effects, freed outside the measured region (the
      // JS garbage collector's work).
      sources.value = []
      created.value = []
      s.collect()
      if kind == .createSignals { created.value.reserveCapacity(n) }
      sources.value = s.withBuild { () -> [SignalHandle<Int>] in
        var made: [SignalHandle<Int>] = []
        made.reserveCapacity(scount)
        for i in 0..<scount { made.append(s.signal(i)) }
        for h in made {
          _ = s.read(h)
          _ = s.read(h)
          _ = s.read(h)
        }
        return made
      }
      ready.value = true
    }

    return PreparedCase(
      iterationsPerSample: 1, beforeSample: setUp,
      iterate: {
        if !ready.value { setUp() }
        ready.value = false
        counter.reset()
        // The effects capture the counter unretained (the JS effects capture none).
        let tally = UnretainedCounter(counter)
        let src = sources.value
        // Build (timed in the JS): returns how many writes to s0 the update closure makes.
        let writes = s.withBuild { () -> Int in
          switch kind {
          case .createSignals:
            for i in 0..<n { created.value.append(s.signal(i)) }
            return 0
          case .create0to1:
            for i in 0..<n {
              s.effect {
                tally.countRun()
                tally.add(i)
              }
            }
            return 0
          case .create1to1:
            for i in 0..<n { sbenchEffect1(s, src[i], tally) }
            return 0
          case .create2to1:
            for i in 0..<n {
              let s1 = src[i * 2]
              let s2 = src[i * 2 + 1]
              s.effect {
                tally.countRun()
                tally.add(s.read(s1) + s.read(s2))
              }
            }
            return 0
          case .create4to1:
            for i in 0..<n {
              let s1 = src[i * 4]
              let s2 = src[i * 4 + 1]
              let s3 = src[i * 4 + 2]
              let s4 = src[i * 4 + 3]
              s.effect {
                tally.countRun()
                tally.add(s.read(s1) + s.read(s2) + s.read(s3) + s.read(s4))
              }
            }
            return 0
          case .create1000to1:
            for i in 0..<n { sbenchEffect1000(s, src, offset: i * 1000, tally) }
            return 0
          case .create1to2:
            for i in 0..<(n / 2) { sbenchEffects(s, src[i], count: 2, tally) }
            return 0
          case .create1to4:
            for i in 0..<(n / 4) { sbenchEffects(s, src[i], count: 4, tally) }
            return 0
          case .create1to8:
            for i in 0..<(n / 8) { sbenchEffects(s, src[i], count: 8, tally) }
            return 0
          case .create1to1000:
            for i in 0..<(n / 1000) { sbenchEffects(s, src[i], count: 1000, tally) }
            return 0
          case .update1to1:
            sbenchEffect1(s, src[0], tally)
            return n
          case .update2to1:
            let s1 = src[0]
            let s2 = src[1]
            s.effect {
              tally.countRun()
              tally.add(s.read(s1) + s.read(s2))
            }
            return n
          case .update4to1:
            let s1 = src[0]
            let s2 = src[1]
            let s3 = src[2]
            let s4 = src[3]
            s.effect {
              tally.countRun()
              tally.add(s.read(s1) + s.read(s2) + s.read(s3) + s.read(s4))
            }
            return n
          case .update1000to1:
            sbenchEffect1000(s, src, offset: 0, tally)
            return n
          case .update1to2:
            sbenchEffects(s, src[0], count: 2, tally)
            return n
          case .update1to4:
            sbenchEffects(s, src[0], count: 4, tally)
            return n
          case .update1to1000:
            sbenchEffects(s, src[0], count: 1000, tally)
            return n / 10
          }
        }
        // The update closure (timed), then the JS `cleanup()`: dispose the effects.
        if writes > 0 {
          let s0 = src[0]
          for i in 0..<writes { s.withBatch { s.write(s0, i) } }
        }
        s.cleanup()
        if kind == .createSignals {
          checks.expect(
            created.value.count == n, "\(id): made \(created.value.count) signals, expected \(n)")
        } else {
          checks.expect(
            counter.runs == expected.runs && counter.total == expected.total,
            "\(id): effects ran \(counter.runs)× reading \(counter.total) in all, expected "
              + "\(expected.runs)× reading \(expected.total)")
        }
      })
  }
}

/// `createComputation1(s)`: one effect reading one signal.
@inlinable @MainActor
func sbenchEffect1<S: ReactiveSystem>(
  _ s: Guaranteed<S>, _ s1: SignalHandle<Int>, _ tally: UnretainedCounter
) {
  s.effect {
    tally.countRun()
    tally.add(s.read(s1))
  }
}

/// `count` × `createComputation1(s)`.
@inlinable @MainActor
func sbenchEffects<S: ReactiveSystem>(
  _ s: Guaranteed<S>, _ s1: SignalHandle<Int>, count: Int, _ tally: UnretainedCounter
) {
  for _ in 0..<count { sbenchEffect1(s, s1, tally) }
}

/// `createComputation1000(ss, offset)`: one effect summing 1000 signals.
@inlinable @MainActor
func sbenchEffect1000<S: ReactiveSystem>(
  _ s: Guaranteed<S>, _ sources: [SignalHandle<Int>], offset: Int, _ tally: UnretainedCounter
) {
  s.effect {
    tally.countRun()
    var sum = 0
    for i in 0..<1000 { sum += s.read(sources[offset + i]) }
    tally.add(sum)
  }
}
