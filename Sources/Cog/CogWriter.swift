import CogCore
import CogEdgePool
import CogTypedKey

/// Writes of one turn. Writes are staged; reading a manual cog through the writer sees them,
/// so `w[countCog] += 1` works. Other readers see the old values until the turn's flush.
///
/// A writer is valid only during its turn's body: using it later is a programming error. The
/// subscript stops the program with a clear message; `set(_:to:)` throws instead.
@MainActor @frozen
public struct CogWriter {
  // Lifetime: unretained; its `Cogs` owns the graph; `isTurnGraph` checks it first (escapedWriter).
  @usableFromInline let graph: Unmanaged<CogGraph>
  @usableFromInline let turn: UInt32

  @inlinable init(graph: CogGraph, turn: UInt32) {
    // Lifetime: see `graph`: checked by `isTurnGraph` before each use.
    self.graph = Unmanaged.passUnretained(graph)
    self.turn = turn
  }

  /// The staged value of a manual `cog` (its current value if this turn has not written it);
  /// for an automatic cog, its current value, computed from the committed sources (this
  /// turn's writes are published when the turn ends), as `cogs[cog]` reads it.
  @inlinable public subscript<V>(cog: Cog<V>) -> V {
    get {
      withGuaranteed(graph) { g in
        // The global test first: it reads nothing of a graph that may be gone.
        if _slowPath(!CogGraph.isTurnGraph(graph) || !g.isActiveTurn(turn)) {
          CogGraph.escapedWriter(turn: turn)
        }
        if !cog.state.isManual { return g.read(cog, .tracked) }
        return g.stagedValue(cog.resolve(in: g), typeIndex: cog.typeIndex, as: V.self)
      }
    }
    nonmutating set {
      withGuaranteed(graph) { g in
        // The global test first: it reads nothing of a graph that may be gone.
        if _slowPath(!CogGraph.isTurnGraph(graph) || !g.isActiveTurn(turn)) {
          CogGraph.escapedWriter(turn: turn)
        }
        if _slowPath(!cog.state.isManual) { g.misuse(.notWritable(state: cog.label)) }
        g.stage(
          cog.resolve(in: g), newValue, typeIndex: cog.typeIndex, equality: cog.state.equality)
      }
    }
  }

  /// Stages `value` for the manual cog `cog`; throws instead of stopping the program when the
  /// writer's turn has ended or `cog` is automatic.
  @inlinable
  public func set<V>(_ cog: Cog<V>, to value: V) throws(CogError) {
    if !CogGraph.isTurnGraph(graph) { throw .escapedWriter(turn: "#\(turn)") }
    let failure: CogError? = withGuaranteed(graph) { g in
      if !g.isActiveTurn(turn) { return .escapedWriter(turn: "#\(turn)") }
      if !cog.state.isManual { return .notWritable(state: cog.label) }
      g.stage(cog.resolve(in: g), value, typeIndex: cog.typeIndex, equality: cog.state.equality)
      return nil
    }
    if let failure { throw failure }
  }
}
