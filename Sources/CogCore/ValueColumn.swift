/// The type-erased face of a typed value column: what the core needs without knowing the
/// value type (dropping a released row's value). Only cold paths call through it.
@MainActor
@usableFromInline
class AnyValueColumn {
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
  /// The value at `entry` as text (`String(describing:)`). The entry must hold a value (its
  /// row's `hasValue`).
  @usableFromInline func describe(entry: Int32) -> String? { fatalError("abstract") }
  /// The value type's name (`typeName`), for the label of a row that does not hold its
  /// descriptor (`Graph.defaultLabel`).
  @usableFromInline var valueTypeName: String { fatalError("abstract") }
}

/// How a value column stores one entry. A trivial type (`_isPOD`: nothing to retain or
/// destroy) is stored bare, at its own stride: an entry that holds no value holds stale
/// bytes, which nothing reads (whether a row's current entry holds a value is its
/// `hasValue` flag) and nothing needs to destroy. A bare entry is therefore always
/// initialized, never assigned: an assignment in unspecialized code (debug builds) may go
/// through the type's value witnesses, which can read the stale bytes (an `Int?` stored over
/// stale bytes kept their tag byte: `.some(1)` read back as `nil`, impl/perf-notes.md,
/// "Stop 49"). Any other type is stored as `Value?`,
/// `nil` when empty, so that dropping a pair and growing the column touch only entries that
/// hold a value or `nil`; its optional usually costs no byte (a reference's spare bits). An
/// `Int` entry is 8 bytes, not the 16 of `Int?` (swift/0008, "Where a context's bytes go").
///
/// Every branch on `isBare` is a constant once specialized.
@frozen @usableFromInline
package enum ValueEntry<Value> {
  @inlinable @inline(__always) package static var isBare: Bool { _isPOD(Value.self) }
  @inlinable @inline(__always) package static var stride: Int {
    isBare ? MemoryLayout<Value>.stride : MemoryLayout<Value?>.stride
  }

  /// The value entry `i` of the entries at `base` holds; it must hold one.
  @inlinable @inline(__always)
  package static func load(_ base: UnsafeMutableRawPointer, _ i: Int) -> Value {
    if isBare { return base.assumingMemoryBound(to: Value.self)[i] }
    return base.assumingMemoryBound(to: Value?.self)[i].unsafelyUnwrapped
  }

  /// Stores `value` in entry `i`, which may hold a value or none.
  @inlinable @inline(__always)
  package static func store(_ value: Value, _ base: UnsafeMutableRawPointer, _ i: Int) {
    if isBare {
      (base.assumingMemoryBound(to: Value.self) + i).initialize(to: value)
    } else {
      base.assumingMemoryBound(to: Value?.self)[i] = value
    }
  }

  /// Stores `new` in entry `i` unless the entry holds a value that `same` calls equal to it;
  /// returns whether it stored. `holds` says whether the entry holds a value (the row's
  /// `hasValue`), which a bare entry cannot tell; an optional one tells by itself and
  /// compares in place (copying it out cost a retain per recompute of an array value).
  @inlinable @inline(__always)
  package static func update(
    _ new: Value, _ base: UnsafeMutableRawPointer, _ i: Int, holds: Bool,
    same: (Value, Value) -> Bool
  ) -> Bool {
    if isBare {
      let entry = base.assumingMemoryBound(to: Value.self) + i
      if holds && same(entry.pointee, new) { return false }
      entry.initialize(to: new)
      return true
    }
    let entry = base.assumingMemoryBound(to: Value?.self) + i
    if let old = entry.pointee {
      if same(old, new) { return false }
      entry.pointee! = new  // in place: the entry holds a value, so its tag stays as it is
      return true
    }
    entry.pointee = new
    return true
  }
}

