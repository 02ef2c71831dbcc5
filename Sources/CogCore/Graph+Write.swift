extension Graph {
  /// Stages `value` for the source row `s` in the running turn: the value goes into the row's
  /// other value entry (published by the flush, see `publish`), and the row is marked staged
  /// unless `equality` says the value equals the current one.
  // Lifetime: the descriptor naming `s` keeps `equality` (details or registry) during the write.
  @inlinable @inline(__always)
  package func stage<V>(
    _ s: Slot, _ value: V, typeIndex: Int32, equality: Unmanaged<SourceEquality<V>>?
  ) {
    let vi = rows.valueIndex[s]
    _ = touch(s)
    storeValue(value, typeIndex, vi ^ 1)
    var equal = false
    if let equality {
      let current = loadValue(typeIndex, vi, as: V.self)
      equal = withGuaranteed(equality) { $0.equal(current, value) }
    }
    if equal { rows.flags[s].remove(.staged) } else { rows.flags[s].insert(.staged) }
  }

  /// The value of the source row `s` as the running turn sees it: staged if this turn wrote
  /// it, current otherwise.
  @inlinable @inline(__always)
  package func stagedValue<V>(_ s: Slot, typeIndex: Int32, as: V.Type) -> V {
    let vi = rows.valueIndex[s]
    let staged = rows.flags[s].contains(.touched)
    return loadValue(typeIndex, staged ? vi ^ 1 : vi, as: V.self)
  }
}

/// How a source compares a staged value with its current one: the closure in a final class
/// that the descriptor holds and the graph calls unretained. Calling a stored closure directly
/// cost a retain/release of its context per write, and a method on an overridable class a
/// retain/release of the object (profiled on kairo/avoidable, see impl/perf-notes.md).
/// Equatable types share one instance per value type (`Registry.shared`).
///
/// It also carries the value type's index, so that declaring a manual cog with the shared
/// `==` asks the registry once (for this object) rather than twice.
// Safety: immutable after init: a `@Sendable` closure and a type index.
@usableFromInline
package final class SourceEquality<Value>: @unchecked Sendable {
  @usableFromInline package let equal: @Sendable (Value, Value) -> Bool
  /// `Registry.typeIndex(for: Value.self)`.
  @usableFromInline package let typeIndex: Int32
  @inlinable package init(_ equal: @escaping @Sendable (Value, Value) -> Bool) {
    self.equal = equal
    typeIndex = Registry.typeIndex(for: Value.self)
  }
}

/// `==` as a stored equality. A named generic function rather than a closure literal, so that
/// inlining an initializer into a main-actor context captures no metatype.
@inlinable @Sendable
package func equatableEquals<V: Equatable>(_ a: V, _ b: V) -> Bool { a == b }
