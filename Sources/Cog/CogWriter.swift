import CogCore
import CogEdgePool

/// Writes of one turn. Writes are staged; reading through the writer sees them, so
/// `w[countCog] += 1` works. Other readers see the old values until the turn's flush.
///
/// A writer is valid only during its turn's body: using it later is a programming error. The
/// subscript stops the program with a clear message; `set(_:to:)` throws instead.
@MainActor @frozen
public struct CogWriter {
  @usableFromInline unowned(unsafe) let cogs: Cogs
  @usableFromInline let turn: UInt32

  @inlinable init(cogs: Cogs, turn: UInt32) {
    self.cogs = cogs
    self.turn = turn
  }

  /// The staged value of `cog` (its current value if this turn has not written it).
  @inlinable public subscript<V>(cog: Cog<V>) -> V {
    get {
      if _slowPath(cogs.activeTurn != turn) { cogs.misuse(.escapedWriter(turn: "#\(turn)")) }
      let g = cogs.graph
      let s = cog.slot(in: g)
      let vi = Int(g.valueIndex[s])
      let staged = g.flags[s].contains(.touched) && cog.isManual
      return g.valuePointer(cog.typeIndex, Int32(staged ? vi ^ 1 : vi), as: V.self).pointee
        .unsafelyUnwrapped
    }
    nonmutating set {
      do { try set(cog, to: newValue) } catch { cogs.misuse(error) }
    }
  }

  /// Stages `value` for the manual cog `cog`.
  @inlinable
  public func set<V>(_ cog: Cog<V>, to value: V) throws(CogError) {
    if _slowPath(cogs.activeTurn != turn) { throw .escapedWriter(turn: "#\(turn)") }
    if _slowPath(!cog.isManual) { throw .notWritable(state: cog.label) }
    let g = cogs.graph
    let s = cog.slot(in: g)
    let vi = g.valueIndex[s]
    _ = g.touch(s)
    g.valuePointer(cog.typeIndex, vi ^ 1, as: V.self).pointee = value
    let current = g.valuePointer(cog.typeIndex, vi, as: V.self)
    let equal = cog.isEqual.map { $0(current.pointee.unsafelyUnwrapped, value) } ?? false
    if equal { g.flags[s].remove(.staged) } else { g.flags[s].insert(.staged) }
  }
}
