import CogCore
import CogEdgePool
import CogInlineKey

/// A family of manual cogs, one per key, each starting at an initial value for its key
/// (Jotai's and Recoil's `atomFamily`):
/// ```swift
/// let drafts = CogFamily(label: "draft") { (id: Int) in "" }
/// cogs.turn("edit") { w in w[drafts[id]] = "Hello" }
/// let text = c[drafts[id]]
/// ```
/// `family[key]` is a value reference (`CogRef`), read like any state and written in turns
/// like a manual cog. Rows are made on first use in a context, with `initial(key)`, and live
/// by the family's lifetime like a box's rows (a released row's writes are lost: the next use
/// starts again from `initial(key)`); a dropped family's rows go at the next sweep.
public final class CogFamily<Key: Hashable, Value>: @unchecked Sendable {
  @usableFromInline let core: InlineFamily<Key, Value, SharedEdgePool>
  public let lifetime: CogLifetime

  /// A family whose writes compare with `==` (an equal write changes nothing).
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    _ initial: @escaping (Key) -> Value
  ) where Value: Equatable {
    self.lifetime = lifetime
    core = InlineFamily(
      label: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy, equality: nil,
      shared: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) },
      initial: initial)
  }

  /// A family with a custom equality for writes (`nil`: every write changes).
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?, _ initial: @escaping (Key) -> Value
  ) {
    self.lifetime = lifetime
    core = InlineFamily(
      label: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      equality: equals.map { SourceEquality($0) }, shared: nil, initial: initial)
  }

  /// The family's label (given, or `CogFamily<Key, Value>#id`).
  public var label: String { core.label }

  /// The value reference for `key`.
  @inlinable public subscript(key: Key) -> CogRef<Value> {
    CogRef(name: InlineKeyName(box: core, key: AnyHashable(key)))
  }
}
