import CogCore
import CogEdgePool
import Testing

/// The diagnostics and sweep switches sit in what was padding: neither the context's maps nor its turn
/// state grows (each is one allocation per context, in a malloc size class it should keep).
@Suite("Diagnostics layout")
struct DiagnosticsLayoutTests {
  @Test("the switches take padding: the fields after them keep their offsets")
  func padding() {
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.countsRuns) == 17)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.hasDiagnostics) == 18)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.sweepsAfterFlush) == 19)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.ownersAddedSinceSweep) == 20)
    #expect(MemoryLayout<ContextMaps>.offset(of: \ContextMaps.keyIndexes) == 24)
    typealias Turns = TurnState<SharedEdgePool>
    #expect(MemoryLayout<Turns>.offset(of: \Turns.turnHooks) == 42)
    #expect(MemoryLayout<Turns>.offset(of: \Turns.drainIndex) == 48)
    #expect(MemoryLayout<Turns>.size == 96)
  }
}
