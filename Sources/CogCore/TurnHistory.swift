/// The debug history: a fixed ring of integer turn records. Labels are resolved only when the
/// history is displayed. Compiled in debug builds only; release builds carry none of it.
public struct TurnHistory {
  /// One turn: its id, the index of its op name, and up to four touched slots.
  public struct Record: Sendable, Equatable {
    public var turn: UInt32
    public var op: UInt16
    public var touchedCount: UInt16
    public var touched: (Int32, Int32, Int32, Int32)

    public static func == (a: Record, b: Record) -> Bool {
      a.turn == b.turn && a.op == b.op && a.touchedCount == b.touchedCount
        && a.touched.0 == b.touched.0 && a.touched.1 == b.touched.1
        && a.touched.2 == b.touched.2 && a.touched.3 == b.touched.3
    }
  }

  public static let capacity = 256
  public private(set) var records: [Record] = []
  public private(set) var next = 0
  /// Op names by index. Interned by the address of their static text, so recording a turn
  /// never hashes or formats a string.
  public private(set) var opNames: [StaticString] = []
  private var opIndex: [UnsafeRawPointer: UInt16] = [:]

  public init() { records.reserveCapacity(Self.capacity) }

  public mutating func record(turn: UInt32, op: StaticString, touched: UnsafeBufferPointer<Slot>) {
    let key = UnsafeRawPointer(op.utf8Start)
    let index: UInt16
    if let i = opIndex[key] {
      index = i
    } else {
      index = UInt16(truncatingIfNeeded: opNames.count)
      opNames.append(op)
      opIndex[key] = index
    }
    func at(_ i: Int) -> Int32 { i < touched.count ? touched[i].raw : -1 }
    let r = Record(
      turn: turn, op: index, touchedCount: UInt16(truncatingIfNeeded: touched.count),
      touched: (at(0), at(1), at(2), at(3)))
    if records.count < Self.capacity {
      records.append(r)
    } else {
      records[next] = r
    }
    next = (next + 1) % Self.capacity
  }

  /// The records, oldest first.
  public var ordered: [Record] {
    records.count < Self.capacity ? records : Array(records[next...] + records[..<next])
  }
}
