/// The type-erased face of a typed value column: what the core needs without knowing the
/// value type (dropping a released row's value). Only cold paths call through it.
@MainActor
@usableFromInline
package class AnyValueColumn {
  /// Drops the values of the pair starting at `pair` and returns the pair to the free list:
  /// `ValueColumn.drop(pair:)`, in a closure its initializer makes specialized for its value
  /// type. Not an overridden method: a vtable call runs the generic class's unspecialized
  /// implementation, which asks the runtime for `Optional<Value>`'s metadata and assigns
  /// through value witnesses on every released row. The closure captures nothing (the column
  /// is passed in).
  @usableFromInline let dropPair: @MainActor (AnyValueColumn, Int32) -> Void

  @usableFromInline init(dropPair: @escaping @MainActor (AnyValueColumn, Int32) -> Void) {
    self.dropPair = dropPair
  }
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

  @inlinable package init() {
    values = RawColumn(capacity: 32)
    freePairs = RawColumn(capacity: 8)
    super.init(dropPair: { column, pair in
      // Safety: only this initializer makes the closure, and `Graph.release` hands it its own
      // column.
      unsafeDowncast(column, to: ValueColumn<Value>.self).drop(pair: pair)
    })
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

  /// Drops the values of the pair starting at `pair` and returns the pair to the free list.
  @inlinable package func drop(pair: Int32) {
    values[Int(pair)] = nil
    values[Int(pair) + 1] = nil
    freePairs.append(pair)
  }
}
