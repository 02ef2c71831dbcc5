/// The serials of the contexts alive now: a keyless descriptor's one-entry cache may be
/// taken over from a context that is gone (`Graph.keylessSlotSlow`), never from a live one,
/// whose rows may still be cached there.
@MainActor @usableFromInline
enum LiveContexts {
  @usableFromInline static var serials: Set<Int32> = []

  @usableFromInline static func insert(_ serial: Int32) { serials.insert(serial) }
  @usableFromInline static func remove(_ serial: Int32) { serials.remove(serial) }
  @usableFromInline static func contains(_ serial: Int32) -> Bool { serials.contains(serial) }
}
