import CCogStack
import Synchronization

/// A keyless descriptor's memory of its row in the context it was last used in: the
/// context's identity and the slot. Descriptors are shared by every context, so this is a
/// one-entry cache; a miss falls back to the context's map.
///
/// Stored in the descriptor object itself (a `let` of the binding's class: `Cog`,
/// `LayoutCog`), so that declaring takes nothing from a pool (no lock, no chunk allocations)
/// and reading it costs no exclusivity check (a class `var` read inlined into another module
/// pays `swift_beginAccess`: swift/0001-core-storage.md). The fields are atomics only so that
/// a `let` may be written in place: descriptors are `Sendable` values, but only main-actor
/// graph code reads or writes the cache, so relaxed loads and stores (plain moves) suffice.
@frozen @usableFromInline
package struct KeylessCache: ~Copyable, Sendable {
  /// The serial of the context the entry belongs to; 0: none (`Registry.makeContextSerial`
  /// keeps serials within `Int32`).
  @usableFromInline package let context: Atomic<Int32>
  @usableFromInline package let slot: Atomic<Int32>
  /// `rowMadeMark` once a row of the descriptor was made in any context (`markRowMade`), else
  /// 0.
  @usableFromInline package let rowMade: Atomic<Int32>
  /// The descriptor's process-wide id (`Registry.makeDescriptorID`): here rather than in
  /// `KeylessState`, so that the four 32-bit fields fill 16 bytes and a manual `Cog<Int>` is
  /// one 64-byte object (`KeylessState`).
  @usableFromInline package let id: Int32
  @inlinable package init() {
    context = Atomic(0)
    slot = Atomic(-1)
    rowMade = Atomic(0)
    id = Registry.makeDescriptorID()
  }

  /// `rowMade` once a row of the descriptor was made.
  @inlinable package static var rowMadeMark: Int32 { .min }

  /// Notes that a row of this descriptor was made (`Graph.makeKeylessRow`): its `deinit` must
  /// then mark it dropped (`descriptorDeinit`). Rows do not hold their descriptor (a plain
  /// manual one's hold nothing; the others hold its details). A relaxed store to a line the
  /// read has just loaded: no locked operation on a first read.
  @inlinable @inline(__always) package func markRowMade() {
    rowMade.store(Self.rowMadeMark, ordering: .relaxed)
  }

  /// The descriptor's `deinit`, any thread: one that made rows marks its id dropped, for the
  /// contexts' sweeps to find with no access to the freed object, and hands its `details` (if
  /// any) to those rows (`KeylessDetails.descriptorWent`). The last release's ordering makes
  /// the main actor's `markRowMade` visible here.
  @inlinable package func descriptorDeinit(details: KeylessDetails?) {
    if rowMade.load(ordering: .relaxed) != Self.rowMadeMark { return }
    cog_mark_descriptor_dropped(id)
    details?.descriptorWent()
  }

  /// The entry's context serial (0: none).
  @inlinable @inline(__always) package var contextSerial: Int32 {
    context.load(ordering: .relaxed)
  }
  /// The entry's slot (meaningful only when `contextSerial` is the context's).
  @inlinable @inline(__always) package var slotRaw: Int32 { slot.load(ordering: .relaxed) }

  /// Makes `slot` of context `serial` the entry (main-actor graph code only).
  @inlinable @inline(__always) package func set(context serial: Int32, slot s: Int32) {
    context.store(serial, ordering: .relaxed)
    slot.store(s, ordering: .relaxed)
  }
}

/// A keyed box's memory of its key index in the context it was last used in: the context's
/// identity and the index (keyless descriptors keep a `KeylessCache` in their object
/// instead). Boxes are shared by every context, so this is a one-entry cache; a miss falls
/// back to the context's dictionaries. Kept behind a pointer the box owns (an entry of
/// `DescriptorCachePool`; the box's behavior closure captures the pointer), so reading it
/// costs no exclusivity check.
@frozen @usableFromInline
package struct DescriptorCache {
  /// The serial of the context the entry belongs to; 0: none.
  @usableFromInline package var context: Int
  @usableFromInline package var slot: Int32
  // Lifetime: the context `context` names owns the index (`keyIndexes`); serials are never reused.
  @usableFromInline package var index: Unmanaged<AnyObject>?
  /// How many contexts hold the box (`RowOwner.contextHold`).
  @usableFromInline package var holds: Int32
  @inlinable package init() {
    context = 0
    slot = -1
    index = nil
    holds = 0
  }

  /// A cache from the process-wide pool (`DescriptorCachePool`).
  @inlinable package static func make() -> DescriptorCacheRef {
    DescriptorCacheRef(pointer: DescriptorCachePool.take())
  }
}

/// The pointer to a descriptor's cache. Descriptors are shared across threads as values but
/// their caches are only read and written by main-actor graph code, hence `@unchecked`.
// Safety: caches are read and written only by main-actor graph code (see above).
@frozen @usableFromInline
package struct DescriptorCacheRef: @unchecked Sendable {
  @usableFromInline package let pointer: UnsafeMutablePointer<DescriptorCache>
  @inlinable package init(pointer: UnsafeMutablePointer<DescriptorCache>) { self.pointer = pointer }

  @inlinable package var pointee: DescriptorCache {
    @inline(__always) unsafeAddress { UnsafePointer(pointer) }
    @inline(__always) nonmutating unsafeMutableAddress { pointer }
  }

  /// Gives the cache back to the pool; its descriptor's `deinit` calls it once.
  @usableFromInline package func free() { DescriptorCachePool.give(pointer) }
}