/// One typed column per value type per context: values are read concretely, with no `Any`
/// boxing and no protocol dispatch per read. Entries are stored as `ValueEntry` says.
///
/// Each row owns a *pair* of entries `(2k, 2k+1)`. The row's `valueIndex` names the current
/// one; a source stages a write in the other and a flush publishes it by flipping the low bit
/// of `valueIndex`, so publishing needs no typed code. Computeds use the even entry only.
@MainActor
@usableFromInline
final class ValueColumn<Value>: AnyValueColumn {
  /// The entries: `count` of them handed out, room for `capacity`, bound to `Value` (bare)
  /// or `Value?`.
  // Lifetime: allocated in `init`, replaced by `grow`, freed in `deinit`; the graph's
  // `valueBase` entry is re-stored whenever `grow` runs (`Graph.allocateValuePair`).
  @exclusivity(unchecked) @usableFromInline var base: UnsafeMutableRawPointer
  // Safety (these three): main-actor graph code only, never accessed overlapping.
  @exclusivity(unchecked) @usableFromInline var count: Int
  @exclusivity(unchecked) @usableFromInline var capacity: Int
  @exclusivity(unchecked) @usableFromInline var freePairs: RawColumn<Int32>

  @inlinable init() {
    capacity = 32
    count = 0
    base = Self.allocate(32)
    freePairs = RawColumn(capacity: 8)
    super.init(dropPair: { column, pair in
      // Safety: only this initializer makes the closure, and `Graph.release` hands it its own
      // column.
      unsafeDowncast(column, to: ValueColumn<Value>.self).drop(pair: pair)
    })
  }

  isolated deinit {
    if !ValueEntry<Value>.isBare {
      base.assumingMemoryBound(to: Value?.self).deinitialize(count: count)
    }
    base.deallocate()
    freePairs.free()
  }

  @inlinable static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
    if ValueEntry<Value>.isBare {
      return UnsafeMutableRawPointer(UnsafeMutablePointer<Value>.allocate(capacity: capacity))
    }
    return UnsafeMutableRawPointer(UnsafeMutablePointer<Value?>.allocate(capacity: capacity))
  }

  /// A pair for a new row, with `initial` in its even entry.
  @inlinable func allocatePair(initial: Value?) -> Int32 {
    if freePairs.count > 0 {
      let p = freePairs.removeLast()
      if let initial { ValueEntry.store(initial, base, Int(p)) }
      return p
    }
    if count &+ 2 > capacity { grow() }
    let p = count
    if !ValueEntry<Value>.isBare {
      (base.assumingMemoryBound(to: Value?.self) + p).initialize(repeating: nil, count: 2)
    }
    if let initial { ValueEntry.store(initial, base, p) }
    count = p &+ 2
    return Int32(truncatingIfNeeded: p)
  }

  @inline(never) @usableFromInline func grow() {
    let newCapacity = capacity &* 2
    let newBase = Self.allocate(newCapacity)
    if ValueEntry<Value>.isBare {
      // Stale entries are copied as bytes too: a trivial type has no invalid bit pattern
      // that a copy could trip on.
      newBase.copyMemory(from: base, byteCount: count &* ValueEntry<Value>.stride)
    } else {
      newBase.assumingMemoryBound(to: Value?.self).moveInitialize(
        from: base.assumingMemoryBound(to: Value?.self), count: count)
    }
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @usableFromInline override var valueTypeName: String { typeName(Value.self) }

  @usableFromInline override func describe(entry: Int32) -> String? {
    if !ValueEntry<Value>.isBare && base.assumingMemoryBound(to: Value?.self)[Int(entry)] == nil {
      return nil
    }
    return ValueDescriber<Value>.shared.describe(ValueEntry.load(base, Int(entry)))
  }

  /// Drops the values of the pair starting at `pair` and returns the pair to the free list.
  @inlinable func drop(pair: Int32) {
    if !ValueEntry<Value>.isBare {
      base.assumingMemoryBound(to: Value?.self)[Int(pair)] = nil
      base.assumingMemoryBound(to: Value?.self)[Int(pair) + 1] = nil
    }
    freePairs.append(pair)
  }
}
