import CCogStack

/// Iterative teardown of descriptors whose bodies hold other descriptors.
///
/// An automatic cog's body usually captures the cogs it reads, so a chain `p₀ ← p₁ ← … ← pₙ`
/// is a chain of strong references: releasing `pₙ` releases its body, which releases `pₙ₋₁`,
/// and so on, one native frame chain per level (the main thread's stack holds about 50,000).
/// Instead, a descriptor that dies while another one's teardown is under way on the thread
/// keeps a copy of its body in the thread's pending list, so that the release of its own
/// field frees nothing; when the outermost teardown ends, the pending bodies are released one
/// at a time, in a loop, and the descriptors that die of it add theirs. The stack never holds
/// more than two descriptor teardowns.
///
/// The end of a teardown is seen by `TeardownHook`, the last stored property of a descriptor
/// class: Swift destroys a class's fields in declaration order after its `deinit` body (and
/// after its superclass's), so the hook's `deinit` runs after the body field's release.
@usableFromInline
enum Teardown {
  /// The pending list of a thread: bodies kept alive until the loop releases them.
  final class Pending {
    var bodies: [Any] = []
  }

  /// Called first in the `deinit` body of a descriptor; pairs with its `TeardownHook`.
  /// Returns whether another descriptor's teardown is under way on the thread: then the
  /// descriptor must hand its body (a closure or a body value that may capture other
  /// descriptors) to `keep`, so that its own release of the body frees nothing.
  @inline(never) @usableFromInline
  package static func begin() -> Bool {
    let t = cog_teardown()!
    t.pointee.depth += 1
    return t.pointee.depth > 1 || t.pointee.draining != 0
  }

  /// Keeps `body` alive until the outermost teardown releases it (see `begin`).
  @inline(never) @usableFromInline
  package static func keep(_ body: Any) {
    pending(cog_teardown()!).bodies.append(body)
  }

  /// Called by `TeardownHook.deinit`, after the descriptor's fields are gone: the outermost
  /// teardown releases the pending bodies.
  @inline(never) @usableFromInline
  package static func end() {
    let t = cog_teardown()!
    t.pointee.depth -= 1
    if t.pointee.depth != 0 || t.pointee.draining != 0 || t.pointee.pending == nil { return }
    let list = pending(t)
    if list.bodies.isEmpty { return }
    t.pointee.draining = 1
    while !list.bodies.isEmpty {
      // Releasing a body may end descriptors, which append theirs to `list.bodies`: take the
      // list out first, so that no access to it is open while bodies are released.
      var batch: [Any] = []
      swap(&batch, &list.bodies)
      while !batch.isEmpty { batch.removeLast() }
    }
    t.pointee.draining = 0
  }

  static func pending(_ t: UnsafeMutablePointer<cog_teardown_state>) -> Pending {
    if let p = t.pointee.pending {
      // Lifetime: made once per thread below and never released (one small object per
      // thread that ever tore down a descriptor while another was being torn down).
      return Unmanaged<Pending>.fromOpaque(p).takeUnretainedValue()
    }
    let made = Pending()
    // Lifetime: retained here and never released (see above).
    t.pointee.pending = Unmanaged.passRetained(made).toOpaque()
    return made
  }
}

/// The last stored property of a descriptor class (see `Teardown`): its `deinit` marks the
/// end of the descriptor's teardown. Zero-sized.
@frozen @usableFromInline
struct TeardownHook: ~Copyable {
  @inlinable package init() {}
  deinit { Teardown.end() }
}
