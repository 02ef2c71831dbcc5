import CogCore

/// The part of a box's key storage that does not depend on the key type, so that code that does
/// not name the key type reaches it (a generic class's stored properties after a key-typed one
/// would sit at key-dependent offsets):
/// - `slotOfTag`: the row of each token (`.tokens`, the interned layout), by tag; empty for
///   the other layouts;
/// - `forgetImpl`: the key-typed release path, which the core reaches through `KeyedRowIndex`.
@MainActor @usableFromInline
package class KeyRowsBase: KeyedRowIndex {
  // Safety: main-actor confined (the box's rows in one context), never accessed overlapping.
  @exclusivity(unchecked) @usableFromInline package var slotOfTag = RawColumn<Int32>(capacity: 4)
  /// Made by `BoxRows<Key>.init`, so that it runs specialized for the key type. The core calls
  /// `forget` through the `KeyedRowIndex` existential, whose witness for a generic class runs
  /// the unspecialized generic body (hashing the key through its witness table); this non-generic `forget` only calls the
  /// closure. It captures nothing (the storage is passed in): calling it retains no context.
  @usableFromInline package let forgetImpl: @MainActor (KeyRowsBase, Slot, UInt32) -> Void

  @inlinable package init(forget: @escaping @MainActor (KeyRowsBase, Slot, UInt32) -> Void) {
    forgetImpl = forget
  }
  isolated deinit {
    slotOfTag.free()
  }

  /// The row tagged `token` (`.tokens`), or `.none`.
  @inlinable @inline(__always)
  package final func slot(ofToken token: UInt32) -> Slot {
    Int(token) < slotOfTag.count ? Slot(slotOfTag[Int(token)]) : .none
  }

  /// Row `slot`, tagged `tag`, was released: its key no longer names it.
  @inlinable package final func forget(slot: Slot, tag: UInt32) { forgetImpl(self, slot, tag) }

  /// Row `slot`'s key, for error messages (`BoxRows` knows it).
  @usableFromInline package func keyDescription(slot: Slot, tag: UInt32) -> String { "?" }
}

