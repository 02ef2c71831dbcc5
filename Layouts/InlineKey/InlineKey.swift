/// A key as an inline reference holds it: type-erased in place (seed 000 §4's "key stored
/// inline"), so that a reference need not name its key type.
///
/// Nothing here asks the runtime anything. Erasing picks a case from the key's type, which is
/// known where the box is specialized (the tests fold to constants), and reading the key back
/// (`withKey`) is a pointer projection, unchecked, because the only code that reads a key is
/// its own box's, specialized for the type the box was made with (`InlineBox<Key, …>`: a
/// reference is made only by `InlineKeyName.init(box:key:)`, whose key has the box's key
/// type). No `AnyHashable`, no dynamic cast, no conformance or metadata lookup.
///
/// An enum rather than an `Any`: an `Any` makes every struct holding it address-only, so a
/// reference was built in memory, its box retained, and destroyed through the value
/// witnesses. This one
/// is loadable, and trivial for the `.bits` case.
@frozen @usableFromInline
package enum InlineKey {
  /// A trivial key of at most three words (integers, `UUID`, small structs and enums of
  /// them), its bytes as they are.
  case bits(UInt, UInt, UInt)
  /// A `String` key.
  case string(String)
  /// Any other key (a class, or a value holding references or larger than three words), in
  /// an `OutOfLineKey` box: one allocation per reference, as `AnyHashable` or `Any` would
  /// make for most of them.
  case boxed(AnyObject)

  @inlinable @inline(__always)
  package init<Key: Hashable>(_ key: Key) {
    if Self.fitsBits(Key.self) {
      var words: (UInt, UInt, UInt) = (0, 0, 0)
      withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: key, as: Key.self) }
      self = .bits(words.0, words.1, words.2)
    } else if Key.self is String.Type {
      self = .string(unsafeBitCast(key, to: String.self))
    } else {
      self = .boxed(OutOfLineKey(key))
    }
    assert(withKey(as: Key.self) { $0 == key }, "InlineKey: the projection does not find the key")
  }

  /// Whether a `Key` is kept as `.bits`: trivial, at most three words, word-aligned at most.
  @inlinable @inline(__always)
  package static func fitsBits<Key>(_: Key.Type) -> Bool {
    _isPOD(Key.self) && MemoryLayout<Key>.size <= 3 * MemoryLayout<UInt>.size
      && MemoryLayout<Key>.alignment <= MemoryLayout<UInt>.alignment
  }

  /// Calls `body` with the key, borrowed in place. `Key` must be the type the key was made
  /// with (unchecked: see the type's comment).
  @inlinable @inline(__always)
  package func withKey<Key, R>(as: Key.Type, _ body: (Key) -> R) -> R {
    switch self {
    case .bits(let w0, let w1, let w2):
      return withUnsafePointer(to: (w0, w1, w2)) {
        UnsafeRawPointer($0).withMemoryRebound(to: Key.self, capacity: 1) { body($0.pointee) }
      }
    case .string(let s):
      return withUnsafePointer(to: s) {
        UnsafeRawPointer($0).withMemoryRebound(to: Key.self, capacity: 1) { body($0.pointee) }
      }
    case .boxed(let o):
      // Safety: `init` boxes a `Key` as `OutOfLineKey<Key>`; callers pass the type it was made of.
      return body(unsafeDowncast(o, to: OutOfLineKey<Key>.self).key)
    }
  }
}

/// A key that `InlineKey` keeps out of line.
// Safety: `key` is a `let`; not-`Sendable` keys are accepted as for any box (see `InternTable`).
@usableFromInline
package final class OutOfLineKey<Key>: @unchecked Sendable {
  @usableFromInline package let key: Key
  @inlinable package init(_ key: Key) { self.key = key }
}
