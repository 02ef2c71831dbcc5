import CogCore
import CogEdgePool
import CogLayoutBinding
import CogPrefixArrays
import Testing

/// What every reference layout must do (swift/0006-reference-layouts.md), checked the same way
/// on each through the layout binding: `box[key]` names one row per key per context; a
/// body's warm re-read confirms its key without confusing keys or boxes; a key switch moves
/// the dependency; a released row is made again by the same reference; a cycle names the
/// keyed states; contexts do not share rows. Run on every registered variant (`Variants.all`:
/// each reference layout with the pool, inline references also on the other edge layouts).
@MainActor
@Suite("Reference layout conformance")
struct ReferenceLayoutConformanceTests {
  nonisolated static let layouts = TestedVariant.all

  @Test("one row per key, warm re-reads confirm, changes reach every key", arguments: layouts)
  func rowsPerKey(layout: TestedVariant) { layout.references.rowsPerKey() }

  @Test("equal keys of two boxes and near keys of one box are not confused", arguments: layouts)
  func keysAndBoxesApart(layout: TestedVariant) { layout.references.keysAndBoxesApart() }

  @Test("a key read from another state switches the dependency (weatherHere)", arguments: layouts)
  func dynamicKeySwitch(layout: TestedVariant) { layout.references.dynamicKeySwitch() }

  @Test("an evicted key's row is made again by the same reference", arguments: layouts)
  func evictAndRecreate(layout: TestedVariant) { layout.references.evictAndRecreate() }

  @Test("a cycle through keyed states names them with their keys", arguments: layouts)
  func cycleNamesKeys(layout: TestedVariant) { layout.references.cycleNamesKeys() }

  @Test("two contexts keep their own rows of one box", arguments: layouts)
  func contextsApart(layout: TestedVariant) { layout.references.contextsApart() }

  @Test("UI reads of keyed states: told once per change, not for equal results", arguments: layouts)
  func uiReads(layout: TestedVariant) { layout.references.uiReads() }

  @Test("interned keys: the table grows by distinct keys only, and never shrinks")
  func internTableGrowth() {
    let head = LayoutCog<Int, SharedEdgePool>(1, label: "head")
    let box = LayoutBox<Int, Int, SharedEdgePool, InternedReferences>(
      label: "item", lifetime: .whileObserved
    ) { k, c in c[head] + k }
    let start = LayoutCog<Int, SharedEdgePool>(0, label: "start")
    let cogs = LayoutCogs<SharedEdgePool>()
    let window = 100
    let step = 10
    var total = 0
    cogs.react { c in
      let first = c[start]
      total = (first..<(first + window)).reduce(0) { $0 + c[box, $1] }
    }
    #expect(InternedReferences.internedKeys(box) == window)
    let turns = 50
    for t in 1...turns {
      cogs.turn("move") { w in w[start] = t * step }
    }
    let first = turns * step
    #expect(total == window + window * first + window * (window - 1) / 2)
    // Every key ever read is kept (the retention rule): window + turns × step entries, while
    // the context holds only the window's rows.
    #expect(InternedReferences.internedKeys(box) == window + turns * step)
    #expect(cogs.liveRowCount == window + 3)
    // Reading a known key again interns nothing.
    _ = cogs[box, 0]
    #expect(InternedReferences.internedKeys(box) == window + turns * step)
  }
}

@MainActor
protocol ReferenceCase {
  static func rowsPerKey()
  static func keysAndBoxesApart()
  static func dynamicKeySwitch()
  static func evictAndRecreate()
  static func cycleNamesKeys()
  static func contextsApart()
  static func uiReads()
}

@MainActor
enum ReferenceConformance<E: EdgeStore, R: ReferenceLayout>: ReferenceCase {
  typealias Cog<T> = LayoutCog<T, E>
  typealias Box<K: Hashable, T> = LayoutBox<K, T, E, R>

  /// A list row's view reads `item[k]` through the binding's UI read (the row's boundary);
  /// the keyless `head` too. A change is told once per view, an equal recompute not at all,
  /// and a key nothing shows is not pinned.
  static func uiReads() {
    let head = Cog<Int>(1, label: "head")
    let parity = Box<Int, Bool>(label: "parity", lifetime: .whileObserved) { k, c in
      (c[head] + k) % 2 == 0
    }
    let cogs = LayoutCogs<E>()
    let views = (0..<3).map { k in FakeView { cogs.uiRead(parity, key: k) } }
    let headView = FakeView { cogs.uiRead(head) }
    for v in views { v.render() }
    headView.render()
    #expect(views.map(\.shown) == [[false], [true], [false]])
    #expect(cogs.graph.boundaryCount == 4)
    cogs.turn("head") { w in w[head] = 2 }
    #expect(views.map(\.notices.count) == [1, 1, 1])
    #expect(headView.notices.count == 1)
    for v in views { v.render() }
    headView.render()
    cogs.turn("head") { w in w[head] = 4 }  // every parity recomputes to the same value
    #expect(views.map(\.notices.count) == [1, 1, 1])
    #expect(headView.notices.count == 2)
    #expect(views.map(\.shown) == [[false, true], [true, false], [false, true]])
    // The boundaries pin their rows; a key no view read has none.
    #expect(cogs.hasRow(parity, 2) && !cogs.hasRow(parity, 3))
  }

