import CogCore
import CogEdgePool
import CogTypedKey

/// Writing a family's rows (`CogFamily`): `w[draftCogs[id]] = …`, `w[draftCogs[id]] += …`.
/// The checks and the write are a manual cog's (`CogWriter.subscript(cog:)`): the same escape
/// test, then `Graph.stage`. A keyed box's reference names a computed row: writing it stops
/// with the same message as writing an automatic cog.
extension CogWriter {
  /// The staged value of a family's row (its current value if this turn has not written it);
  /// for a keyed box's row, its current value, as `cogs[ref]` reads it.
  @inlinable public subscript<K, V>(ref: CogRef<K, V>) -> V {
    get {
      withGuaranteed(graph) { g in
        // The global test first: it reads nothing of a graph that may be gone.
        if _slowPath(!CogGraph.isTurnGraph(graph) || !g.isActiveTurn(turn)) {
          CogGraph.escapedWriter(turn: turn)
        }
        guard ref.name.box.family != nil else { return g.read(ref.name, .tracked) }
        return g.stagedValue(Self.familyRow(ref, in: g), typeIndex: ref.name.typeIndex, as: V.self)
      }
    }
    nonmutating set {
      withGuaranteed(graph) { g in
        // The global test first: it reads nothing of a graph that may be gone.
        if _slowPath(!CogGraph.isTurnGraph(graph) || !g.isActiveTurn(turn)) {
          CogGraph.escapedWriter(turn: turn)
        }
        guard let family = ref.name.box.family else {
          g.misuse(.notWritable(state: ref.label))
        }
        g.stage(
          Self.familyRow(ref, in: g), newValue, typeIndex: ref.name.typeIndex,
          equality: family.equality)
      }
    }
  }

  /// Stages `value` for a family's row; throws instead of stopping the program when the
  /// writer's turn has ended or `ref` names a keyed box's (computed) row.
  @inlinable
  public func set<K, V>(_ ref: CogRef<K, V>, to value: V) throws(CogError) {
    if !CogGraph.isTurnGraph(graph) { throw .escapedWriter(turn: "#\(turn)") }
    let failure: CogError? = withGuaranteed(graph) { g in
      if !g.isActiveTurn(turn) { return .escapedWriter(turn: "#\(turn)") }
      guard let family = ref.name.box.family else {
        return .notWritable(state: ref.label)
      }
      g.stage(
        Self.familyRow(ref, in: g), value, typeIndex: ref.name.typeIndex,
        equality: family.equality)
      return nil
    }
    if let failure { throw failure }
  }

  /// The family row `ref` names in `g`, made with its initial value if it has none. A row
  /// nothing observes goes to the collector, as after an outermost read: a `.whileObserved`
  /// one is released when the operation ends (its write is lost: the next use starts from
  /// the initial value), a `.cache` one is kept by its limit and retention.
  @inlinable
  static func familyRow<K, V>(_ ref: CogRef<K, V>, in g: CogGraph) -> Slot {
    let s = ref.name.resolve(in: g)
    g.noteUnobservedRead(s)
    return s
  }
}
