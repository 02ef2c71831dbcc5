import CogCore
import CogEdgePool
import CogInlineKey

/// A family of automatic cogs, one per key, sharing one compute body:
/// ```swift
/// let weatherReportCogs = CogBox { (zip: String, c) in fetchCached(zip) }
/// let report = c[weatherReportCogs["94110"]]
/// ```
/// `box[key]` makes a value reference (`CogRef`): a name, not a row. It allocates nothing;
/// rows are created on first read in a context and may be released by their lifetime.
public final class CogBox<Key: Hashable, Value>: @unchecked Sendable {
  // Safety: immutable after init; its rows, cache and body are used only by main-actor graph code.
  @usableFromInline let core: InlineBox<Key, Value, SharedEdgePool>
  /// How long each of the box's rows lives in a context (each key's row on its own).
  public let lifetime: CogLifetime

  /// A keyed box whose rows compare results with `==`.
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    _ body: @escaping @MainActor (Key, CogContext<Value>) -> Value
  ) where Value: Equatable {
    self.lifetime = lifetime
    core = InlineBox(
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
    core = InlineBox(
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
  @inlinable public subscript(key: Key) -> CogRef<Value> {
    CogRef(name: InlineKeyName(box: core, key: key))
  }
}

/// A value reference: a keyed box plus a key. A stable name that never stores a row, so it
/// stays valid when its row is released and later re-created.
public struct CogRef<Value> {
  @usableFromInline let name: InlineKeyName<Value, SharedEdgePool>

  @inlinable init(name: InlineKeyName<Value, SharedEdgePool>) { self.name = name }

  /// The reference's key (made on demand: the reference holds it type-erased in place).
  public var key: AnyHashable { name.anyKey }
  /// The box's label and the key: `"price[42]"` (how errors and the history name it).
  public var label: String { "\(name.box.label)[\(name.anyKey.base)]" }
}
