import CogCore
import CogEdgePool
import CogTypedKey

/// What an automatic cog's body sees: tracked reads (`c[x]`), untracked reads (`c.peek(x)`)
/// and its own previous value (`c.curr`).
///
/// Valid only while the body runs. It holds the graph unretained, so creating and using it
/// costs no reference counting. Every read goes through the core's one typed read.
@MainActor @frozen
public struct CogContext<Value> {
  // Lifetime: unretained; its `Cogs` owns the graph; `inBody` checks it first (escapedContext).
  @usableFromInline let graph: Unmanaged<CogGraph>
  @usableFromInline let slot: Slot

  @inlinable init(graph: CogGraph, slot: Slot) {
    // Lifetime: see `graph`: checked by `inBody` before each use.
    self.graph = Unmanaged.passUnretained(graph)
    self.slot = slot
  }

  /// Reads `cog` and depends on it: this cog reruns when `cog`'s value changes.
  @inlinable @inline(__always) public subscript<T>(cog: Cog<T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(cog, .tracked) }
  }

  /// Reads the keyed state `ref` and depends on it.
  @inlinable @inline(__always) public subscript<K, T>(ref: CogRef<K, T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(ref.name, .tracked) }
  }

  /// Reads `cog` without depending on it (withLatestFrom).
  @inlinable public func peek<T>(_ cog: Cog<T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(cog, .peek) }
  }

  /// Reads `ref` without depending on it.
  @inlinable public func peek<K, T>(_ ref: CogRef<K, T>) -> T {
    withGuaranteed(CogGraph.inBody(graph)) { $0.read(ref.name, .peek) }
  }

  /// Whether the async cog `cog` has work in flight, and its last failure (`.idle` for a cog
  /// that is not async); depends on `cog` and on its status.
  @inlinable public func status<T>(of cog: Cog<T>) -> CogAsyncStatus {
    withGuaranteed(CogGraph.inBody(graph)) { $0.readAsyncStatus(cog, .tracked) }
  }

  /// This cog's previous value; `nil` on its first run (scan).
  @inlinable public var curr: Value? {
    withGuaranteed(CogGraph.inBody(graph)) { g in
      g.rows.flags[slot].contains(.hasValue)
        ? g.loadValue(Int32(g.rows.typeIndex[slot]), g.rows.valueIndex[slot], as: Value.self)
        : nil
    }
  }
}
