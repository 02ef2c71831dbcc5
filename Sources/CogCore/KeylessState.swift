/// A keyless descriptor's state (one row per context), shared by every binding: the public
/// `Cog` holds one inline, and so does the workbench's generic binding. Its methods are how
/// any binding names and resolves the row, so that there is one path for it.
@frozen @usableFromInline
package struct KeylessState<Value, Edges: EdgeStore> {
  @usableFromInline package let id: Int32
  @usableFromInline package let typeIndex: Int32
  /// The label given at declaration; empty for the default one (formatted on demand).
  @usableFromInline package let givenLabel: String
  @usableFromInline package let lifetime: RowLifetime
  @usableFromInline package let cachePolicy: (limit: Int, retention: Duration)?
  @usableFromInline package let initial: Value?
  /// A manual state's equality (`nil`: every write changes), called unretained;
  /// `equalityOwner` keeps it alive. Automatic states compare in their behavior.
  @usableFromInline package let equality: Unmanaged<SourceEquality<Value>>?
  @usableFromInline package let equalityOwner: SourceEquality<Value>?
  /// Whether the state is manual (written in turns); an automatic one's rows run the
  /// behavior its binding hands `resolve` (the public `Cog` is its own).
  @usableFromInline package let isManual: Bool

  /// A manual state with an equality of its own (`nil`: every write changes).
  @inlinable
  package init(manual initial: Value, label: String, equality: SourceEquality<Value>?) {
    self.init(
      manual: initial, label: label, equality: equality.map { Unmanaged.passUnretained($0) },
      owner: equality)
  }

  /// A manual state whose equality the registry keeps for the process (`Registry.shared`:
  /// the `==` of `Equatable` values), held unretained: no retain per declaration, no
  /// release per `deinit`.
  @inlinable
  package init(
    manual initial: Value, label: String, sharedEquality: Unmanaged<SourceEquality<Value>>
  ) {
    self.init(manual: initial, label: label, equality: sharedEquality, owner: nil)
  }

  @inlinable
  init(
    manual initial: Value, label: String, equality: Unmanaged<SourceEquality<Value>>?,
    owner: SourceEquality<Value>?
  ) {
    id = Registry.makeDescriptorID()
    // The equality knows the type's index (`SourceEquality.typeIndex`).
    if let equality {
      typeIndex = withGuaranteed(equality) { $0.typeIndex }
    } else {
      typeIndex = Registry.typeIndex(for: Value.self)
    }
    givenLabel = label
    lifetime = .context
    cachePolicy = nil
    self.initial = initial
    self.equality = equality
    equalityOwner = owner
    isManual = true
  }

  /// An automatic state (its binding holds the behavior).
  @inlinable
  package init(
    automatic label: String, lifetime: RowLifetime,
    cachePolicy: (limit: Int, retention: Duration)?, typeIndex: Int32
  ) {
    id = Registry.makeDescriptorID()
    self.typeIndex = typeIndex
    givenLabel = label
    self.lifetime = lifetime
    self.cachePolicy = cachePolicy
    initial = nil
    equality = nil
    equalityOwner = nil
    isManual = false
  }

  /// The given label, or `Cog<Value>#id`: formatted here, on the error and debug paths,
  /// never at declaration (a formatted label over 15 UTF-8 bytes is a heap string, so eager
  /// formatting made declaring allocate once ids passed six digits).
  @usableFromInline package var label: String {
    givenLabel.isEmpty ? "Cog<\(Value.self)>#\(id)" : givenLabel
  }

  /// Warm path of `StateName.names`.
  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>) -> Bool {
    graph.rows.descriptor[candidate] == id
  }

  /// The row in `graph`, made (with `owner` as its per-context record, running `behavior`
  /// if the state is automatic) if it has none. `behavior` is the descriptor's, shared by
  /// every context: it holds nothing of any one of them. `cache` is the owner's
  /// (`KeylessCache`, stored in the descriptor object).
  @MainActor @inlinable @inline(__always)
  package func resolve(
    in graph: Graph<Edges>, cache: borrowing KeylessCache, owner: RowOwner,
    behavior: RowBehavior?
  ) -> Slot {
    let s = graph.cachedKeylessSlot(id: id, cache: cache)
    if _fastPath(!s.isNone) { return s }
    return resolveSlow(in: graph, cache: cache, owner: owner, behavior: behavior)
  }

  /// A cache miss: the context's row, or a new one (cold: once per descriptor per context).
  @MainActor @inlinable @inline(never)
  package func resolveSlow(
    in graph: Graph<Edges>, cache: borrowing KeylessCache, owner: RowOwner,
    behavior: RowBehavior?
  ) -> Slot {
    let s = graph.keylessSlotSlow(id: id, cache: cache)
    if !s.isNone { return s }
    let made = graph.makeKeylessRow(
      id: id, typeIndex: typeIndex, initial: initial, owner: owner,
      behavior: isManual ? nil : behavior, lifetime: lifetime)
    graph.remember(made, id: id, cache: cache)
    return made
  }

  @MainActor @inlinable
  package func existing(in graph: Graph<Edges>) -> Slot { graph.slot(ofDescriptor: id) }
}
