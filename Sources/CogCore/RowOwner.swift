import CCogStack

/// A keyed box (or a record the graph made itself) as the graph sees it: a name for error
/// messages and a cache policy. Each context holds the owners of its keyed rows (`OwnerRef`),
/// so rows never outlive the box that runs them; a box whose only references are those holds
/// is dropped, and its rows go at the next sweep (`Graph+Dropped.swift`). Keyless rows hold
/// their descriptor's details instead (`Graph.makeKeylessRow`).
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
/// count with no reference counting of its own (`ownerIsDropped`). Held by a record in the
/// context's map (`ContextMaps.owners`: a keyed box's, an async status row's).
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
