import CogCore
import CogEdgePool

/// The part of a keyed box that does not depend on the key type: what a `CogRef` holds.
public class CogBoxBase<Value>: RowOwner, @unchecked Sendable {
  public let id: Int32
  public let typeIndex: Int32
  /// The label given at declaration; empty for the default one.
  let givenLabel: String
  public let lifetime: CogLifetime
  @usableFromInline let behavior: RowBehavior<SharedEdgePool>
  /// The box's key index in the context it was last used in.
  @usableFromInline let cache: DescriptorCacheRef

  public var cachePolicy: (limit: Int, retention: Duration)? { lifetime.cachePolicy }

  /// The given label, or `CogBox<Key, Value>#id`, formatted when read (see `Cog.label`).
  public var label: String { givenLabel.isEmpty ? defaultLabel : givenLabel }
  var defaultLabel: String { "CogBox<\(Value.self)>#\(id)" }

  @usableFromInline
  init(
    id: Int32, typeIndex: Int32, label: String, lifetime: CogLifetime,
    behavior: RowBehavior<SharedEdgePool>, cache: DescriptorCacheRef
  ) {
    self.cache = cache
    self.id = id
    self.typeIndex = typeIndex
    self.givenLabel = label
    self.lifetime = lifetime
    self.behavior = behavior
  }

  deinit { cache.free() }

  /// The row for `key`. Warm path: the running body's tracking cursor points at the row it
  /// read here last time; comparing descriptor and key confirms it without hashing. Cold
  /// path: the box's per-context `Dictionary<Key, Int32>`, which hashes the concrete key.
  @MainActor @inlinable @inline(__always)
  func slot(for key: AnyHashable, in graph: CogGraph) -> Slot {
    let candidate = graph.nextCandidateDependency()
    if !candidate.isNone && graph.descriptor[candidate] == id,
      let k = graph.keyOf[candidate], k == key
    {
      return candidate
    }
    return lookup(key, in: graph)
  }

  @MainActor @usableFromInline
  func lookup(_ key: AnyHashable, in graph: CogGraph) -> Slot { fatalError("abstract") }

  /// The existing row for `key`, or `.none`.
  @MainActor @usableFromInline
  func existing(_ key: AnyHashable, in graph: CogGraph) -> Slot { fatalError("abstract") }
}

