import CogCounters
import Foundation

/// Known workloads whose counts are exact in release builds. `cog-bench calibrate` runs each
/// three times and fails unless every run gives the expected counts; under valgrind it runs a
/// fixed loop in three separate processes and fails unless the instruction counts agree.
@MainActor
enum Calibration {
  /// Objects per workload.
  static let objects = 1000
  /// Ints in the final-class buffer.
  static let ints = 10_000

  struct Expectation {
    var allocations: Int?
    var allocatedBytes: Int?
    var retains: Int?
    var releases: Int?
  }

  struct Workload {
    var name: String
    var expected: Expectation
    /// Builds the fixture (not counted) and returns the counted body and a teardown.
    var make: () -> (body: () -> Void, teardown: () -> Void)
  }

  /// Heap bytes of one `CalibrationNode`: a 16-byte object header plus one Int, rounded by
  /// jemalloc to its 32-byte size class.
  static func nodeBytes(_ source: AllocationProducer.Source) -> Int {
    source == .interposer ? 16 + MemoryLayout<Int>.size : 32
  }

  static func workloads(_ source: AllocationProducer.Source) -> [Workload] {
    let n = objects
    return [
      Workload(
        name: "empty region",
        expected: Expectation(allocations: 0, allocatedBytes: 0, retains: 0, releases: 0),
        make: { ({}, {}) }),
      Workload(
        name: "\(n) class instances into a buffer",
        expected: Expectation(
          allocations: n, allocatedBytes: n * nodeBytes(source), retains: 0, releases: 0),
        make: {
          let buffer = UnsafeMutablePointer<CalibrationNode>.allocate(capacity: n)
          return (
            { makeNodes(buffer, n) },
            {
              buffer.deinitialize(count: n)
              buffer.deallocate()
            }
          )
        }),
      Workload(
        name: "\(n) references copied between buffers",
        expected: Expectation(allocations: 0, allocatedBytes: 0, retains: n, releases: 0),
        make: {
          let a = UnsafeMutablePointer<CalibrationNode>.allocate(capacity: n)
          let b = UnsafeMutablePointer<CalibrationNode>.allocate(capacity: n)
          makeNodes(a, n)
          return (
            { copyNodes(a, b, n) },
            {
              b.deinitialize(count: n)
              a.deinitialize(count: n)
              a.deallocate()
              b.deallocate()
            }
          )
        }),
      Workload(
        name: "\(n) class instances released",
        expected: Expectation(allocations: 0, allocatedBytes: 0, retains: 0, releases: n),
        make: {
          let buffer = UnsafeMutablePointer<CalibrationNode>.allocate(capacity: n)
          makeNodes(buffer, n)
          return ({ releaseNodes(buffer, n) }, { buffer.deallocate() })
        }),
      Workload(
        name: "loop over \(ints) Ints in a final class",
        expected: Expectation(allocations: 0, allocatedBytes: 0, retains: 0, releases: 0),
        make: {
          let holder = IntBufferHolder(count: ints)
          return ({ blackHole(UInt64(bitPattern: Int64(holder.bump()))) }, { _ = holder })
        }),
    ]
  }

  /// Runs every workload `runs` times; returns the printed table rows and whether all held.
  static func runCounters(runs: Int) -> (rows: [String], passed: Bool) {
    let allocations = AllocationProducer()
    let arc = ARCProducer()
    var rows: [String] = []
    var passed = true
    rows.append("allocation counter: \(allocations.sourceDescription)")
    if case .unavailable(let r) = allocations.availability { rows.append("  unavailable: \(r)") }
    rows.append("ARC counter: \(ARCProducer.source)")
    if case .unavailable(let r) = arc.availability { rows.append("  unavailable: \(r)") }
    rows.append(
      "workload".padding(44) + "metric".padding(16) + "expected".leftPadding(10)
        + (1...runs).map { "run \($0)".leftPadding(10) }.joined() + "  verdict")
    for w in workloads(allocations.source) {
      var readings: [[CounterReading]] = []
      for _ in 0..<runs {
        let (body, teardown) = w.make()
        let (a, r) = countedSample(body, 1, allocations, arc)
        teardown()
        readings.append([a.allocations, a.bytes, r.retains, r.releases])
      }
      let expected = [
        w.expected.allocations, w.expected.allocatedBytes, w.expected.retains, w.expected.releases,
      ]
      for (k, metric) in ["allocations", "allocatedBytes", "retains", "releases"].enumerated() {
        guard let want = expected[k] else { continue }
        let got = readings.map { $0[k] }
        let ok = got.allSatisfy { $0 == .available(want) }
        if !ok { passed = false }
        let cells = got.map { ($0.value.map(String.init) ?? "unavail").leftPadding(10) }.joined()
        rows.append(
          w.name.padding(44) + metric.padding(16) + String(want).leftPadding(10) + cells
            + "  " + (ok ? "ok" : "FAIL"))
      }
    }
    return (rows, passed)
  }

  /// The child run under callgrind: a fixed loop and an empty region, one dump each.
  static func instructionLoopChild(iterations: Int) {
    let callgrind = CallgrindProducer()
    callgrind.startInstrumentation()
    let n = Int(opaque(UInt64(iterations)))
    "calibration-loop".withCString { name in
      instructionSample({ blackHole(fixedLoop(n)) }, 1, callgrind, name)
    }
    "calibration-empty".withCString { name in
      instructionSample({}, 1, callgrind, name)
    }
  }
}

/// The object the allocation workloads create.
final class CalibrationNode {
  var value: Int
  init(_ value: Int) { self.value = value }
}

/// A final class holding an Int buffer, looped over without ARC traffic.
final class IntBufferHolder {
  var storage: [Int]
  init(count: Int) { storage = Array(repeating: 1, count: count) }

  @inline(never) func bump() -> Int {
    storage.withUnsafeMutableBufferPointer { b in
      var sum = 0
      for i in b.indices {
        b[i] &+= 1
        sum &+= b[i]
      }
      return sum
    }
  }
}

@inline(never) func makeNodes(_ buffer: UnsafeMutablePointer<CalibrationNode>, _ n: Int) {
  for i in 0..<n {
    (buffer + i).initialize(to: CalibrationNode(Int(opaque(UInt64(i)))))
  }
}

@inline(never) func copyNodes(
  _ from: UnsafeMutablePointer<CalibrationNode>, _ to: UnsafeMutablePointer<CalibrationNode>,
  _ n: Int
) {
  for i in 0..<n { (to + i).initialize(to: from[i]) }
}

@inline(never) func releaseNodes(_ buffer: UnsafeMutablePointer<CalibrationNode>, _ n: Int) {
  for i in 0..<n { (buffer + i).deinitialize(count: 1) }
}

/// 4-5 instructions per iteration; the result feeds `blackHole` so the loop cannot vanish.
@inline(never) func fixedLoop(_ n: Int) -> UInt64 {
  var s: UInt64 = 0
  var i: UInt64 = 0
  let end = UInt64(n)
  while i < end {
    s = (s &+ i &* 3) ^ (s >> 1)
    i &+= 1
  }
  return s
}
