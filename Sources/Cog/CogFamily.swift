import CogCore
import CogEdgePool
import CogTypedKey

/// A family of manual cogs, one per key, each starting at an initial value for its key
/// (Jotai's and Recoil's `atomFamily`):
/// ```swift
/// let draftCogs = CogFamily(label: "draft") { (id: Int) in "" }
/// cogs.turn("edit") { w in w[draftCogs[id]] = "Hello" }
/// let text = c[draftCogs[id]]
/// ```
/// `family[key]` is a value reference (`CogRef`), read like any state and written in turns
/// like a manual cog. A context makes a key's row on first use (a read or a write) with
/// `initial(key)`; rows live by the family's lifetime, as a keyed box's do, and one made again
/// starts from `initial(key)`. A dropped family's rows go at a sweep (after a due flush, or
/// `Cogs.releaseDropped()`).
///
/// Sendable as `CogBox` is: nothing changes after `init`, and `initial` runs on the main actor.
public final class CogFamily<Key: Hashable, Value>: @unchecked Sendable {
  // Safety: immutable after init; `initial` is `@MainActor` and only graph code runs it.
  @usableFromInline let core: TypedBox<Key, Value, SharedEdgePool>
  /// How long the family's rows live in a context (a box's lifetimes).
  public let lifetime: CogLifetime

  /// A family whose writes compare with `==`: an equal write changes nothing.
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    _ initial: @escaping @MainActor (Key) -> Value
  ) where Value: Equatable {
    self.lifetime = lifetime
    core = TypedBox(
      family: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      equality: Registry.shared(for: Value.self) { SourceEquality<Value>(equatableEquals) },
      equalityKeeper: nil, initial: initial)
  }

  /// A family with a custom equality for writes (`nil`: every write changes).
  @inlinable
  public init(
    label: String = "", lifetime: CogLifetime = .context,
    equals: (@Sendable (Value, Value) -> Bool)?,
    _ initial: @escaping @MainActor (Key) -> Value
  ) {
    self.lifetime = lifetime
    let owner = equals.map { SourceEquality($0) }
    core = TypedBox(
      family: label, lifetime: lifetime.row, cachePolicy: lifetime.cachePolicy,
      // Lifetime: `equalityKeeper: owner` keeps this equality alive as long as the family.
      equality: owner.map { Unmanaged.passUnretained($0) }, equalityKeeper: owner,
      initial: initial)
  }

  /// The family's label (given, or `CogFamily<Key, Value>#id`).
  public var label: String { core.label }

  /// The value reference for `key`.
  @inlinable @inline(__always) public subscript(key: Key) -> CogRef<Key, Value> {
    CogRef(name: TypedKeyName(box: core, key: key))
  }
}
