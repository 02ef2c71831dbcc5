import CCogStack
import Synchronization

/// What a running row (computed or reaction) does: one object per descriptor, shared by every
/// row of that descriptor (a keyed box's rows share one).
///
/// `run` computes the row's new value, stores it if it differs from the old one, and returns
/// whether it changed. It is created inside the descriptor's `@inlinable` initializer, so its
/// body is specialized for the value type in the module that declares the state.
///
/// The graph stores `Unmanaged<RowBehavior>` in a column and calls through
/// `_withUnsafeGuaranteedRef`: loading a closure from storage and calling it otherwise costs a
/// retain and a release of its context per call. Lifetime: the row's hold on its descriptor
/// (`ContextMaps.holds`; a keyed row's, its box's record) keeps the descriptor, and so its
/// behavior, alive while the row exists.
///
/// Not generic over the edge store: `run` gets the graph as `AnyObject` and downcasts it
/// unchecked (`Graph.unchecked(_:)`; the behavior is made for the one edge store its
/// descriptor binds), so that one class serves every layout.
///
/// Subclasses: `KeylessDetails` and `KeylessBehavior` (an automatic keyless descriptor's
/// behavior), `ReactionRow` (a reaction's one object), and the plain object of the keyed and
/// async descriptors. `run` is `final`, so calling it is a field load.
// Safety: `run` is a `let` `@MainActor` closure; subclasses argue their own fields.
@usableFromInline
package class RowBehavior: @unchecked Sendable {
  /// Called with this object (borrowed), so that a behavior that keeps its data in a
  /// subclass (`KeylessBehavior`, `ReactionRow`) reaches it with no lookup and no closure of
  /// its own around the call.
  @usableFromInline package final let run: RowRun
  @inlinable package init(run: @escaping RowRun) {
    self.run = run
  }
}

/// A row's `run`: the behavior object itself, the graph (a `Graph<Edges>` of the edge store
/// the behavior was made for: `Graph.unchecked(_:)`) and the row.
@usableFromInline
package typealias RowRun = @MainActor (RowBehavior, AnyObject, Slot) -> Bool

/// An unretained reference to a row's behavior, as stored in the behavior column. Calling
/// through it with `withGuaranteed` costs no reference counting.
@frozen @usableFromInline
package struct BehaviorRef {
  // Lifetime: the graph retains the row's descriptor (which owns it) or its `ReactionRow`.
  @usableFromInline package var object: Unmanaged<RowBehavior>?
  @inlinable package init(_ object: RowBehavior?) {
    self.object = object.map { Unmanaged.passUnretained($0) }
  }
}

/// How long a row lives once nothing observes it.
@usableFromInline
package enum RowLifetime: UInt8, Sendable {
  /// As long as the context (manual states, and automatic states by default).
  case context = 0
  /// Released when the last subscriber or lease goes.
  case whileObserved = 1
  /// Kept while unobserved, up to a per-descriptor limit and retention time.
  case cache = 2
}

/// A descriptor as the graph sees it: a name for error messages and a cache policy. Each
/// context holds the owners of its rows (`OwnerRef`), so rows never outlive the descriptor
/// that runs them; a descriptor whose only references are those holds is dropped, and its
/// rows go at the next sweep (`Graph+Dropped.swift`).
@usableFromInline
package protocol RowOwner: AnyObject, Sendable {
  /// The descriptor's label, for error messages and the debug history.
  var label: String { get }
  /// For `.cache` rows: how many unobserved rows to keep, and for how long.
  var cachePolicy: (limit: Int, retention: Duration)? { get }
  /// Adds `delta` to the number of contexts holding this owner and returns the new count;
  /// `-1` for a record the graph made itself (an async status row's), which is never
  /// dropped. Main-actor graph code only.
  func contextHold(_ delta: Int32) -> Int32
}

extension RowOwner {
  @inlinable package func contextHold(_ delta: Int32) -> Int32 { -1 }
}

