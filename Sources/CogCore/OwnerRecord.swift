/// A per-context record of a descriptor that has no keyless row of its own here
/// (`ContextMaps.owners`): a keyed box (its rows are in its key index) or the record the
/// graph makes for an async cog's status row. Keyless rows hold their descriptor themselves
/// (`ContextMaps.holds`), so a first read adds no map entry.
@frozen @usableFromInline
package struct OwnerRecord {
  /// The record's hold on its object.
  @usableFromInline package var owner: OwnerRef
  /// Whether the object is a descriptor the app may drop (a record the graph made itself,
  /// whose `contextHold` answers `-1`, is never dropped).
  @usableFromInline package var isDescriptor: Bool

  @inlinable package init(holding object: RowOwner) {
    var holds: Int32 = 0
    owner = OwnerRef(holding: object, holds: &holds)
    isDescriptor = holds > 0
  }

  /// Whether the app has dropped the descriptor (`ownerIsDropped`).
  @inlinable package var isDropped: Bool { isDescriptor && ownerIsDropped(owner) }
}
