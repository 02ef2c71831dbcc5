/// What a context keeps for one descriptor (`ContextMaps.descriptors`): its record, and for a
/// keyless descriptor its one row here. One entry, so that a first read makes one map entry
/// (cog/first-read: two maps, one lookup and two insertions per fresh state, were about 200 of
/// its 628 instructions per row).
@frozen @usableFromInline
package struct DescriptorEntry {
  /// The descriptor's record in this context (`OwnerRef`, one hold).
  @usableFromInline package var owner: OwnerRef
  /// The keyless descriptor's row here (`Slot.none.raw` when it has none: a keyed
  /// descriptor's rows are in its key index, and a released row leaves the record behind).
  @usableFromInline package var slot: Int32

  @inlinable package init(owner: OwnerRef, slot: Slot) {
    self.owner = owner
    self.slot = slot.raw
  }
}
