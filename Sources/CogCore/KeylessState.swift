/// A keyless descriptor's state (one row per context), shared by every binding: the public
/// `Cog` holds one inline, and so does the workbench's generic binding. Its methods are how
/// any binding names and resolves the row, so that there is one path for it.
///
/// Laid out so that a manual `Cog<Int>` is one 64-byte object (swift/0008, "Memory per
/// descriptor"): behind the object's header and its `KeylessCache` (16 bytes, the id among
/// them), 32 bytes for `Int`:
/// ```
///   0        8        16              25        28         32
///   equality details  initial (Int?)  isManual  typeIndex
/// ```
/// What only some descriptors need (a label, a lifetime other than `.context`, a cache
/// policy, an equality of their own, an automatic state's body) lives in `details`, which a
/// plain manual state does without. `isManual` and `typeIndex` follow `initial` so that they
/// fill its padding.
@frozen @usableFromInline
package struct KeylessState<Value, Edges: EdgeStore> {
  /// A manual state's equality (`nil`: every write changes, or automatic), called
  /// unretained; `details` or the registry (`Registry.shared`) keeps it alive.
  // Lifetime: `details` (an own equality) or the registry (shared `==`) keeps it alive.
  @usableFromInline package let equality: Unmanaged<SourceEquality<Value>>?
  /// The label, lifetime, cache policy and equality owner, and an automatic state's rows'
  /// behavior (`KeylessBehavior`); `nil` for a manual state with none of them.
  @usableFromInline package let details: KeylessDetails?
  @usableFromInline package let initial: Value?
  /// Whether the state is manual (written in turns); an automatic one's rows run `details`.
  @usableFromInline package let isManual: Bool
  @usableFromInline package let typeIndex: Int32

  /// A manual state with an equality of its own (`nil`: every write changes).
  @inlinable
  package init(manual initial: Value, label: String, equality: SourceEquality<Value>?) {
    // Lifetime: `owner: equality` makes `details` keep it alive.
    self.init(
      manual: initial, label: label, equality: equality.map { Unmanaged.passUnretained($0) },
      owner: equality)
  }

  /// A manual state whose equality the registry keeps for the process (`Registry.shared`:
  /// the `==` of `Equatable` values), held unretained: no retain per declaration, no
  /// release per `deinit`.
  // Lifetime: the registry keeps shared equalities for the process.
  @inlinable
  package init(
    manual initial: Value, label: String, sharedEquality: Unmanaged<SourceEquality<Value>>
  ) {
    self.init(manual: initial, label: label, equality: sharedEquality, owner: nil)
  }

  // Lifetime: `owner` (kept by `details`) or the registry keeps `equality` alive.
  @inlinable
  init(
    manual initial: Value, label: String, equality: Unmanaged<SourceEquality<Value>>?,
    owner: SourceEquality<Value>?
  ) {
    // The equality knows the type's index (`SourceEquality.typeIndex`).
    if let equality {
      typeIndex = withGuaranteed(equality) { $0.typeIndex }
    } else {
      typeIndex = Registry.typeIndex(for: Value.self)
    }
    self.initial = initial
    self.equality = equality
    details =
      label.isEmpty && owner == nil
      ? nil : KeylessDetails.manual(label: label, equalityKeeper: owner)
    isManual = true
  }

  /// An automatic state whose rows run `behavior` (which holds its label and lifetime).
  @inlinable
  package init(automatic behavior: KeylessDetails, typeIndex: Int32) {
    self.typeIndex = typeIndex
    initial = nil
    equality = nil
    details = behavior
    isManual = false
  }

  /// The label given at declaration; empty for the default one.
  @inlinable package var givenLabel: String { details?.givenLabel ?? "" }
  @inlinable package var lifetime: RowLifetime { details?.lifetime ?? .context }
  @inlinable package var cachePolicy: (limit: Int, retention: Duration)? {
    details?.cachePolicy
  }
  /// An automatic state's rows' behavior (`nil` for a manual state).
  @inlinable package var behavior: RowBehavior? { isManual ? nil : details }

  /// The given label, or `Cog<Value>#id`: formatted here, on the error and debug paths,
  /// never at declaration (a formatted label over 15 UTF-8 bytes is a heap string, so eager
  /// formatting made declaring allocate once ids passed six digits).
  @usableFromInline package func label(id: Int32) -> String {
    let given = givenLabel
    return given.isEmpty ? unlabeledCogLabel(typeName: typeName(Value.self), id: id) : given
  }

  /// Warm path of `StateName.names`.
  @MainActor @inlinable @inline(__always)
  package func names(_ candidate: Slot, in graph: Graph<Edges>, id: Int32) -> Bool {
    graph.rows.descriptor[candidate] == id
  }

  /// The row in `graph`, made (holding `details`, running them if the state is automatic) if
  /// it has none. The behavior is the descriptor's, shared by every context: it holds
  /// nothing of any one of them. `cache` is the descriptor's (`KeylessCache`, stored in the
  /// descriptor object, with the descriptor's id).
  @MainActor @inlinable @inline(__always)
  package func resolve(in graph: Graph<Edges>, cache: borrowing KeylessCache) -> Slot {
    let s = knownSlot(in: graph, cache: cache)
    if _fastPath(!s.isNone) { return s }
    return resolveSlow(in: graph, cache: cache)
  }

  /// `StateName.knownSlot`: the row through the descriptor's cache, or `.none` (no call).
  @MainActor @inlinable @inline(__always)
  package func knownSlot(in graph: Graph<Edges>, cache: borrowing KeylessCache) -> Slot {
    graph.cachedKeylessSlot(id: cache.id, cache: cache)
  }

  /// A cache miss: the context's row, or a new one (cold: once per descriptor per context,
  /// and on each read in a context while another live context holds the cache).
  @MainActor @inlinable @inline(never)
  package func resolveSlow(in graph: Graph<Edges>, cache: borrowing KeylessCache) -> Slot {
    let id = cache.id
    let s = graph.keylessSlotSlow(id: id, cache: cache)
    if !s.isNone { return s }
    // Lifetime: the caller's descriptor keeps `details`. (Not `details.map`: a closure
    // literal in main-actor code handed to the standard library costs an executor check.)
    var held: Unmanaged<KeylessDetails>? = nil
    if let details { held = Unmanaged.passUnretained(details) }
    return graph.makeKeylessRow(
      id: id, typeIndex: typeIndex, initial: initial, details: held, runs: !isManual,
      lifetime: lifetime, cache: cache)
  }

  /// The row in `graph`, or `.none` (makes none).
  @MainActor @inlinable
  package func existing(in graph: Graph<Edges>, cache: borrowing KeylessCache) -> Slot {
    graph.existingKeylessSlot(id: cache.id, cache: cache)
  }
}
