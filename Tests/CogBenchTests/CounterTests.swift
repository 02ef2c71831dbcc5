import CogCounters
import Foundation
import Testing

// Plumbing of the counters in whatever build the tests run in (usually debug). Exact counts
// hold only in release builds and are checked there by `cog-bench calibrate`; these tests check
// lower bounds, isolation and the reporting of unavailable counters.

private final class CountedObject {
  var value: Int
  init(_ value: Int) { self.value = value }
}

@inline(never) private func retainOpaquely(_ reference: Unmanaged<CountedObject>) {
  _ = reference.retain()
}

@inline(never) private func releaseOpaquely(_ reference: Unmanaged<CountedObject>) {
  reference.release()
}

@inline(never) private func makeObjects(_ count: Int) -> [CountedObject] {
  (0..<count).map { CountedObject($0) }
}

@Suite("Counters")
struct CounterTests {
  @Test("the ARC hooks install and validate, or say why not")
  @MainActor func arcAvailability() {
    let arc = ARCProducer()
    switch arc.availability {
    case .available: break
    case .unavailable(let reason): #expect(!reason.isEmpty)
    }
  }

  @Test("a retain and a release through the runtime are counted while hooked")
  @MainActor func arcCountsWhileHooked() throws {
    let arc = ARCProducer()
    try #require(arc.availability == .available, "ARC hooks unavailable on this machine")
    let object = CountedObject(1)
    let reference = Unmanaged.passUnretained(object)
    arc.reset()
    arc.hook()
    retainOpaquely(reference)
    releaseOpaquely(reference)
    arc.unhook()
    let counts = arc.snapshot()
    #expect((counts.retains.value ?? 0) >= 1)
    #expect((counts.releases.value ?? 0) >= 1)
    withExtendedLifetime(object) {}
  }

  @Test("nothing is counted while unhooked")
  @MainActor func arcSilentWhenUnhooked() throws {
    let arc = ARCProducer()
    try #require(arc.availability == .available, "ARC hooks unavailable on this machine")
    let object = CountedObject(1)
    let reference = Unmanaged.passUnretained(object)
    arc.reset()
    retainOpaquely(reference)
    releaseOpaquely(reference)
    let counts = arc.snapshot()
    #expect(counts.retains == .available(0))
    #expect(counts.releases == .available(0))
    withExtendedLifetime(object) {}
  }

  @Test("the disabled ARC producer reports unavailable, never 0")
  func arcDisabled() {
    let snapshot = ARCProducer.disabled.snapshot()
    #expect(snapshot.retains.value == nil)
    #expect(snapshot.retains.unavailableReason != nil)
    #expect(snapshot.releases.unavailableReason != nil)
  }

  @Test("allocations of class instances are counted while hooked, with their bytes")
  @MainActor func allocationsCounted() throws {
    let allocations = AllocationProducer()
    try #require(allocations.availability == .available)
    allocations.reset()
    allocations.hook()
    let objects = makeObjects(100)
    allocations.unhook()
    let counts = allocations.snapshot()
    #expect((counts.allocations.value ?? 0) >= 100)
    #expect((counts.bytes.value ?? 0) >= 100 * 24)
    #expect((counts.liveBytes.value ?? 0) >= 100 * 24)
    switch allocations.source {
    case .interposer: #expect((counts.peakBytes.value ?? 0) >= 100 * 24)
    case .jemalloc: #expect(counts.peakBytes.unavailableReason != nil)
    }
    withExtendedLifetime(objects) {}
  }

  // jemalloc's statistics are process-wide and have no per-thread switch.
  @Test(
    "the malloc interposer counts only while hooked",
    .enabled(if: AllocationProducer.buildSource == .interposer))
  @MainActor func interposerSilentWhenUnhooked() throws {
    let allocations = AllocationProducer()
    allocations.reset()
    let objects = makeObjects(10)
    #expect(allocations.snapshot().allocations == .available(0))
    withExtendedLifetime(objects) {}
  }

  @Test("a fresh heap keeps earlier objects valid, and counting works after it")
  @MainActor func freshHeap() throws {
    let allocations = AllocationProducer()
    try #require(allocations.availability == .available)
    let before = makeObjects(10)
    #expect(AllocationProducer.freshHeap() == nil)
    allocations.reset()
    allocations.hook()
    let after = makeObjects(100)
    allocations.unhook()
    #expect((allocations.snapshot().allocations.value ?? 0) >= 100)
    #expect(before.count == 10 && after.count == 100)
    withExtendedLifetime((before, after)) {}
  }

  @Test("the allocation source is named")
  @MainActor func allocationSourceNamed() {
    let allocations = AllocationProducer()
    #expect(allocations.source == AllocationProducer.buildSource)
    #expect(allocations.sourceDescription.hasPrefix(allocations.source.rawValue))
  }

  @Test("perf_event_open either works or reports the errno")
  func perfAvailability() {
    let perf = PerfInstructionProducer()
    switch perf.availability {
    case .available:
      perf.reset()
      perf.hook()
      blackHole(opaque(42))
      perf.unhook()
      #expect(perf.snapshot().value != nil)
    case .unavailable(let reason):
      #expect(reason.contains("perf_event_open"))
      #expect(perf.snapshot().unavailableReason == reason)
    }
  }

  @Test("callgrind client requests are no-ops outside valgrind")
  func callgrindNative() {
    #expect(!CallgrindProducer.isRunningOnValgrind)
    let callgrind = CallgrindProducer()
    callgrind.startInstrumentation()
    callgrind.reset()
    callgrind.hook()
    callgrind.unhook()
    "test-region".withCString { callgrind.dump($0) }
    callgrind.stopInstrumentation()
  }

  @Test("a reading encodes as a value or a reason, and decodes back")
  func readingCodable() throws {
    let readings: [CounterReading] = [.available(0), .available(12), .unavailable("no PMU")]
    let data = try JSONEncoder().encode(readings)
    #expect(try JSONDecoder().decode([CounterReading].self, from: data) == readings)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"unavailable\":\"no PMU\""))
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(CounterReading.self, from: Data("{}".utf8))
    }
  }

  @Test("the clocks move forward")
  func clocks() {
    let t0 = BenchClock.monotonicNanoseconds()
    let c0 = BenchClock.threadCPUNanoseconds()
    var x: UInt64 = 0
    for i in 0..<100_000 { x &+= opaque(UInt64(i)) }
    blackHole(x)
    #expect(BenchClock.monotonicNanoseconds() > t0)
    #expect(BenchClock.threadCPUNanoseconds() >= c0)
  }
}
