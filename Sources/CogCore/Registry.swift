import Synchronization

/// Process-wide ids for descriptors and value types.
///
/// Descriptors are usually global `let`s, initialized lazily on whatever thread first touches
/// them, so id assignment is the one place the runtime synchronizes. It runs once per
/// descriptor and once per value type, never during graph work.
@usableFromInline
package enum Registry {
  private static let nextDescriptor = Atomic<Int32>(0)
  private static let nextContext = Atomic<Int>(1)

  /// A fresh context serial: identifies a graph in descriptor caches. Never reused, unlike the
  /// graph's address, which a later graph may get.
  @usableFromInline package static func makeContextSerial() -> Int {
    nextContext.add(1, ordering: .relaxed).oldValue
  }
  private static let typeIndices = Mutex<[ObjectIdentifier: Int32]>([:])

  /// A fresh descriptor id: dense, starting at 0, so contexts index columns with it.
  @usableFromInline package static func makeDescriptorID() -> Int32 {
    nextDescriptor.add(1, ordering: .relaxed).oldValue
  }

  private struct SharedKey: Hashable {
    var type: ObjectIdentifier
    var kind: ObjectIdentifier
  }
  private static let sharedByType = Mutex<[SharedKey: AnyObject]>([:])

  /// One immutable object of class `T` per value type, made by `make` on the first request
  /// and shared by every later one: the `==` equality of manual cogs, so that declaring a
  /// state does not allocate one per descriptor.
  @usableFromInline package static func shared<T: AnyObject & Sendable>(
    for type: Any.Type, _ make: () -> T
  ) -> T {
    sharedByType.withLock { table in
      let key = SharedKey(type: ObjectIdentifier(type), kind: ObjectIdentifier(T.self))
      if let existing = table[key] { return unsafeDowncast(existing, to: T.self) }
      let made = make()
      table[key] = made
      return made
    }
  }

  /// The dense index of a value type; contexts keep one typed column per index.
  @usableFromInline package static func typeIndex(for type: Any.Type) -> Int32 {
    typeIndices.withLock { table in
      let key = ObjectIdentifier(type)
      if let i = table[key] { return i }
      let i = Int32(table.count)
      table[key] = i
      return i
    }
  }
}
