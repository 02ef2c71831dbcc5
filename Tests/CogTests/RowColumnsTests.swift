import CogCore
import CogEdgePool
import Testing

/// The record's "Bytes per row" figure comes from `RowColumns.bytesPerRow`, a sum written by
/// hand; this pins it to the columns the struct really has, so that a column added, removed
/// or resized cannot leave the figure behind.
@Suite("Row columns")
struct RowColumnsTests {
  @Test("bytesPerRow is the sum of every row column's element stride")
  func bytesPerRowMatchesTheColumns() {
    let rows = RowColumns<SharedEdgePool>(reservingRows: 4)
    defer { rows.free() }
    var sum = 0
    var others: [String] = []
    for child in Mirror(reflecting: rows).children {
      if let column = child.value as? any ElementStrideReporting {
        sum += column.elementStride
      } else {
        others.append(child.label ?? "?")
      }
    }
    #expect(others.isEmpty, "fields that are not row columns: \(others)")
    #expect(sum == RowColumns<SharedEdgePool>.bytesPerRow)
  }
}

/// A column's growth copies its elements with `memmove`, whose instruction count depends on
/// the source's and destination's offsets within a page; a large buffer is page-aligned so
/// that those offsets do not depend on the heap's history (`RawColumn.allocate`).
@Suite("Raw column buffers")
struct RawColumnBufferTests {
  @Test("a buffer of 16 KiB or more starts on a page, before and after growing")
  func largeBuffersArePageAligned() {
    var column = RawColumn<Int64>(capacity: 2048)
    defer { column.free() }
    #expect(UInt(bitPattern: column.base) % 4096 == 0)
    for i in 0..<5000 { column.append(Int64(i)) }
    #expect(column.capacity >= 5000)
    #expect(UInt(bitPattern: column.base) % 4096 == 0)
    #expect((0..<5000).allSatisfy { column[$0] == Int64($0) })
  }

  @Test("a small buffer grows into a page-aligned one, its elements kept")
  func smallBufferGrowsIntoALargeOne() {
    var column = RawColumn<Int32>(capacity: 4)
    defer { column.free() }
    for i in 0..<10_000 { column.append(Int32(i)) }
    #expect(UInt(bitPattern: column.base) % 4096 == 0)
    #expect((0..<10_000).allSatisfy { column[$0] == Int32($0) })
  }
}

private protocol ElementStrideReporting { var elementStride: Int { get } }
extension RawColumn: ElementStrideReporting {
  fileprivate var elementStride: Int { MemoryLayout<Element>.stride }
}