  static func rowsPerKey() {
    let head = Cog<Int>(10, label: "head")
    var runs: [Int: Int] = [:]
    let item = Box<Int, Int>(label: "item") { k, c in
      runs[k, default: 0] += 1
      return c[head] * k
    }
    let cogs = LayoutCogs<E>()
    var seen: [Int] = []
    cogs.react { c in seen.append((0..<5).reduce(0) { $0 + c[item, $1] + c[item, $1] }) }
    #expect(seen == [200])
    #expect(runs == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])
    #expect(cogs.liveRowCount == 7)  // head, 5 keys, the reaction
    cogs.turn("head") { w in w[head] = 3 }
    #expect(seen == [200, 60])
    #expect(runs == [0: 2, 1: 2, 2: 2, 3: 2, 4: 2])
    #expect(cogs[item, 4] == 12)
    #expect(cogs.hasRow(item, 4) && !cogs.hasRow(item, 5))
  }

  static func keysAndBoxesApart() {
    let head = Cog<Int>(1, label: "head")
    let a = Box<String, Int>(label: "a") { k, c in c[head] + k.count }
    let b = Box<String, Int>(label: "b") { k, c in c[head] * 100 + k.count }
    let cogs = LayoutCogs<E>()
    var seen: [[Int]] = []
    let keys = ["x", "xx", "y", "xx", ""]
    cogs.react { c in seen.append(keys.flatMap { [c[a, $0], c[b, $0]] }) }
    cogs.turn("head") { w in w[head] = 2 }
    #expect(
      seen == [
        [2, 101, 3, 102, 2, 101, 3, 102, 1, 100], [3, 201, 4, 202, 3, 201, 4, 202, 2, 200],
      ])
    #expect(cogs.liveRowCount == 1 + 4 + 4 + 1)
  }

  static func dynamicKeySwitch() {
    // Seed 001's weatherHereCog: a cog reading box[key] where the key comes from another cog.
    let here = Cog<String>("94110", label: "here")
    let temperature = Cog<Int>(20, label: "temperature")
    var fetched: [String] = []
    let weather = Box<String, Int>(label: "weather", lifetime: .whileObserved) { zip, c in
      fetched.append(zip)
      return c[temperature] + zip.count + (zip == "10001" ? 5 : 0)
    }
    let weatherHere = Cog<Int>(label: "weatherHere") { c in c[weather, c[here]] }
    let cogs = LayoutCogs<E>()
    var seen: [Int] = []
    cogs.react { c in seen.append(c[weatherHere]) }
    cogs.turn("move") { w in w[here] = "10001" }
    // The old key lost its only reader: released (whileObserved).
    #expect(!cogs.hasRow(weather, "94110") && cogs.hasRow(weather, "10001"))
    cogs.turn("warmer") { w in w[temperature] = 25 }
    cogs.turn("back") { w in w[here] = "94110" }
    #expect(seen == [25, 30, 35, 30])
    #expect(fetched == ["94110", "10001", "10001", "94110"])
    #expect(!cogs.hasRow(weather, "10001"))
  }

  static func evictAndRecreate() {
    let head = Cog<Int>(1, label: "head")
    var runs = 0
    let item = Box<Int, Int>(label: "item") { k, c in
      runs += 1
      return c[head] + k
    }
    let cogs = LayoutCogs<E>()
    #expect(cogs[item, 7] == 8)
    #expect(cogs.evict(item, 7))
    #expect(!cogs.hasRow(item, 7))
    #expect(cogs[item, 8] == 9)  // may reuse the released slot
    cogs.turn("head") { w in w[head] = 2 }
    #expect(cogs[item, 7] == 9)
    #expect(cogs[item, 8] == 10)
    #expect(runs == 4)
    // A key read while its box's other rows come and go keeps its row.
    for k in 100..<120 {
      _ = cogs[item, k]
      _ = cogs.evict(item, k)
    }
    #expect(cogs[item, 8] == 10 && runs == 24)
  }

  static func cycleNamesKeys() {
    let close = Cog<Bool>(false, label: "close")
    let late = Late<Box<Int, Int>>()
    let ring = Box<Int, Int>(label: "ring") { k, c in
      c[close] ? c[late.value, (k + 1) % 2] + 1 : k
    }
    late.value = ring
    let cogs = LayoutCogs<E>()
    var errors: [CogError] = []
    cogs.errorHandler = { errors.append($0) }
    var seen: [Int] = []
    cogs.react { c in seen.append(c[ring, 0]) }
    cogs.turn("close") { w in w[close] = true }
    #expect(errors == [.cycle(states: ["ring[0]", "ring[1]"])])
    cogs.turn("open") { w in w[close] = false }
    #expect(seen.last == 0)
  }

  static func contextsApart() {
    let head = Cog<Int>(1, label: "head")
    let item = Box<Int, Int>(label: "item") { k, c in c[head] * k }
    let one = LayoutCogs<E>()
    let two = LayoutCogs<E>()
    #expect(one[item, 3] == 3)
    two.turn("head") { w in w[head] = 5 }
    #expect(two[item, 3] == 15)
    #expect(one[item, 3] == 3)
    // Alternating contexts: each read misses the box's one-entry cache and still finds the row.
    for _ in 0..<3 {
      #expect(one[item, 4] == 4)
      #expect(two[item, 4] == 20)
    }
    #expect(!one.hasRow(item, 9) && !two.hasRow(item, 9))
  }
}
