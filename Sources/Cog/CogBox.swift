import CogCore
import CogEdgePool
import CogTypedKey

/// A family of automatic cogs, one per key, sharing one compute body:
/// ```swift
/// let weatherReportCogs = CogBox { (zip: String, c) in fetchCached(zip) }
/// let report = c[weatherReportCogs["94110"]]
/// ```
/// `box[key]` makes a value reference (`CogRef`): a name, not a row. It allocates nothing;
/// rows are created on first read in a context and may be released by their lifetime.
public final class CogBox<Key: Hashable, Value>: @unchecked Sendable {
  // Safety: immutable after init; its rows, cache and body are used only by main-actor graph code.
  @usableFromInline let core: TypedBox<Key, Value, SharedEdgePool>
  /// How long each of the box's rows lives in a context (each key's row on its own).
  public let lifetime: CogLifetime

  /// A keyed box whose rows compare results with `==`.
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (Key, CogContext<Value>) -> Value
  ) where Value: Equatable {
    self.lifetime = lifetime
    core = TypedBox(
      label: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      { key, graph, slot in body(key, CogContext(graph: graph, slot: slot)) }, same: equatableEquals
    )
  }

  /// A keyed box with a custom equality (`nil`: every recompute is a change).
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?,
    _ body: @escaping @MainActor (Key, CogContext<Value>) -> Value
  ) {
    self.lifetime = lifetime
    core = TypedBox(
      label: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      { key, graph, slot in body(key, CogContext(graph: graph, slot: slot)) },
      same: { old, new in
        if let equals { return equals(old, new) }
        return false
      })
  }

  /// The descriptor's process-wide id (for the workbench and tests).
  package var id: Int32 { core.state.id }

  /// The box's label (given, or `CogBox<Key, Value>#id`).
  public var label: String { core.label }

  /// The value reference for `key`.
  @inlinable @inline(__always) public subscript(key: Key) -> CogRef<Key, Value> {
    CogRef(name: TypedKeyName(box: core, key: key))
  }
}

/// A value reference: a keyed box (or family) plus a key. A stable name that never stores a
/// row, so it stays valid when its row is released and later re-created. The key's type is
/// part of the reference's type, so reading one confirms its row with `Key`'s own `==`: no
/// type erasure, no dynamic cast (swift/0006-reference-layouts.md).
public struct CogRef<Key: Hashable, Value> {
  @usableFromInline let name: TypedKeyName<Key, Value, SharedEdgePool>

  @inlinable @inline(__always)
  init(name: TypedKeyName<Key, Value, SharedEdgePool>) { self.name = name }

  /// The reference's key.
  public var key: Key { name.key }
  /// The box's label and the key: `"price[42]"` (how errors and the history name it).
  public var label: String { "\(name.box.label)[\(name.key)]" }
}
