/// The type-erased face of a typed value column: what the core needs without knowing the
/// value type (dropping a released row's value). Only cold paths call through it.
@MainActor
@usableFromInline
package class AnyValueColumn {
  @usableFromInline init() {}
  /// Drops the values of the pair starting at `pair` and returns the pair to the free list.
  @usableFromInline package func drop(pair: Int32) { fatalError("abstract") }
  /// The value at `entry` as text (`String(describing:)`), or nil when it holds none.
  @usableFromInline package func describe(entry: Int32) -> String? { fatalError("abstract") }
}

/// One typed column per value type per context: values are read concretely, with no `Any`
/// boxing and no protocol dispatch per read.
///
/// Each row owns a *pair* of entries `(2k, 2k+1)`. The row's `valueIndex` names the current
/// one; a source stages a write in the other and a flush publishes it by flipping the low bit
/// of `valueIndex`, so publishing needs no typed code. Computeds use the even entry only.
@MainActor
@usableFromInline
package final class ValueColumn<Value>: AnyValueColumn {
  @exclusivity(unchecked) @usableFromInline package var values: RawColumn<Value?>
  @exclusivity(unchecked) @usableFromInline var freePairs: RawColumn<Int32>

  @inlinable override package init() {
    values = RawColumn(capacity: 32)
    freePairs = RawColumn(capacity: 8)
    super.init()
  }

  isolated deinit {
    values.free()
    freePairs.free()
  }

  /// A pair for a new row, with `initial` in its even entry.
  @inlinable package func allocatePair(initial: Value?) -> Int32 {
    if freePairs.count > 0 {
      let p = freePairs.removeLast()
      values[Int(p)] = initial
      return p
    }
    let p = Int32(truncatingIfNeeded: values.count)
    values.append(initial)
    values.append(nil)
    return p
  }

  @usableFromInline override package func describe(entry: Int32) -> String? {
    values[Int(entry)].map { ValueDescriber<Value>.shared.describe($0) }
  }

  @usableFromInline override package func drop(pair: Int32) {
    values[Int(pair)] = nil
    values[Int(pair) + 1] = nil
    freePairs.append(pair)
  }
}
