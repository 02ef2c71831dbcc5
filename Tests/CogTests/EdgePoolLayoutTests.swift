import CogCore
import CogEdgePool
import Testing

/// The pool's entry is two halves in two columns, one per list (swift/0003-edge-layouts.md):
/// a push streams the subscriber halves only, a pull the dependency halves only.
@Suite("Edge pool layout")
struct EdgePoolLayoutTests {
  @Test("each half of an entry is 12 bytes, with no padding between entries")
  func halves() {
    #expect(MemoryLayout<SharedEdgePool.DepLink>.stride == 12)
    #expect(MemoryLayout<SharedEdgePool.SubLink>.stride == 12)
  }
}
