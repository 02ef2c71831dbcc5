/// A row of the state table: a dense index into every column of a `Graph`.
///
/// Slots are reused after a row is released; `generation` tells the uses apart (see
/// `SlotRef`). Slots never appear in public value references: those name a descriptor and key.
@frozen @usableFromInline
package struct Slot: Hashable, Comparable, CustomStringConvertible, Sendable {
  @usableFromInline package var raw: Int32
  @inlinable @inline(__always) package init(_ raw: Int32) { self.raw = raw }
  @inlinable @inline(__always) package init(_ raw: Int) {
    self.raw = Int32(truncatingIfNeeded: raw)
  }

  /// "No row": `-1`; any negative raw value reads as none (`isNone`).
  @inlinable package static var none: Slot { Slot(Int32(-1)) }

  @inlinable @inline(__always) package var isNone: Bool { raw < 0 }
  @inlinable @inline(__always) package var index: Int { Int(raw) }
  @inlinable package static func < (a: Slot, b: Slot) -> Bool { a.raw < b.raw }
  @usableFromInline package var description: String { isNone ? "s-" : "s\(raw)" }
}

/// An entry of an edge store. What it indexes is the store's business; the core only compares
/// it with `.none` and hands it back.
@frozen @usableFromInline
package struct EdgeID: Hashable, CustomStringConvertible, Sendable {
  @usableFromInline package var raw: Int32
  @inlinable @inline(__always) package init(_ raw: Int32) { self.raw = raw }
  /// "No edge": the end of a list. `-1` for the same reason as `Slot.none`.
  @inlinable package static var none: EdgeID { EdgeID(Int32(-1)) }
  @inlinable @inline(__always) package var isNone: Bool { raw < 0 }
  @usableFromInline package var description: String { isNone ? "e-" : "e\(raw)" }
}

/// A slot together with the generation it had when the reference was taken. Holders that keep
/// a row across turns (leases, reactions, debug tools) use it so that a stale use is caught.
@frozen @usableFromInline
package struct SlotRef: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline package var slot: Slot
  @usableFromInline package var generation: UInt16
  @inlinable package init(slot: Slot, generation: UInt16) {
    self.slot = slot
    self.generation = generation
  }
  @usableFromInline package var description: String { "\(slot)@\(generation)" }
}

extension EdgeID: EdgePosition {}
