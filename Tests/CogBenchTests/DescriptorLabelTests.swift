import Cog
import CogCore
import CogCounters
import Testing

// Declaring a state must cost the same whatever the process did before: a default label
// formatted at declaration ("Cog<Int>#1000005") no longer fits a small string once ids pass
// six digits, so declaring a cog allocated once more after a million earlier descriptors,
// and the benchmark counts depended on the phases that ran before them (issue 10, item 1).
// Bytes are counted on this thread only (`thread.allocated` under jemalloc, the interposer's
// per-thread count otherwise), so concurrent tests cannot disturb them.

@MainActor
@Suite("Default labels are formatted when read, not when declared")
struct DescriptorLabelTests {
  /// Bytes allocated on this thread by `body`.
  private func bytes(_ body: () -> Void) throws -> Int {
    let allocations = AllocationProducer()
    try #require(allocations.availability == .available)
    allocations.reset()
    allocations.hook()
    body()
    allocations.unhook()
    return try #require(allocations.snapshot().bytes.value)
  }

  /// Pushes the process's descriptor ids past six digits.
  private func makeIDsLong() {
    while Registry.makeDescriptorID() < 1_000_000 {}
  }

  @Test("a default-labelled cog allocates no more than a labelled one, after a million ids")
  func manualCog() throws {
    makeIDsLong()
    var kept: [AnyObject] = []
    kept.reserveCapacity(16)
    // First declarations pay one-time costs (the shared == holder of Int, type metadata).
    kept.append(Cog(0, label: "warm"))
    kept.append(Cog(0))
    let labelled = try bytes { kept.append(Cog(0, label: "x")) }
    let unlabelled = try bytes { kept.append(Cog(0)) }
    // A label is kept beside the cog (`KeylessDetails`); without one, the cog is one object.
    #expect(unlabelled <= labelled)
    #expect(unlabelled <= 64)
    let cog = kept.last as! Cog<Int>
    #expect(cog.label == "Cog<Int>#\(cog.id)")
    #expect(cog.id >= 1_000_000)
  }

  @Test("the same for automatic cogs and keyed boxes")
  func automaticAndBox() throws {
    makeIDsLong()
    var kept: [AnyObject] = []
    kept.reserveCapacity(16)
    // First declarations pay one-time costs (type metadata, closure contexts' metadata).
    kept.append(Cog(label: "warm") { _ in 1 })
    kept.append(Cog { _ in 1 })
    kept.append(CogBox(label: "warm") { (k: Int, _) in k })
    kept.append(CogBox { (k: Int, _) in k })
    let automaticLabelled = try bytes { kept.append(Cog(label: "x") { _ in 1 }) }
    let automatic = try bytes { kept.append(Cog { _ in 1 }) }
    // A label is an object of its own (`KeylessExtras`); none is made without one.
    #expect(automatic < automaticLabelled)
    let boxLabelled = try bytes { kept.append(CogBox(label: "x") { (k: Int, _) in k }) }
    let box = try bytes { kept.append(CogBox { (k: Int, _) in k }) }
    #expect(box == boxLabelled)
    let b = kept.last as! CogBox<Int, Int>
    #expect(b.label == "CogBox<Int, Int>#\(b.id)")
    #expect(b[3].label == "CogBox<Int, Int>#\(b.id)[3]")
  }
}
