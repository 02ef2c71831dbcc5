import CogCore
import CogEdgePool

/// Typed reads over the core: resolve the row, bring it up to date (and track it), load the
/// value from the descriptor's typed column.
extension Graph where Edges == SharedEdgePool {
  @inlinable @inline(__always)
  func value<T>(of cog: Cog<T>, tracked: Bool) -> T { valueAndSlot(of: cog, tracked: tracked).0 }

  @inlinable @inline(__always)
  func valueAndSlot<T>(of cog: Cog<T>, tracked: Bool) -> (T, Slot) {
    let s = cog.slot(in: self)
    let ok = tracked ? readTracked(s) : readUntracked(s)
    if _slowPath(!ok) { return (cycleValue(s, typeIndex: cog.typeIndex, as: T.self), s) }
    return (valuePointer(cog.typeIndex, valueIndex[s], as: T.self).pointee.unsafelyUnwrapped, s)
  }

  @inlinable @inline(__always)
  func value<T>(of ref: CogRef<T>, tracked: Bool) -> (T, Slot) {
    let s = ref.box.slot(for: ref.key, in: self)
    let ok = tracked ? readTracked(s) : readUntracked(s)
    if _slowPath(!ok) { return (cycleValue(s, typeIndex: ref.box.typeIndex, as: T.self), s) }
    return (valuePointer(ref.box.typeIndex, valueIndex[s], as: T.self).pointee.unsafelyUnwrapped, s)
  }

  /// The value served to a read that closed a cycle: the state's previous value. A state in
  /// a cycle that never produced a value has nothing to serve; Swift cannot unwind the
  /// non-throwing bodies above it, so that case stops the program with the cycle named.
  @inline(never) @usableFromInline
  func cycleValue<T>(_ s: Slot, typeIndex: Int32, as: T.Type) -> T {
    if flags[s].contains(.hasValue),
      let v = valuePointer(typeIndex, valueIndex[s], as: T.self).pointee
    {
      return v
    }
    let names = describe(cycle ?? [s])
    fatalError("\(CogError.cycle(states: names)) (no earlier value to serve)")
  }
}