/// A context's strong reference to a descriptor's record, taken and given back by hand rather
/// than by a stored strong reference, so that a sweep can read the descriptor's reference
/// count with no reference counting of its own (`ownerIsDropped`). Held by a keyless row
/// (`ContextMaps.holds`) or by a record in the context's map (`ContextMaps.owners`). Two words:
/// an optional one fits the same 16 bytes (the object pointer's spare values).
@frozen @usableFromInline
package struct OwnerRef {
  // Lifetime: retained once in `init(holding:)` and released once in `release()`, called
  // when the row or the map record goes (`Graph.release`, `removeOwner`, `setOwner`'s
  // replacement, the graph's deinit); copies of the struct are borrowed views of that one
  // reference.
  @usableFromInline package unowned(unsafe) let object: RowOwner

  /// Takes the hold (and counts it in the descriptor's holding contexts).
  @inlinable package init(holding owner: RowOwner) {
    var holds: Int32 = 0
    self.init(holding: owner, holds: &holds)
  }

  /// Takes the hold; `holds` gets the descriptor's holding contexts now (`-1` for a record
  /// the graph made itself: `RowOwner.contextHold`).
  @inlinable package init(holding owner: RowOwner, holds: inout Int32) {
    object = owner
    // Lifetime: the retain taken here is this record's one hold, given back once in `release()`.
    _ = Unmanaged.passUnretained(owner as AnyObject).retain()
    holds = owner.contextHold(1)
  }

  /// The object's address: the hold's release, and the sweep's count.
  // Lifetime: valid while this record's hold (above) lasts.
  @inlinable package var address: UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object as AnyObject).toOpaque()
  }

  /// Gives the hold back; the descriptor may be freed now. The hold count is updated only
  /// when something else references the descriptor: the last reference's count dies with it,
  /// and the update's call would retain the descriptor around it.
  @inlinable package func release() {
    let address = self.address
    if cogStrongRetainCount(address) > 1 { _ = object.contextHold(-1) }
    // Lifetime: balances the retain in `init(holding:)`; nothing reads `object` after this.
    Unmanaged<AnyObject>.fromOpaque(address).release()
  }
}

/// Whether the app has dropped the descriptor `ref` holds: its strong references are exactly
/// the contexts' holds. The count is read through the address, so the sweep itself holds no
/// reference at any optimization level. One reference means only this context's hold; more
/// than there are contexts means the app's; otherwise the holds are counted. A descriptor
/// reachable only through weak references counts as dropped. (A record the graph made itself
/// is never dropped: `OwnerRecord.isDescriptor`.)
@inlinable @inline(__always)
func ownerIsDropped(_ ref: OwnerRef) -> Bool {
  let count = cogStrongRetainCount(ref.address)
  if count == 1 { return true }
  if count > Int(cog_get_live_graphs()) { return false }
  return count == Int(ownerHoldCount(ref))
}

@inline(never) @usableFromInline
func ownerHoldCount(_ ref: OwnerRef) -> Int32 { ref.object.contextHold(0) }

/// The Swift runtime's strong reference count of a native object (the function behind the
/// standard library's `_getRetainCount`), taken by address so that the call itself holds no
/// reference. Safety: `object` is a live native Swift object (a context holds it).
@_silgen_name("swift_retainCount") @usableFromInline
func cogStrongRetainCount(_ object: UnsafeMutableRawPointer) -> Int

/// The per-context key storage of a keyed descriptor (a reference layout's; the core keeps no
/// keys): told when one of its rows is released, and asked for a row's key to name it in an
/// error. `tag` is the word the layout gave the row (`RowColumns.tag`).
@MainActor
@usableFromInline
package protocol KeyedRowIndex: AnyObject {
  func forget(slot: Slot, tag: UInt32)
  func keyDescription(slot: Slot, tag: UInt32) -> String
}

/// Calls `body` with the object `u` refers to, without retaining it: the caller guarantees the
/// object outlives the call. A plain function here (rather than a closure literal handed to
/// `Unmanaged._withUnsafeGuaranteedRef` at each call site) so that main-actor code calling it
/// does not hand an isolated closure to a module compiled without strict concurrency, which
/// would cost a dynamic executor check per call.
// Safety: the caller guarantees `u`'s object outlives `body` (each call site says who keeps it).
@inlinable @inline(__always)
package nonisolated func withGuaranteed<T: AnyObject, R>(_ u: Unmanaged<T>, _ body: (T) -> R) -> R {
  u._withUnsafeGuaranteedRef(body)
}

/// A keyless descriptor's memory of its row in the context it was last used in: the
/// context's identity and the slot. Descriptors are shared by every context, so this is a
/// one-entry cache; a miss falls back to the context's map.
///
/// Stored in the descriptor object itself (a `let` of the binding's class: `Cog`,
/// `LayoutCog`), so that declaring takes nothing from a pool (the pool's lock cost about 75
/// instructions per manual cog on sbench/createSignals, its chunks 4 allocations per 1,000)
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
  /// How many contexts hold the descriptor (`RowOwner.contextHold`).
  @usableFromInline package let holds: Atomic<Int32>
  /// The descriptor's process-wide id (`Registry.makeDescriptorID`): here rather than in
  /// `KeylessState`, so that the four 32-bit fields fill 16 bytes and a manual `Cog<Int>` is
  /// one 64-byte object (`KeylessState`).
  @usableFromInline package let id: Int32
  @inlinable package init() {
    context = Atomic(0)
    slot = Atomic(-1)
    holds = Atomic(0)
    id = Registry.makeDescriptorID()
  }

  /// `RowOwner.contextHold` for a descriptor that keeps this cache.
  @inlinable package func hold(_ delta: Int32) -> Int32 {
    holds.wrappingAdd(delta, ordering: .relaxed).newValue
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
