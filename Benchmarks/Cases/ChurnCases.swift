// The M6 comparison's churn cases (issue 12): a keyed read whose key moves (seed 001's
// weatherHereCog) and high dependency churn (where prefix arrays are said to win, seed 000
// §3.3). Expected values follow from the graph by the arithmetic stated next to each check.

/// Seed 001's `weatherHereCog`: R readers `here[i] = weather[c[zip[i]]]`, each reading a
/// keyed state whose key comes from another state; an effect sums them. Z zips are warm (read
/// once when the case is built, `.context` lifetime). Each iteration writes a new temperature
/// and moves every reader to the next zip (`zip[i] = (i + t) mod Z`): every reader reruns,
/// drops its old key and reads a new one (a dynamic switch per reader per turn); each key now
/// read recomputes once (the temperature changed), the others stay unread.
public struct CogKeyedSwitch: KeyedBenchmarkCase {
  public init() {}
  public var id: String { "cog/keyed-switch" }
  public var summary: String {
    "weatherHere: 500 readers of weather[zip[i]], every zip moved each turn (1000 warm keys)"
  }

  @inlinable
  public func prepare<S: KeyedReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let zips = size == .full ? 1000 : 100
    let readers = size == .full ? 500 : 50
    let counts = RunCounter()  // runs: reader bodies, other: weather bodies, total: effect sum
    let effectRuns = CaseState(0)
    let (temperature, zip, weather) = s.withBuild {
      () -> (SignalHandle<Int>, [SignalHandle<Int>], KeyedHandle<Int, Int>) in
      let temperature = s.signal(0)
      let weather = s.box { (z: Int) -> Int in
        counts.other &+= 1
        return s.read(temperature) + z
      }
      let zip = (0..<readers).map { s.signal($0) }
      let here = zip.map { z in
        s.computed { () -> Int in
          counts.runs &+= 1
          return s.read(weather, key: s.read(z))
        }
      }
      s.effect {
        effectRuns.value &+= 1
        var t = 0
        for h in here { t += s.read(h) }
        counts.total = t
      }
      return (temperature, zip, weather)
    }
    for z in 0..<zips { _ = s.read(weather, key: z) }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 20 : 5) {
      counts.reset()
      effectRuns.value = 0
      tick.value += 1
      let t = tick.value
      s.withBatch {
        s.write(temperature, t)
        for i in 0..<readers { s.write(zip[i], (i + t) % zips) }
      }
      // Σ_i (t + (i + t) mod Z)
      var expected = readers * t
      for i in 0..<readers { expected += (i + t) % zips }
      checks.expect(
        effectRuns.value == 1 && counts.total == expected,
        "cog/keyed-switch: effect ran \(effectRuns.value)× with \(counts.total), expected 1× "
          + "with \(expected)")
      if memoized {
        checks.expect(
          counts.runs == readers && counts.other == readers,
          "cog/keyed-switch: readers/weather ran \(counts.runs)/\(counts.other)×, expected "
            + "\(readers) each")
      }
    }
  }
}

/// High dependency churn: M computeds each read a selector and then a window of D of the S
/// sources, `c[j] = Σ_{k<D} src[(j + sel + k) mod S]`; each iteration moves the selector by
/// one, so every computed reruns with the same first dependency (the selector) and a window
/// shifted by one: from its second read on, each run's reads differ from the last run's at
/// every position, one source leaves and one comes in. An effect sums the computeds.
public struct CogDependencyChurn: BenchmarkCase {
  public init() {}
  public var id: String { "cog/dependency-churn" }
  public var summary: String {
    "dependency churn: 1000 computeds over a window of 8 of 64 sources, shifted every turn"
  }

  @inlinable
  public func prepare<S: ReactiveSystem>(on system: S, size: CaseSize, checks: CaseChecks)
    -> PreparedCase?
  {
    let s = Guaranteed(system)
    let sourceCount = 64
    let window = 8
    let computeds = size == .full ? 1000 : 100
    let counts = RunCounter()  // runs: computed bodies, other: effect runs, total: effect sum
    let selector = s.withBuild { () -> SignalHandle<Int> in
      let selector = s.signal(0)
      let sources = (0..<sourceCount).map { s.signal($0) }
      let cs = (0..<computeds).map { j in
        s.computed { () -> Int in
          counts.runs &+= 1
          let first = s.read(selector) + j
          var t = 0
          for k in 0..<window { t += s.read(sources[(first + k) % sourceCount]) }
          return t
        }
      }
      s.effect {
        counts.other &+= 1
        var t = 0
        for c in cs { t += s.read(c) }
        counts.total = t
      }
      return selector
    }
    let memoized = S.capabilities.contains(.memoizedComputeds)
    let tick = CaseState(0)
    return PreparedCase(iterationsPerSample: size == .full ? 20 : 5) {
      counts.reset()
      tick.value += 1
      let t = tick.value
      s.withBatch { s.write(selector, t) }
      // src[i] = i: Σ_j Σ_{k<D} ((j + t + k) mod S)
      var expected = 0
      for j in 0..<computeds {
        for k in 0..<window { expected += (j + t + k) % sourceCount }
      }
      checks.expect(
        counts.other == 1 && counts.total == expected,
        "cog/dependency-churn: effect ran \(counts.other)× with \(counts.total), expected 1× "
          + "with \(expected)")
      if memoized {
        checks.expect(
          counts.runs == computeds,
          "cog/dependency-churn: computeds ran \(counts.runs)×, expected \(computeds)")
      }
    }
  }
}
