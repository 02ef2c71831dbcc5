import CogCore
import CogEdgePool

/// Writes of one turn. Writes are staged; reading through the writer sees them, so
/// `w[countCog] += 1` works. Other readers see the old values until the turn's flush.
///
/// A writer is valid only during its turn's body: using it later is a programming error. The
/// subscript stops the program with a clear message; `set(_:to:)` throws instead.
@MainActor @frozen
public struct CogWriter {
  @usableFromInline let context: Unmanaged<Cogs>
  @usableFromInline let turn: UInt32

  @inlinable init(cogs: Cogs, turn: UInt32) {
    self.context = Unmanaged.passUnretained(cogs)
    self.turn = turn
  }

  /// The staged value of a manual `cog` (its current value if this turn has not written it);
  /// for an automatic cog, its current value, computed from the committed sources (this
  /// turn's writes are published when the turn ends), as `cogs[cog]` reads it.
  @inlinable public subscript<V>(cog: Cog<V>) -> V {
    get {
      withGuaranteed(context) { cogs in
        if _slowPath(cogs.activeTurn != turn) { cogs.misuse(.escapedWriter(turn: "#\(turn)")) }
        if !cog.isManual { return cogs[cog] }
        return read(cog, in: cogs.graph)
      }
    }
    nonmutating set {
      withGuaranteed(context) { cogs in
        do throws(CogError) { try stage(cog, newValue, in: cogs) } catch { cogs.misuse(error) }
      }
    }
  }

  /// A manual cog's staged or current value.
  @inlinable @inline(__always)
  func read<V>(_ cog: Cog<V>, in g: CogGraph) -> V {
    let s = cog.slot(in: g)
    let vi = g.valueIndex[s]
    let staged = g.flags[s].contains(.touched)
    return g.valuePointer(cog.typeIndex, staged ? vi ^ 1 : vi, as: V.self).pointee
      .unsafelyUnwrapped
  }

  /// Stages `value` for the manual cog `cog`.
  @inlinable
  public func set<V>(_ cog: Cog<V>, to value: V) throws(CogError) {
    var failure: CogError? = nil
    withGuaranteed(context) { cogs in
      do throws(CogError) { try stage(cog, value, in: cogs) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  @inlinable @inline(__always)
  func stage<V>(_ cog: Cog<V>, _ value: V, in cogs: Cogs) throws(CogError) {
    if _slowPath(cogs.activeTurn != turn) { throw .escapedWriter(turn: "#\(turn)") }
    if _slowPath(!cog.isManual) { throw .notWritable(state: cog.label) }
    let g = cogs.graph
    let s = cog.slot(in: g)
    let vi = g.valueIndex[s]
    _ = g.touch(s)
    g.valuePointer(cog.typeIndex, vi ^ 1, as: V.self).pointee = value
    let current = g.valuePointer(cog.typeIndex, vi, as: V.self)
    var equal = false
    if let equality = cog.equality {
      equal = withGuaranteed(equality) { $0.equal(current.pointee.unsafelyUnwrapped, value) }
    }
    if equal { g.flags[s].remove(.staged) } else { g.flags[s].insert(.staged) }
  }
}
