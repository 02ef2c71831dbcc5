import CogCore

/// One dependency of a row in an array layout: the row read, the version it saw, and where
/// the matching subscriber entry sits in that row's subscriber array (a back-index, so that
/// dropping the dependency needs no search).
@frozen @usableFromInline
package struct DepEntry {
  @usableFromInline package var dep: Slot
  @usableFromInline package var version: UInt32
  @usableFromInline package var subIndex: Int32
  @inlinable package init(dep: Slot, version: UInt32, subIndex: Int32) {
    self.dep = dep
    self.version = version
    self.subIndex = subIndex
  }
  @inlinable package static var empty: DepEntry { DepEntry(dep: .none, version: 0, subIndex: -1) }
}

/// One subscriber of a row in an array layout: the reading row and the position of the
/// matching dependency entry in its dependency list.
@frozen @usableFromInline
package struct SubEntry {
  @usableFromInline package var sub: Slot
  @usableFromInline package var depIndex: Int32
  @inlinable package init(sub: Slot, depIndex: Int32) {
    self.sub = sub
    self.depIndex = depIndex
  }
  @inlinable package static var empty: SubEntry { SubEntry(sub: .none, depIndex: -1) }
}

/// A position in one row's array: an index, `-1` for none.
@frozen @usableFromInline
package struct ArrayPosition: EdgePosition {
  @usableFromInline package var index: Int32
  @inlinable @inline(__always) package init(_ index: Int32) { self.index = index }
  @inlinable package static var none: ArrayPosition { ArrayPosition(-1) }
  @inlinable @inline(__always) package var isNone: Bool { index < 0 }
}

/// The dependency storage an array layout keeps per row: an ordered list of `DepEntry`s,
/// addressed by position `0..<count`. The prefix-reuse layouts differ only in this (see
/// `PrefixReuseEdges`).
@usableFromInline
package protocol DependencyLists {
  init(reservingRows rows: Int)
  mutating func ensureRows(_ count: Int)
  func count(of sub: Slot) -> Int32
  func dep(of sub: Slot, at p: Int32) -> Slot
  func version(of sub: Slot, at p: Int32) -> UInt32
  func subIndex(of sub: Slot, at p: Int32) -> Int32
  mutating func setVersion(of sub: Slot, at p: Int32, _ v: UInt32)
  mutating func setSubIndex(of sub: Slot, at p: Int32, _ j: Int32)
  /// Appends `e` at position `count(of: sub)`.
  mutating func append(_ e: DepEntry, to sub: Slot)
  /// Drops the entries from position `n` on.
  mutating func truncate(_ sub: Slot, to n: Int32)
  var reservedBytes: Int { get }
  func free()
}
