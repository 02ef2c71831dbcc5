import CogCore
import CogKeySupport
import Synchronization

/// The interned reference layout (seed 000 §4): `box[key]` interns the key in the box's
/// process-wide table and the reference is two words, the box and a 32-bit token. A row's tag
/// is its token, so the warm path confirms a candidate with two integer compares (descriptor
/// and tag), and a cold lookup in a context is an array index by token (no hashing).
///
/// Retention rule: an interned key stays in its box's table as long as the box lives, and a
/// token is never reused. A reference may outlive every row of its key (it is a name, not a
/// row), so freeing a token while a reference to it may exist would let that reference name
/// another key. The table therefore grows by one entry per distinct key ever referenced
/// (measured under key churn: `ReferenceLayoutConformanceTests.internTableGrowth`, swift/0006),
/// and each context that reads the box keeps a slot and a key per token it has seen (`BoxRows`,
/// `.tokens`).

/// A box's intern table: key → token and token → key, written under its lock when a key is
/// interned; a reference made for a known key reads it under the same lock and writes nothing.
// Safety: its mutable entries are behind `entries`' lock (see `Entries`).
@usableFromInline
package final class InternTable<Key: Hashable>: @unchecked Sendable {
  /// `@unchecked`: keys need not be `Sendable` (as for any box: apps declare boxes as globals
  /// and make references on any thread); they are only touched under the lock.
  // Safety: only touched under `InternTable.entries`' lock.
  @usableFromInline
  package struct Entries: @unchecked Sendable {
    @usableFromInline package var tokens: [Key: UInt32] = [:]
    @usableFromInline package var keys: [Key] = []
    @inlinable package init() {}
  }
  @usableFromInline package let entries = Mutex(Entries())

  @inlinable package init() {}

  /// The token of `key`, interned on first use (the one allocation a reference can cost:
  /// when the table grows).
  @inlinable package func token(for key: Key) -> UInt32 {
    entries.withLock { e in
      if let t = e.tokens[key] { return t }
      let t = UInt32(e.keys.count)
      e.tokens[key] = t
      e.keys.append(key)
      return t
    }
  }

  /// The key of `token` (cold: when a context makes the token's row).
  @inlinable package func key(of token: UInt32) -> Key {
    entries.withLock { $0.keys[Int(token)] }
  }

  /// Interned keys so far.
  @inlinable package var count: Int { entries.withLock { $0.keys.count } }
}

/// The part of an interned box that does not depend on the key type: what a reference holds.
// Safety: immutable after init; rows are reached on the main actor only.
@usableFromInline
package class InternedBoxBase<Value, Edges: EdgeStore>: RowOwner, @unchecked Sendable {
  @usableFromInline package let state: KeyedState<Value, Edges>
  /// The key-typed cold path (make the row of a token in a context): made by the typed
  /// subclass's initializer so that it runs specialized (see `InlineBoxBase`).
  @usableFromInline package let makeImpl: @MainActor (InternedBoxBase, UInt32, Graph<Edges>) -> Slot

  @inlinable
  package init(
    id: Int32, typeIndex: Int32, label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?, behavior: RowBehavior,
    cache: DescriptorCacheRef,
    make: @escaping @MainActor (InternedBoxBase, UInt32, Graph<Edges>) -> Slot
  ) {
    makeImpl = make
    state = KeyedState(
      id: id, typeIndex: typeIndex, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: behavior, cache: cache)
  }

  deinit { state.cache.free() }

  /// `RowOwner`: the contexts holding this box (in its cache entry).
  @usableFromInline package func contextHold(_ delta: Int32) -> Int32 {
    state.cache.pointee.holds &+= delta
    return state.cache.pointee.holds
  }
  @usableFromInline package var label: String { state.givenLabel }
  @usableFromInline package var cachePolicy: (limit: Int, retention: Duration)? {
    state.cachePolicy
  }

  /// The existing row of `token` in `graph`, or `.none`: the box's storage from its cache,
  /// then an array index. Needs no key type: the storage's token column is not generic.
  @MainActor @inlinable @inline(__always)
  package final func existing(_ token: UInt32, in graph: Graph<Edges>) -> Slot {
    guard let u = state.rowsIfAny(in: graph) else { return .none }
    // Safety: only `BoxRows.rows(of:)` sets a box's key index: a `BoxRows`, a `KeyRowsBase`.
    return withGuaranteed(u) { unsafeDowncast($0, to: KeyRowsBase.self).slot(ofToken: token) }
  }

  /// The row of `token`, made if it has none (cold).
  @MainActor @inlinable @inline(never)
  package final func lookup(_ token: UInt32, in graph: Graph<Edges>) -> Slot {
    let s = existing(token, in: graph)
    if !s.isNone { return s }
    return makeImpl(self, token, graph)
  }
}

/// An interned box over keys of type `Key`.
// Safety: immutable after init; rows are reached on the main actor only.
@usableFromInline
package final class InternedBox<Key: Hashable, Value, Edges: EdgeStore>:
  InternedBoxBase<Value, Edges>, @unchecked Sendable
{
  @usableFromInline package let table = InternTable<Key>()

  @inlinable
  package convenience init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (Key, Graph<Edges>, Slot) -> Value,
    same: @escaping @Sendable (Value, Value) -> Bool
  ) {
    let id = Registry.makeDescriptorID()
    let ti = Registry.typeIndex(for: Value.self)
    let cache = DescriptorCache.make()
    self.init(
      id: id, typeIndex: ti, label: label, lifetime: lifetime, cachePolicy: cachePolicy,
      behavior: keyedBehavior(id: id, typeIndex: ti, cache: cache, body, same: same),
      cache: cache,
      make: { box, token, graph in
        // Safety: this path closure is made in `InternedBox`'s own init and handed that box.
        unsafeDowncast(box, to: InternedBox.self).makeRow(token, in: graph)
      })
  }

  @inlinable package override var label: String {
    state.givenLabel.isEmpty
      ? "CogBox<\(typeName(Key.self)), \(typeName(Value.self))>#\(state.id)"
      : state.givenLabel
  }

  @MainActor @inlinable
  package func makeRow(_ token: UInt32, in graph: Graph<Edges>) -> Slot {
    let rows = BoxRows<Key>.rows(
      of: state, owner: self, in: graph, tags: .tokens)
    return rows.makeRow(table.key(of: token), token: token, box: state, in: graph)
  }

  /// The reference for `key` (interns it on first use).
  @inlinable package func name(_ key: Key) -> InternedKeyName<Value, Edges> {
    InternedKeyName(box: self, token: table.token(for: key))
  }
}

/// An interned reference: two words, the box and the key's token.
@frozen @usableFromInline
package struct InternedKeyName<Value, Edges: EdgeStore> {
  @usableFromInline package let box: InternedBoxBase<Value, Edges>
  @usableFromInline package let token: UInt32

  @inlinable package init(box: InternedBoxBase<Value, Edges>, token: UInt32) {
    self.box = box
    self.token = token
  }

  @inlinable package var typeIndex: Int32 { box.state.typeIndex }
}

extension InternedKeyName: StateName {
  /// Two integer compares: the candidate's descriptor and its tag (the token).
  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    graph.rows.descriptor[candidate] == box.state.id && graph.rows.tag[candidate] == token
  }

  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>) -> Slot { box.lookup(token, in: graph) }

  @MainActor @inlinable
  package func existing(in graph: Graph<Edges>) -> Slot { box.existing(token, in: graph) }
}
