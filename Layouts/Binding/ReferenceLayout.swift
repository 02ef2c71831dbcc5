import CogCore
import CogInlineKey
import CogInternedKey
import CogTypedKey

/// A reference layout as the workbench's binding uses it: how a box over keys `K` is made,
/// and how `box[key]` is read (the layout's reference, handed to the core's one typed read).
/// Generic static members rather than associated types, because a box's type depends on the
/// key and value types of each use; a binding specialized for a layout calls them statically.
@usableFromInline
package protocol ReferenceLayout {
  /// The layout's part of a system id (`cog[<edges>+<references>]`).
  static var layoutName: String { get }

  /// A box whose rows run `body` for their key and store the result unless `same(old, new)`.
  static func makeBox<K: Hashable, V, E: EdgeStore>(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (K, Graph<E>, Slot) -> V,
    same: @escaping @Sendable (V, V) -> Bool
  ) -> AnyObject

  /// Reads `box[key]` in `graph`; `box` is one `makeBox` made with the same types.
  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor static func read<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>, _ mode: ReadMode
  ) -> V

  /// A UI read of `box[key]` in `graph` (the core's `uiRead`: the row's Observation
  /// boundary, made on its first UI read).
  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor static func uiRead<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> V

  /// `box[key]`'s existing row in `graph`, or `.none`.
  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor static func existing<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> Slot
}

/// Inline references (the key type-erased in place): a workbench variant since issue 24 (the
/// app's `CogRef` is the generic reference, `TypedReferences`).
@usableFromInline
package enum InlineReferences: ReferenceLayout {
  @inlinable package static var layoutName: String { "inline" }

  @inlinable package static func makeBox<K: Hashable, V, E: EdgeStore>(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (K, Graph<E>, Slot) -> V,
    same: @escaping @Sendable (V, V) -> Bool
  ) -> AnyObject {
    InlineBox<K, V, E>(label: label, lifetime: lifetime, cachePolicy: cachePolicy, body, same: same)
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable @inline(__always)
  package static func read<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>, _ mode: ReadMode
  ) -> V {
    withGuaranteed(box) {
      graph.read(
        // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
        InlineKeyName(box: unsafeDowncast($0, to: InlineBox<K, V, E>.self), key: key),
        mode)
    }
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable
  package static func uiRead<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> V {
    withGuaranteed(box) {
      graph.uiRead(
        // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
        InlineKeyName(box: unsafeDowncast($0, to: InlineBox<K, V, E>.self), key: key))
    }
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable
  package static func existing<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> Slot {
    withGuaranteed(box) {
      // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
      InlineKeyName(box: unsafeDowncast($0, to: InlineBox<K, V, E>.self), key: key)
        .existing(in: graph)
    }
  }
}

/// Interned references: `box[key]` interns the key; the reference is the box and a token.
@usableFromInline
package enum InternedReferences: ReferenceLayout {
  @inlinable package static var layoutName: String { "interned" }

  @inlinable package static func makeBox<K: Hashable, V, E: EdgeStore>(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (K, Graph<E>, Slot) -> V,
    same: @escaping @Sendable (V, V) -> Bool
  ) -> AnyObject {
    InternedBox<K, V, E>(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, body, same: same)
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable @inline(__always)
  package static func read<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>, _ mode: ReadMode
  ) -> V {
    withGuaranteed(box) {
      // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
      graph.read(unsafeDowncast($0, to: InternedBox<K, V, E>.self).name(key), mode)
    }
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable
  package static func uiRead<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> V {
    withGuaranteed(box) {
      // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
      graph.uiRead(unsafeDowncast($0, to: InternedBox<K, V, E>.self).name(key))
    }
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable
  package static func existing<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> Slot {
    withGuaranteed(box) {
      // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
      unsafeDowncast($0, to: InternedBox<K, V, E>.self).name(key).existing(in: graph)
    }
  }

  /// Keys interned by `box` so far (the table's growth; see `InternTable`).
  package static func internedKeys<K: Hashable, V, E: EdgeStore>(
    _ box: LayoutBox<K, V, E, InternedReferences>
  ) -> Int {
    // Safety: this layout's `makeBox` made `box.core` as an `InternedBox<K, V, E>`.
    unsafeDowncast(box.core, to: InternedBox<K, V, E>.self).table.count
  }
}

/// Generic references: the key typed in the reference, compared with its own `==` (the app's
/// `CogRef<Key, Value>`).
@usableFromInline
package enum TypedReferences: ReferenceLayout {
  @inlinable package static var layoutName: String { "typed" }

  @inlinable package static func makeBox<K: Hashable, V, E: EdgeStore>(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    _ body: @escaping @MainActor (K, Graph<E>, Slot) -> V,
    same: @escaping @Sendable (V, V) -> Bool
  ) -> AnyObject {
    TypedBox<K, V, E>(label: label, lifetime: lifetime, cachePolicy: cachePolicy, body, same: same)
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable @inline(__always)
  package static func read<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>, _ mode: ReadMode
  ) -> V {
    withGuaranteed(box) {
      // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
      graph.read(TypedKeyName(box: unsafeDowncast($0, to: TypedBox<K, V, E>.self), key: key), mode)
    }
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable
  package static func uiRead<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> V {
    withGuaranteed(box) {
      // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
      graph.uiRead(TypedKeyName(box: unsafeDowncast($0, to: TypedBox<K, V, E>.self), key: key))
    }
  }

  // Safety: `box` is what this layout's `makeBox` made for `K, V, E`; its `LayoutBox` keeps it.
  @MainActor @inlinable
  package static func existing<K: Hashable, V, E: EdgeStore>(
    _ box: Unmanaged<AnyObject>, _ key: K, as: V.Type, in graph: Graph<E>
  ) -> Slot {
    withGuaranteed(box) {
      // Safety: this layout's `makeBox` made `box` for `K, V, E` (the protocol's contract).
      TypedKeyName(box: unsafeDowncast($0, to: TypedBox<K, V, E>.self), key: key)
        .existing(in: graph)
    }
  }
}
