import CogCore
import CogEdgePool
import Testing

/// The diagnostics and sweep switches sit in what was padding: neither the context's maps nor its turn
/// state grows (each is one allocation per context, in a malloc size class it should keep).
/// (The sweep's own flag is the collector queue's since stop 58: `OrphanQueue.sweeping`.)
@Suite("Diagnostics layout")
struct DiagnosticsLayoutTests {
  @Test("the switches take padding: the fields after them keep their offsets")
  func padding() {
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.countsRuns) == 8)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.hasDiagnostics) == 9)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.sweepsAfterFlush) == 10)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.ownersAddedSinceSweep) == 12)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.keyIndexes) == 16)
    typealias Turns = TurnState<SharedEdgePool>
    #expect(MemoryLayout<Turns>.offset(of: \Turns.turnHooks) == 42)
    #expect(MemoryLayout<Turns>.offset(of: \Turns.drainIndex) == 48)
    #expect(MemoryLayout<Turns>.size == 96)
    // `recompute`'s one byte for its cold paths, after `nextOrder`: the struct keeps its size.
    typealias Track = Tracking<SharedEdgePool>
    let cold = MemoryLayout<Track>.offset(of: \Track.coldRecompute)!
    #expect(cold == MemoryLayout<Track>.offset(of: \Track.nextOrder)! + 4)
    #expect(MemoryLayout<Track>.size == cold + 1)
    #expect(MemoryLayout<Track>.stride == 40, "36 bytes and a stride of 40 without it")
  }
}
