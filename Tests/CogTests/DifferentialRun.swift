import Foundation

/// The seeds and the reporting of one differential run, read from the environment under a
/// prefix (`COG_DIFF` for the sync family, `COG_ASYNC_DIFF` for the async one):
///
/// - `<prefix>_SEED=<seed>`: replay that one seed.
/// - `<prefix>_CASES=<n>`: try the first `n` seeds of the family's sequence (else the test's
///   default count).
/// - `<prefix>_SHARD=<i>/<n>`: of those, only every `n`-th one starting at the `i`-th
///   (0 ≤ i < n), so that the shards `0/n` … `(n-1)/n` together run exactly the unsharded seeds.
/// - `<prefix>_RUNTIMES=<a,b,…>`: only the runtimes whose name contains one of these (the
///   others run no seed), to finish or repeat a long run on some runtimes.
/// - `<prefix>_PROGRESS=<k>`: print a tab-separated progress line every `k` cases, one per
///   failing seed and one when a runtime is done (`scripts/differential-long.sh` reads them).
struct DifferentialRun {
  let name: String
  let seeds: [UInt64]
  let total: Int
  private let progressEvery: Int?
  private(set) var done = 0
  private(set) var failures = 0

  /// `seed(i)` is the family's `i`-th seed.
  init(
    prefix: String, runtime name: String, defaultCases: Int,
    environment env: [String: String] = ProcessInfo.processInfo.environment,
    seed: (UInt64) -> UInt64
  ) {
    self.name = name
    let only = env["\(prefix)_RUNTIMES"].map { $0.split(separator: ",").map(String.init) }
    if let only, !only.contains(where: { name.contains($0) }) {
      seeds = []
    } else if let one = env["\(prefix)_SEED"].flatMap(UInt64.init) {
      seeds = [one]
    } else {
      let count = env["\(prefix)_CASES"].flatMap(Int.init) ?? defaultCases
      let (index, shards) = Self.shard(env["\(prefix)_SHARD"], variable: "\(prefix)_SHARD")
      seeds = stride(from: index, to: count, by: shards).map { seed(UInt64($0)) }
    }
    total = seeds.count
    progressEvery = env["\(prefix)_PROGRESS"].flatMap(Int.init).map { max(1, $0) }
  }

  /// Parses `i/n`; a malformed value stops the run with a message rather than running a
  /// different set of seeds than asked.
  static func shard(_ value: String?, variable: String) -> (index: Int, shards: Int) {
    guard let value else { return (0, 1) }
    let parts = value.split(separator: "/").map { Int($0) }
    guard parts.count == 2, let i = parts[0], let n = parts[1], n > 0, (0..<n).contains(i) else {
      fatalError("\(variable)=\(value): expected i/n with 0 <= i < n, such as 0/2")
    }
    return (i, n)
  }

  /// One case ended; `problem` is its mismatch, if any.
  mutating func finished(seed: UInt64, problem: String?) {
    done += 1
    if problem != nil {
      failures += 1
      report("failing-seed", "\(seed)")
    }
    if let every = progressEvery, done % every == 0 || done == total {
      report("progress", "\(done)", "\(total)", "\(failures)")
    }
  }

  /// The run is over (all its seeds, or stopped after too many failures).
  func end() { report("done", "\(done)", "\(failures)") }

  private func report(_ fields: String...) {
    guard progressEvery != nil else { return }
    print((["COG-DIFF", fields[0], name] + fields.dropFirst()).joined(separator: "\t"))
    fflush(nil)  // every output stream: a pipe buffers, and the script reads as it goes
  }
}