/// A family of automatic cogs, one per key, sharing one compute body:
/// ```swift
/// let weatherReportCogs = CogBox { (zip: String, c) in fetchCached(zip) }
/// let report = c[weatherReportCogs["94110"]]
/// ```
/// `box[key]` makes a value reference (`CogRef`): a name, not a row. It allocates nothing;
/// rows are created on first read in a context and may be released by their lifetime.
public final class CogBox<Key: Hashable, Value>: CogBoxBase<Value>, @unchecked Sendable {
  /// A keyed box whose rows compare results with `==`.
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (Key, CogContext<Value>) -> Value
  ) where Value: Equatable {
    let id = Registry.makeDescriptorID()
    let ti = Registry.typeIndex(for: Value.self)
    let cache = DescriptorCache.make()
    // `==` inline rather than a stored equality closure: calling a captured closure costs a
    // retain and release of its context per run (profiled on cog/keyed-diamond).
    let behavior = RowBehavior<SharedEdgePool> { graph, slot in
      Self.run(graph, slot, id: id, typeIndex: ti, cache: cache, body) { $0 == $1 }
    }
    self.init(
      id: id, typeIndex: ti, label: label, lifetime: lifetime, behavior: behavior, cache: cache)
  }

  /// A keyed box with a custom equality (`nil`: every recompute is a change).
  @inlinable
  public convenience init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?,
    _ body: @escaping @MainActor (Key, CogContext<Value>) -> Value
  ) {
    let id = Registry.makeDescriptorID()
    let ti = Registry.typeIndex(for: Value.self)
    let cache = DescriptorCache.make()
    let behavior = RowBehavior<SharedEdgePool> { graph, slot in
      Self.run(graph, slot, id: id, typeIndex: ti, cache: cache, body) { old, new in
        if let equals { return equals(old, new) }
        return false
      }
    }
    self.init(
      id: id, typeIndex: ti, label: label, lifetime: lifetime, behavior: behavior, cache: cache)
  }

  @usableFromInline
  override init(
    id: Int32, typeIndex: Int32, label: String, lifetime: CogLifetime,
    behavior: RowBehavior<SharedEdgePool>, cache: DescriptorCacheRef
  ) {
    super.init(
      id: id, typeIndex: typeIndex, label: label, lifetime: lifetime, behavior: behavior,
      cache: cache)
  }

  override var defaultLabel: String { "CogBox<\(Key.self), \(Value.self)>#\(id)" }

  /// What a row's behavior does: runs the body for the row's key and stores the result
  /// unless `same(old, new)`; returns whether the value changed. Inlined into each
  /// initializer's behavior, so that `same` is `==` itself or the caller's equality.
  @MainActor @inlinable @inline(__always)
  static func run(
    _ graph: CogGraph, _ slot: Slot, id: Int32, typeIndex ti: Int32, cache: DescriptorCacheRef,
    _ body: @MainActor (Key, CogContext<Value>) -> Value, same: (Value, Value) -> Bool
  ) -> Bool {
    let key = key(of: slot, in: graph, id: id, cache: cache)
    let new = body(key, CogContext(graph: graph, slot: slot))
    let entry = graph.valuePointer(ti, graph.valueIndex[slot], as: Value.self)
    if let old = entry.pointee, same(old, new) { return false }
    entry.pointee = new
    return true
  }

  /// The key of row `slot`, read from the box's key index through the cache (filled here on
  /// the first run in a context).
  @MainActor @inlinable @inline(__always)
  static func key(of slot: Slot, in graph: CogGraph, id: Int32, cache: DescriptorCacheRef) -> Key {
    if _slowPath(cache.pointee.context != graph.identity) {
      cache.pointee.context = graph.identity
      cache.pointee.index = Unmanaged.passUnretained(graph.keyIndex(of: id)! as AnyObject)
    }
    return withGuaranteed(cache.pointee.index.unsafelyUnwrapped) {
      unsafeDowncast($0, to: BoxIndex<Key>.self).keys[slot].unsafelyUnwrapped
    }
  }

  /// The value reference for `key`.
  @inlinable public subscript(key: Key) -> CogRef<Value> {
    CogRef(box: self, key: AnyHashable(key))
  }

  @MainActor @usableFromInline
  func index(in graph: CogGraph) -> BoxIndex<Key> {
    if let existing = graph.keyIndex(of: id) {
      return unsafeDowncast(existing as AnyObject, to: BoxIndex<Key>.self)
    }
    let index = BoxIndex<Key>()
    graph.setKeyIndex(index, for: id)
    graph.setOwner(self, for: id)
    return index
  }

  /// The row of `key` through the one-entry cache (context identity + unretained key index),
  /// which the behavior also fills: a read outside a body (no tracking cursor to confirm)
  /// then costs one hash of the concrete key and no dictionary lookup of the index, no
  /// existential and no reference counting. `.none` on a miss.
  @MainActor @inlinable @inline(__always)
  func cachedSlot(_ k: Key, in graph: CogGraph) -> Slot {
    guard cache.pointee.context == graph.identity, let index = cache.pointee.index else {
      return .none
    }
    let raw = withGuaranteed(index) { unsafeDowncast($0, to: BoxIndex<Key>.self).slots[k] }
    if let raw { return Slot(raw) }
    return .none
  }

  @MainActor @usableFromInline
  override func existing(_ key: AnyHashable, in graph: CogGraph) -> Slot {
    guard let existing = graph.keyIndex(of: id), let k = key.base as? Key else { return .none }
    let index = unsafeDowncast(existing as AnyObject, to: BoxIndex<Key>.self)
    if let raw = index.slots[k] { return Slot(raw) }
    return .none
  }

  @MainActor @usableFromInline
  override func lookup(_ key: AnyHashable, in graph: CogGraph) -> Slot {
    let k = key.base as! Key
    let cached = cachedSlot(k, in: graph)
    if !cached.isNone { return cached }
    let index = index(in: graph)
    cache.pointee.context = graph.identity
    cache.pointee.index = Unmanaged.passUnretained(index as AnyObject)
    if let s = index.slots[k] { return Slot(s) }
    let pair = graph.allocateValuePair(typeIndex, initial: Value?.none)
    let s = graph.allocateRow(
      kind: .computed, descriptor: id, typeIndex: typeIndex, valueIndex: pair,
      behavior: behavior, lifetime: lifetime.row, key: key)
    index.slots[k] = s.raw
    index.keys.extend(to: s.index + 1, with: nil)
    index.keys[s] = k
    return s
  }
}

/// A keyed box's rows in one context: key → slot for cold lookups, and slot → typed key so
/// the shared body gets its key without a dynamic cast.
@MainActor
public final class BoxIndex<Key: Hashable>: KeyedRowIndex {
  @usableFromInline var slots: [Key: Int32] = [:]
  @exclusivity(unchecked) @usableFromInline var keys = RawColumn<Key?>(capacity: 16)

  @usableFromInline init() {}
  isolated deinit { keys.free() }

  public func forget(key: AnyHashable, slot: Slot) {
    if let k = key.base as? Key, slots[k] == slot.raw { slots[k] = nil }
    if slot.index < keys.count { keys[slot] = nil }
  }
}

/// A value reference: a keyed box plus a key. A stable name that never stores a row, so it
/// stays valid when its row is released and later re-created.
public struct CogRef<Value> {
  @usableFromInline let box: CogBoxBase<Value>
  public let key: AnyHashable

  @inlinable init(box: CogBoxBase<Value>, key: AnyHashable) {
    self.box = box
    self.key = key
  }

  public var label: String { "\(box.label)[\(key.base)]" }
}