/// A keyed box's rows in one context: the reference layouts' key storage (the core knows
/// slots only; see swift/0006-reference-layouts.md). Each row of the box carries a 32-bit
/// tag (`RowColumns.tag`) that indexes this storage:
///
/// - `.entries` (inline and generic references): the tag is a dense entry, recycled when its
///   row goes; a key finds its row through `slots` (hashing the concrete key).
/// - `.tokens` (interned references): the tag is the reference's interned token; a token finds
///   its row through `slotOfTag` (an array index, no hashing).
///
/// Either way `keys[tag]` is the row's typed key, which the shared body gets without a cast.
@MainActor @usableFromInline
package final class BoxRows<Key: Hashable>: KeyRowsBase {
  @frozen @usableFromInline
  package enum Tags: Sendable {
    case entries
    case tokens
  }
  @usableFromInline package let tags: Tags
  // Safety (these three): as `slotOfTag`: main-actor confined, never accessed overlapping.
  @exclusivity(unchecked) @usableFromInline package var slots: [Key: Int32] = [:]
  @exclusivity(unchecked) @usableFromInline package var keys = RawColumn<Key?>(capacity: 16)
  @exclusivity(unchecked) @usableFromInline package var freeTags = RawColumn<UInt32>(capacity: 4)

  @inlinable package init(tags: Tags) {
    self.tags = tags
    super.init(forget: { rows, slot, tag in
      // Safety: `forget` is handed the object it was made for, a `BoxRows<Key>`.
      unsafeDowncast(rows, to: BoxRows<Key>.self).forgetKey(slot: slot, tag: tag)
    })
  }

  isolated deinit {
    keys.free()
    freeTags.free()
  }

  /// The box's storage in `graph`, made and registered (with `owner` as the box's
  /// per-context record) if it has none; the cache then holds it.
  @inlinable
  package static func rows<Edges: EdgeStore>(
    of box: KeyedState<some Any, Edges>, owner: RowOwner, in graph: Graph<Edges>, tags: Tags
  ) -> BoxRows<Key> {
    if let u = box.rowsIfAny(in: graph) {
      // Safety: only `rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
      return withGuaranteed(u) { unsafeDowncast($0, to: BoxRows<Key>.self) }
    }
    let made = BoxRows<Key>(tags: tags)
    graph.setKeyIndex(made, for: box.id)
    graph.setOwner(owner, for: box.id)
    box.cache.pointee.context = graph.identity
    // Lifetime: `graph.setKeyIndex` just retained `made` for the context's life.
    box.cache.pointee.index = Unmanaged.passUnretained(made as AnyObject)
    return made
  }

  /// The key of row `slot` (a row of box `id`), through the box's cache (filled here on the
  /// first run in a context). The shared body's one use of the storage.
  @inlinable @inline(__always)
  package static func key<Edges: EdgeStore>(
    of slot: Slot, in graph: Graph<Edges>, id: Int32, cache: DescriptorCacheRef
  ) -> Key {
    if _slowPath(cache.pointee.context != graph.identity) {
      cache.pointee.context = graph.identity
      // Lifetime: the context's `keyIndexes` owns it; the cache is tagged with its serial.
      cache.pointee.index = Unmanaged.passUnretained(graph.keyIndex(of: id)! as AnyObject)
    }
    let tag = Int(graph.rows.tag[slot])
    return withGuaranteed(cache.pointee.index.unsafelyUnwrapped) {
      // Safety: only `rows(of:)` sets a box's key index: a `BoxRows` of the box's `Key`.
      unsafeDowncast($0, to: BoxRows<Key>.self).keys[tag].unsafelyUnwrapped
    }
  }

  /// The key of the row tagged `tag`, if that row is live.
  @inlinable @inline(__always)
  package func key(tag: UInt32) -> Key? {
    Int(tag) < keys.count ? keys[Int(tag)] : nil
  }

  /// Whether the row tagged `tag` is live and its key is `key` (the warm path's compare: the
  /// stored key borrowed in place, `Key`'s own `==`).
  @inlinable @inline(__always)
  package func holds(_ key: Key, tag: UInt32) -> Bool {
    let t = Int(tag)
    guard t < keys.count else { return false }
    switch keys[t] {
    case .some(let stored): return stored == key
    case .none: return false
    }
  }

  /// The row of `key` (`.entries`), or `.none`.
  @inlinable @inline(__always)
  package func slot(of key: Key) -> Slot {
    if let raw = slots[key] { return Slot(raw) }
    return .none
  }

  /// Makes the row of `key` for `box` (cold: once per key per context while it lives). Under
  /// `.tokens`, `token` is its tag.
  @inlinable
  package func makeRow<Value, Edges: EdgeStore>(
    _ key: Key, token: UInt32 = 0, box: KeyedState<Value, Edges>,
    in graph: Graph<Edges>
  ) -> Slot {
    let tag: UInt32
    switch tags {
    case .tokens: tag = token
    case .entries: tag = freeTags.count > 0 ? freeTags.removeLast() : UInt32(keys.count)
    }
    let pair = graph.allocateValuePair(box.typeIndex, initial: Value?.none)
    let s = graph.allocateRow(
      kind: .computed, descriptor: box.id, typeIndex: box.typeIndex, valueIndex: pair,
      behavior: BehaviorRef(box.behavior), lifetime: box.lifetime, tag: tag)
    let t = Int(tag)
    keys.extend(to: t + 1, with: nil)
    keys[t] = key
    switch tags {
    case .tokens:
      slotOfTag.extend(to: t + 1, with: -1)
      slotOfTag[t] = s.raw
    case .entries:
      slots[key] = s.raw
    }
    return s
  }

  /// Row `slot`, tagged `tag`, was released: its key no longer names it (`forget`, run
  /// specialized through `forgetImpl`).
  @inlinable package func forgetKey(slot: Slot, tag: UInt32) {
    let t = Int(tag)
    guard t < keys.count, let key = keys[t] else { return }
    keys[t] = nil
    switch tags {
    case .tokens:
      if t < slotOfTag.count && slotOfTag[t] == slot.raw { slotOfTag[t] = -1 }
    case .entries:
      if slots[key] == slot.raw { slots[key] = nil }
      freeTags.append(tag)
    }
  }

  /// Row `slot`'s key, for error messages.
  @usableFromInline package override func keyDescription(slot: Slot, tag: UInt32) -> String {
    key(tag: tag).map { "\($0)" } ?? "?"
  }
}
