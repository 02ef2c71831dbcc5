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

private protocol ElementStrideReporting { var elementStride: Int { get } }
extension RawColumn: ElementStrideReporting {
  fileprivate var elementStride: Int { MemoryLayout<Element>.stride }
}
