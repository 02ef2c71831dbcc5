/// What only some keyless descriptors have: a label, a lifetime other than `.context`, a
/// cache policy, an equality of their own. Its own object, made only when one is given, so
/// that a plain automatic cog's behavior stays at 64 bytes (swift/0008, "Memory per
/// descriptor").
// Safety: immutable `let`s (the equality owner is a `Sendable` `SourceEquality`).
@usableFromInline
package final class KeylessExtras: @unchecked Sendable {
  /// The label given at declaration; empty for the default one.
  @usableFromInline package let givenLabel: String
  @usableFromInline package let cachePolicy: (limit: Int, retention: Duration)?
  /// A manual state's own equality, which the state calls unretained.
  @usableFromInline package let equalityKeeper: AnyObject?
  @usableFromInline package let lifetime: RowLifetime

  @usableFromInline
  init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?
  ) {
    givenLabel = label
    self.lifetime = lifetime
    self.cachePolicy = cachePolicy
    self.equalityKeeper = equalityKeeper
  }

  /// The extras for these, or nil when every one is the default. Always inlined, so that a
  /// declaration with the defaults tests constants and makes no call.
  @inlinable @inline(__always)
  package static func make(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?
  ) -> KeylessExtras? {
    if label.isEmpty && lifetime == .context && cachePolicy == nil && equalityKeeper == nil {
      return nil
    }
    return makeSlow(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: equalityKeeper)
  }

  @inline(never) @usableFromInline
  static func makeSlow(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?
  ) -> KeylessExtras {
    KeylessExtras(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: equalityKeeper)
  }
}

/// What only some keyless descriptors need, kept out of the descriptor object so that a plain
/// manual one stays at 64 bytes (`KeylessState`): its extras (`KeylessExtras`) and, for an
/// automatic one, the behavior its rows run (this object is that behavior:
/// `KeylessBehavior`). A manual one with a label or an equality of its own gets a plain
/// `KeylessDetails`, whose `run` is never called (its rows are sources).
// Safety: an immutable `let`; `run` see base.
@usableFromInline
package class KeylessDetails: RowBehavior, @unchecked Sendable {
  /// The label, lifetime, cache policy and own equality, when any is not the default.
  @usableFromInline package let extras: KeylessExtras?

  @inlinable
  package init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    equalityKeeper: AnyObject?, run: @escaping RowRun
  ) {
    extras = KeylessExtras.make(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: equalityKeeper)
    super.init(run: run)
  }

  /// The label given at declaration; empty for the default one.
  @inlinable package var givenLabel: String { extras?.givenLabel ?? "" }
  @inlinable package var cachePolicy: (limit: Int, retention: Duration)? { extras?.cachePolicy }
  @inlinable package var lifetime: RowLifetime { extras?.lifetime ?? .context }

  /// A manual state's details (cold: only labeled states and ones with their own equality
  /// have them).
  @inline(never) @usableFromInline
  package static func manual(label: String, equalityKeeper: AnyObject?) -> KeylessDetails {
    KeylessDetails(
      label: label, lifetime: .context, cachePolicy: nil, equalityKeeper: equalityKeeper,
      run: { _, _, _ in false })
  }
}

/// An automatic keyless state's details and rows' behavior, with its body as a `Body` held
/// here rather than captured by `run`: `run` captures nothing, so the graph's call reaches it
/// directly (a capturing closure is entered through a partial-apply forwarder that unpacks
/// its context), and the behavior is one allocation instead of two. `run` is handed this
/// object and reaches `body` with an unchecked downcast.
// Safety: `body` is a `let` of a `Sendable` type; the rest as `KeylessDetails`.
@usableFromInline
package final class KeylessBehavior<Body: Sendable>: KeylessDetails, @unchecked Sendable {
  @usableFromInline package let body: Body
  /// Last: its `deinit` ends the teardown after `body` is released (`Teardown`).
  @usableFromInline let teardown = TeardownHook()

  /// `run` must capture nothing (see above). It finds the row's value column by the row's
  /// `typeIndex` (`Graph.store(_:at:same:)`).
  @inlinable
  package init(
    label: String, lifetime: RowLifetime, cachePolicy: (limit: Int, retention: Duration)?,
    body: Body, run: @escaping RowRun
  ) {
    self.body = body
    super.init(
      label: label, lifetime: lifetime, cachePolicy: cachePolicy, equalityKeeper: nil, run: run)
  }

  // A body may hold other descriptors: their teardown is iterative (`Teardown`).
  deinit { if Teardown.begin() { Teardown.keep(body) } }
}
