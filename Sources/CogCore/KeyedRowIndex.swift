/// The per-context key storage of a keyed descriptor (a reference layout's; the core keeps no
/// keys): told when one of its rows is released, and asked for a row's key to name it in an
/// error. `tag` is the word the layout gave the row (`RowColumns.tag`).
@MainActor
@usableFromInline
package protocol KeyedRowIndex: AnyObject {
  func forget(slot: Slot, tag: UInt32)
  func keyDescription(slot: Slot, tag: UInt32) -> String
}
