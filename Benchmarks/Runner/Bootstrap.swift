/// A percentile bootstrap of the ratio of two medians: how far the wall-time ratio of a system
/// to Cog could move with other samples of the same run. Seeded, so that a render of the same
/// result files writes the same intervals.
enum Bootstrap {
  static let resamples = 2000

  /// The 95% interval of median(`a`) ÷ median(`b`) over `resamples` resamplings of both (with
  /// replacement); nil with fewer than 3 samples on either side or a zero median.
  static func ratioInterval(_ a: [Double], _ b: [Double]) -> (low: Double, high: Double)? {
    guard a.count >= 3, b.count >= 3 else { return nil }
    var rng = SplitMix64(seed: 0x00C0_FFEE)
    var ratios: [Double] = []
    ratios.reserveCapacity(resamples)
    var ra = a
    var rb = b
    for _ in 0..<resamples {
      for k in ra.indices { ra[k] = a[Int(rng.next() % UInt64(a.count))] }
      for k in rb.indices { rb[k] = b[Int(rng.next() % UInt64(b.count))] }
      let mb = median(rb)
      guard mb > 0 else { return nil }
      ratios.append(median(ra) / mb)
    }
    ratios.sort()
    return (ratios[Int(Double(resamples) * 0.025)], ratios[Int(Double(resamples) * 0.975) - 1])
  }

  static func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    let mid = s.count / 2
    return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
  }

  /// Steele's SplitMix64: small, fast, and the same sequence on every platform.
  struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
