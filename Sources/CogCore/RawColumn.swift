/// A growable column over a raw buffer.
///
/// Why not `ContiguousArray`: an array stored as a `var` in a class pays a dynamic exclusivity
/// check and a uniqueness check on nearly every access (swift/0001-core-storage.md). A column is owned by exactly one graph,
/// never copied, and freed by its owner's `deinit`, so neither check buys anything here.
///
/// Elements `0..<count` are initialized. Index checks are debug assertions.
@frozen @usableFromInline
package struct RawColumn<Element> {
  // Lifetime: owned by the one object holding the column (never copied), which calls `free()` once.
  @usableFromInline package var base: UnsafeMutablePointer<Element>
  @usableFromInline package var count: Int
  @usableFromInline package var capacity: Int

  @inlinable package init(capacity: Int = 16) {
    let c = Swift.max(capacity, 4)
    base = Self.allocate(c)
    count = 0
    self.capacity = c
  }

  /// Deinitializes the elements and frees the buffer. The owner calls it exactly once.
  @inlinable package func free() {
    base.deinitialize(count: count)
    base.deallocate()
  }

  @inlinable package subscript(i: Int) -> Element {
    @inline(__always) unsafeAddress {
      assert(i >= 0 && i < count, "column index out of range")
      return UnsafePointer(base + i)
    }
    @inline(__always) nonmutating unsafeMutableAddress {
      assert(i >= 0 && i < count, "column index out of range")
      return base + i
    }
  }

  @inlinable package subscript(s: Slot) -> Element {
    @inline(__always) unsafeAddress {
      assert(s.raw >= 0 && Int(s.raw) < count, "column slot out of range")
      return UnsafePointer(base + Int(s.raw))
    }
    @inline(__always) nonmutating unsafeMutableAddress {
      assert(s.raw >= 0 && Int(s.raw) < count, "column slot out of range")
      return base + Int(s.raw)
    }
  }

  @inlinable @inline(__always) package mutating func append(_ e: Element) {
    if count == capacity { grow(minimumCapacity: count + 1) }
    (base + count).initialize(to: e)
    count &+= 1  // count < capacity: cannot overflow (saves an overflow check per push)
  }

  /// Appends `e` when there is room without growing; false (nothing appended) when full.
  @inlinable @inline(__always) package mutating func appendInPlace(_ e: Element) -> Bool {
    if count == capacity { return false }
    (base + count).initialize(to: e)
    count &+= 1
    return true
  }

  @inlinable @inline(__always) package mutating func removeLast() -> Element {
    assert(count > 0)
    count &-= 1
    return (base + count).move()
  }

  /// Removes the first `n` elements, moving the rest down (cold paths only: O(count)).
  @inlinable package mutating func removeFirst(_ n: Int) {
    assert(n >= 0 && n <= count)
    if n == 0 { return }
    base.deinitialize(count: n)
    // All of it (the collector's usual case): no move, which was a call to `memmove`.
    if n < count { base.moveInitialize(from: base + n, count: count - n) }
    count -= n
  }

  /// Removes the last `n` elements.
  @inlinable package mutating func removeLast(_ n: Int) {
    assert(n >= 0 && n <= count)
    (base + (count - n)).deinitialize(count: n)
    count -= n
  }

  @inlinable package mutating func removeAll() {
    base.deinitialize(count: count)
    count = 0
  }

  /// Appends `e` until `count == n`.
  @inlinable package mutating func extend(to n: Int, with e: Element) {
    if n > capacity { grow(minimumCapacity: n) }
    while count < n {
      (base + count).initialize(to: e)
      count += 1
    }
  }

  /// `extend(to:with:)` for a column of one element per row, which a new row extends by one:
  /// one store, where `extend`'s loop is a call of `memset` (about 15 instructions for a 4- or
  /// 8-byte element). Only for such columns: with the same step in `extend` itself, the keyed
  /// cases counted 0.1-0.2% more, not attributed (impl/perf-notes.md, "Stop 51").
  @inlinable @inline(__always) package mutating func extendRows(to n: Int, with e: Element) {
    if n == count &+ 1 {
      append(e)
    } else if n > count {
      extend(to: n, with: e)
    }
  }

  @inlinable package mutating func reserve(_ n: Int) {
    if n > capacity { grow(minimumCapacity: n) }
  }

  /// A buffer for `capacity` elements. One of 16 KiB or more (jemalloc's large sizes) is
  /// page-aligned: jemalloc otherwise starts a large block at a random cache line of its first
  /// page, and glibc's `memmove` picks its loop by the distance of source and destination
  /// within a page, so that the instructions of a column's growth moved with the heap's
  /// history (`cog/peak-memory-1000` on one layout, by 2, with another variant compiled
  /// beside it: impl/perf-notes.md, "Stop 41"). A large block's size is a multiple of the
  /// page either way; the alignment costs no byte.
  @usableFromInline @inline(never)
  static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
    let bytes = capacity &* MemoryLayout<Element>.stride
    if bytes < 16 * 1024 { return .allocate(capacity: capacity) }
    return UnsafeMutableRawPointer.allocate(
      byteCount: bytes, alignment: Swift.max(4096, MemoryLayout<Element>.alignment)
    ).bindMemory(to: Element.self, capacity: capacity)
  }

  @inline(never) @usableFromInline
  mutating func grow(minimumCapacity: Int) {
    let newCapacity = Swift.max(minimumCapacity, capacity &* 2)
    let newBase = Self.allocate(newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// The initialized elements, borrowed. Must not escape the closure.
  @inlinable package func withElements<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R)
    rethrows -> R
  {
    try body(UnsafeMutableBufferPointer(start: base, count: count))
  }
}
