/// The turn history: a fixed ring of integer turn records. Labels are resolved only when the
/// history is displayed. Kept only by a context that records it (`Graph.recordsHistory`).
@usableFromInline
struct TurnHistory {
  /// One turn: its id, the index of its op name, and up to four touched slots with the
  /// generations they had then (a slot may belong to another row by the time it is shown).
  @usableFromInline struct Record: Sendable, Equatable {
    @usableFromInline var turn: UInt32
    @usableFromInline var op: UInt16
    @usableFromInline var touchedCount: UInt16
    @usableFromInline var touched: (Int32, Int32, Int32, Int32)
    @usableFromInline var generations: (UInt16, UInt16, UInt16, UInt16)

    /// The touched rows recorded (at most four), with their generations then.
    @inlinable var touchedRefs: [SlotRef] {
      let slots = [touched.0, touched.1, touched.2, touched.3]
      let gens = [generations.0, generations.1, generations.2, generations.3]
      return (0..<min(4, Int(touchedCount))).filter { slots[$0] >= 0 }.map {
        SlotRef(slot: Slot(slots[$0]), generation: gens[$0])
      }
    }

    @inlinable static func == (a: Record, b: Record) -> Bool {
      a.turn == b.turn && a.op == b.op && a.touchedRefs == b.touchedRefs
        && a.touchedCount == b.touchedCount
    }
  }

  @usableFromInline static let capacity = 256
  @usableFromInline private(set) var records: [Record] = []
  @usableFromInline private(set) var next = 0
  /// Op names by index. Interned by the address of their static text, so recording a turn
  /// never hashes or formats a string.
  @usableFromInline private(set) var opNames: [StaticString] = []
  // Safety: the keys are only hashed and compared, never read through (static text).
  private var opIndex: [UnsafeRawPointer: UInt16] = [:]
  /// The descriptor the next recorded turn is named after, or -1: an async cog's result
  /// publishes in a turn named after the cog (see `Graph+Async.swift`). Consumed by `record`.
  @usableFromInline var nextOpState: Int32 = -1
  /// Descriptors that name turns, by index (an op index at or above `stateOpBase` is one).
  @usableFromInline private(set) var stateOps: [Int32] = []
  @usableFromInline static var stateOpBase: UInt16 { 0x8000 }

  init() { records.reserveCapacity(Self.capacity) }

  @usableFromInline mutating func record(
    turn: UInt32, op: StaticString, touched: UnsafeBufferPointer<Slot>,
    generation: (Slot) -> UInt16
  ) {
    let key = UnsafeRawPointer(op.utf8Start)
    let index: UInt16
    if nextOpState >= 0 {
      let state = nextOpState
      nextOpState = -1
      if let i = stateOps.firstIndex(of: state) {
        index = Self.stateOpBase + UInt16(truncatingIfNeeded: i)
      } else {
        index = Self.stateOpBase + UInt16(truncatingIfNeeded: stateOps.count)
        stateOps.append(state)
      }
    } else if let i = opIndex[key] {
      index = i
    } else {
      index = UInt16(truncatingIfNeeded: opNames.count)
      opNames.append(op)
      opIndex[key] = index
    }
    func at(_ i: Int) -> Int32 { i < touched.count ? touched[i].raw : -1 }
    func gen(_ i: Int) -> UInt16 { i < touched.count ? generation(touched[i]) : 0 }
    let r = Record(
      turn: turn, op: index, touchedCount: UInt16(truncatingIfNeeded: touched.count),
      touched: (at(0), at(1), at(2), at(3)), generations: (gen(0), gen(1), gen(2), gen(3)))
    if records.count < Self.capacity {
      records.append(r)
    } else {
      records[next] = r
    }
    next = (next + 1) % Self.capacity
  }

  /// The records, oldest first.
  @usableFromInline var ordered: [Record] {
    records.count < Self.capacity ? records : Array(records[next...] + records[..<next])
  }
}
