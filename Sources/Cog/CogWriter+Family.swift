import CogCore
import CogEdgePool
import CogInlineKey

/// Writing a family's rows (`CogFamily`): `w[drafts[id]] = …`, `w[drafts[id]] += …`. A
/// keyed box's reference is computed by the graph: writing it stops with the same message as
/// writing an automatic cog.
extension CogWriter {
  /// The staged value of a family's row (its current value if this turn has not written
  /// it); for a keyed box's row, its current value, as `cogs[ref]` reads it.
  @inlinable public subscript<V>(ref: CogRef<V>) -> V {
    get {
      withGuaranteed(CogGraph.inTurn(graph, turn: turn)) { g in
        if _slowPath(!g.isActiveTurn(turn)) { CogGraph.escapedWriter(turn: turn) }
        guard ref.name.box is InlineFamilyBase<V, SharedEdgePool> else {
          return g.read(ref.name, .tracked)
        }
        return g.stagedValue(
          Self.familyRow(ref, in: g), typeIndex: ref.name.typeIndex, as: V.self)
      }
    }
    nonmutating set {
      withGuaranteed(CogGraph.inTurn(graph, turn: turn)) { g in
        if _slowPath(!g.isActiveTurn(turn)) { CogGraph.escapedWriter(turn: turn) }
        guard let family = ref.name.box as? InlineFamilyBase<V, SharedEdgePool> else {
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
  public func set<V>(_ ref: CogRef<V>, to value: V) throws(CogError) {
    if !CogGraph.isTurnGraph(graph) { throw .escapedWriter(turn: "#\(turn)") }
    let failure: CogError? = withGuaranteed(graph) { g in
      if !g.isActiveTurn(turn) { return .escapedWriter(turn: "#\(turn)") }
      guard let family = ref.name.box as? InlineFamilyBase<V, SharedEdgePool> else {
        return .notWritable(state: ref.label)
      }
      g.stage(
        Self.familyRow(ref, in: g), value, typeIndex: ref.name.typeIndex,
        equality: family.equality)
      return nil
    }
    if let failure { throw failure }
  }

  /// The family row `ref` names in `g`, made if it has none; an unobserved row of a
  /// `.whileObserved` or `.cache` family goes to the collector when the turn ends, as after
  /// an untracked read (its write is then lost: the next use starts from the initial value).
  @inlinable
  static func familyRow<V>(_ ref: CogRef<V>, in g: CogGraph) -> Slot {
    let s = ref.name.resolve(in: g)
    g.noteUnobservedRead(s)
    return s
  }
}
