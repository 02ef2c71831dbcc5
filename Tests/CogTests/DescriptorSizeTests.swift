import Testing

@testable import Cog

/// Memory per descriptor (issue 23): a manual cog is one object of at most 64 bytes, so a
/// context of a million sources spends its memory on rows, not on their names.
@Suite("Descriptor size")
struct DescriptorSizeTests {
  @Test("a manual Cog<Int>, labeled or not, is one object of at most 64 bytes")
  func manualCogIsSmall() {
    #expect(instanceSize(of: Cog(0)) <= 64)
    #expect(instanceSize(of: Cog(0.5)) <= 64)
    #expect(instanceSize(of: Cog(false)) <= 64)
    #expect(instanceSize(of: Cog(0, label: "count")) <= 64)
  }

  @Test("an automatic cog's object is no larger than a manual one's")
  func automaticCogIsSmall() {
    let source = Cog(0)
    #expect(instanceSize(of: Cog { c in c[source] + 1 }) <= 64)
  }
}

/// The instance size the Swift runtime allocates for `object`'s class, from its class
/// metadata: on platforms without Objective-C interoperation the metadata holds the flags,
/// the address point and then the instance size at byte 24 (`TargetClassMetadata`).
func instanceSize(of object: AnyObject) -> Int {
  #if canImport(ObjectiveC)
    return class_getInstanceSize(type(of: object))
  #else
    let metadata = unsafeBitCast(type(of: object) as AnyClass, to: UnsafeRawPointer.self)
    return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
  #endif
}
