import CogCore

/// What every keyed box holds inline, whatever its reference layout: the descriptor's id,
/// value type, label, lifetime and cache policy, the behavior its rows share, and its
/// one-entry cache of the context it was last used in (there: the box's `BoxRows`). The box
/// (a class of its layout) is the rows' owner and frees the cache in its `deinit`.
// Safety: immutable `let`s; the cache behind `cache` is used by main-actor graph code only.
@frozen @usableFromInline
package struct KeyedState<Value, Edges: EdgeStore>: @unchecked Sendable {
  @usableFromInline package let id: Int32
  @usableFromInline package let typeIndex: Int32
  /// The label given at declaration; empty for the default one.
  @usableFromInline package let givenLabel: String
  @usableFromInline package let lifetime: RowLifetime
  @usableFromInline package let cachePolicy: (limit: Int, retention: Duration)?
  @usableFromInline package let behavior: RowBehavior
  /// The box's key storage (`BoxRows`) in the context it was last used in.
  @usableFromInline package let cache: DescriptorCacheRef

  @inlinable
  package init(
    id: Int32, typeIndex: Int32, label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?, behavior: RowBehavior,
    cache: DescriptorCacheRef
  ) {
    self.id = id
    self.typeIndex = typeIndex
    self.givenLabel = label
    self.lifetime = lifetime
    self.cachePolicy = cachePolicy
    self.behavior = behavior
    self.cache = cache
  }

  /// The box's key storage in `graph` when the cache holds it (no lookup), else `nil`.
  // Lifetime: the context's `keyIndexes` owns it; the cache is tagged with its unique serial.
  @MainActor @inlinable @inline(__always)
  package func cachedRows(in graph: Graph<Edges>) -> Unmanaged<AnyObject>? {
    cache.pointee.context == graph.identity ? cache.pointee.index : nil
  }

  /// The box's key storage in `graph`, from the context's map (cold: the cache missed);
  /// `nil` when the box has no row there yet. Fills the cache.
  // Lifetime: the context's `keyIndexes` owns it; the cache is tagged with its unique serial.
  @MainActor @inlinable @inline(never)
  package func mappedRows(in graph: Graph<Edges>) -> Unmanaged<AnyObject>? {
    guard let index = graph.keyIndex(of: id) else { return nil }
    // Lifetime: the context's `keyIndexes` owns it; the cache is tagged with its unique serial.
    let u = Unmanaged.passUnretained(index as AnyObject)
    cache.pointee.context = graph.identity
    cache.pointee.index = u
    return u
  }

  /// The box's key storage in `graph` (`cachedRows`, then `mappedRows`), or `nil`.
  // Lifetime: the context's `keyIndexes` owns it; the cache is tagged with its unique serial.
  @MainActor @inlinable @inline(__always)
  package func rowsIfAny(in graph: Graph<Edges>) -> Unmanaged<AnyObject>? {
    if let u = cachedRows(in: graph) { return u }
    return mappedRows(in: graph)
  }
}

/// The behavior shared by a box's rows: find the row's key in the box's key storage (by the
/// row's tag), run the body, store the result unless `same(old, new)`. `same` is inlined into
/// the behavior: `==` itself, or the caller's equality (calling a captured equality closure
/// costs a retain and release of its context per run).
@inlinable
package func keyedBehavior<Key: Hashable, Value, Edges: EdgeStore>(
  id: Int32, typeIndex ti: Int32, cache: DescriptorCacheRef,
  _ body: @escaping @MainActor (Key, Graph<Edges>, Slot) -> Value,
  same: @escaping @Sendable (Value, Value) -> Bool
) -> RowBehavior {
  RowBehavior { _, g, slot in
    let graph = Graph<Edges>.unchecked(g)
    let key = BoxRows<Key>.key(of: slot, in: graph, id: id, cache: cache)
    let new = body(key, graph, slot)
    return graph.store(new, at: slot, typeIndex: ti, same: same)
  }
}

/// A family's `KeyedState.behavior`, which its rows never run: they are sources (their
/// behavior column is `nil`), and `KeyedState` holds one for every keyed descriptor.
@usableFromInline
package let manualRowBehavior = RowBehavior(run: { _, _, _ -> Bool in
  fatalError("Cog: a family's row is manual and has no body to run")
})
