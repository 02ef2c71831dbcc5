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

  /// The value served to a read that a cycle kept from bringing `s` up to date: the state's
  /// last value, or its type's placeholder if it never had one (`CogCyclePlaceholder`). A type
  /// with no placeholder stops the program with the cycle named: non-throwing reads must
  /// return a value, and there is none.
  @inline(never) @usableFromInline
  func cycleValue<T>(_ s: Slot, typeIndex: Int32, as: T.Type) -> T {
    if let v = valuePointer(typeIndex, valueIndex[s], as: T.self).pointee { return v }
    if let p = cyclePlaceholder(T.self) { return p }
    let names = describe(cycle ?? [s])
    fatalError(
      "\(CogError.cycle(states: names)); '\(describe(s))' was read in the cycle before it ever "
        + "had a value, and \(T.self) has no placeholder to serve (see CogCyclePlaceholder). "
        + "Break the cycle: a state must not read itself through its dependencies")
  }
}
