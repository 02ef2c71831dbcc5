import Cog
import Testing

/// What a key means to `box[key]`, for the keys apps use (swift/0006-reference-layouts.md, the
/// generic layout): two keys name one row exactly when they are `==` as the box's `Key`, both on
/// the warm path (a body's re-read confirming its candidate row) and on the cold path (a
/// lookup by hash). A box keyed by `AnyHashable` therefore treats `1` and `Int64(1)` as one key,
/// as `AnyHashable` does; a box keyed by `Int` cannot be given an `Int64`.
@MainActor
@Suite("Keyed box keys")
struct KeyedBoxKeyTests {
  @Test("AnyHashable keys: Int 1, Int64 1 and UInt8 1 name one row")
  func anyHashableNumbers() {
    let keys: [AnyHashable] = [AnyHashable(1), AnyHashable(Int64(1)), AnyHashable(UInt8(1))]
    for (a, b) in zip(keys, keys.dropFirst()) { #expect(Reread.sameRow(a, b)) }
    #expect(!Reread.sameRow(AnyHashable(1), AnyHashable(2)))
    #expect(!Reread.sameRow(AnyHashable(1), AnyHashable("1")))
    let box = CogBox { (k: AnyHashable, _) -> Int in k.hashValue }
    #expect(box[AnyHashable(Int64(1))].key == AnyHashable(1))
  }

  @Test("String keys: small and heap strings, made apart, and canonically equal spellings")
  func strings() {
    #expect(Reread.sameRow("zip", String("zi") + "p"))
    let long = String(repeating: "long key ", count: 8)
    #expect(Reread.sameRow(long, String(long.reversed().reversed())))
    #expect(!Reread.sameRow(long, long + "!"))
    // "é" precomposed and as "e" + combining accent: `String.==` calls them equal.
    #expect(Reread.sameRow("caf\u{E9}", "cafe\u{301}"))
    #expect(!Reread.sameRow("ab", "ba"))
  }

  @Test("class keys: identity or value equality, as the class defines ==")
  func classKeys() {
    let one = IdentityKey()
    #expect(Reread.sameRow(one, one))
    #expect(!Reread.sameRow(one, IdentityKey()))
    #expect(Reread.sameRow(ValueKey(7), ValueKey(7)))
    #expect(!Reread.sameRow(ValueKey(7), ValueKey(8)))
    // A subclass instance in a box keyed by its base class.
    #expect(Reread.sameRow(ValueKey(7), SubValueKey(7)))
  }

  @Test("a key type with a custom ==: case-insensitive names")
  func customEquality() {
    #expect(Reread.sameRow(CaseInsensitive("Zip"), CaseInsensitive("zIP")))
    #expect(!Reread.sameRow(CaseInsensitive("zip"), CaseInsensitive("zap")))
  }

  @Test("keys too large for an inline buffer, over-aligned, small and optional keys")
  func keyShapes() {
    let big = Big(a: 1, b: 2, c: 3, d: 4)
    #expect(Reread.sameRow(big, Big(a: 1, b: 2, c: 3, d: 4)))
    #expect(!Reread.sameRow(big, Big(a: 1, b: 2, c: 3, d: 5)))
    #expect(Reread.sameRow(SIMD4<Int32>(1, 2, 3, 4), SIMD4<Int32>(1, 2, 3, 4)))
    #expect(!Reread.sameRow(SIMD4<Int32>(1, 2, 3, 4), SIMD4<Int32>(1, 2, 3, 5)))
    #expect(Reread.sameRow(Int8(-3), Int8(-3)))
    #expect(!Reread.sameRow(Int8(-3), Int8(3)))
    #expect(Reread.sameRow(Int?.none, Int?.none))
    #expect(!Reread.sameRow(Int?.none, Int?.some(0)))
    #expect(!Reread.sameRow(Shape.named("a"), Shape.sized(1, 2)))
    #expect(Reread.sameRow(Shape.sized(1, 2), Shape.sized(1, 2)))
  }

  @Test("a reference's key is its key, typed, and its label shows it, whatever its shape")
  func keyAndLabel() {
    let big = Big(a: 1, b: 2, c: 3, d: 4)
    let bigs = CogBox(label: "bigs") { (k: Big, _) -> Int in k.a }
    #expect(bigs[big].key == big)
    #expect(bigs[big].label == "bigs[\(big)]")
    let names = CogBox(label: "names") { (k: String, _) -> Int in k.count }
    #expect(names["zip"].key == "zip")
    #expect(names["zip"].label == "names[zip]")
    let ints = CogBox(label: "ints") { (k: Int, _) -> Int in k }
    #expect(ints[3].key == 3)
    #expect(ints[3].label == "ints[3]")
  }

  @Test("references kept by type (the README's snippet): CogRef<Key, Value>, key typed, both kinds")
  func storedReferences() {
    let draftCogs = CogFamily { (id: Int) in "" }
    let squareCogs = CogBox { (n: Int, _) in n * n }
    let ids = [7, 8]
    let refs: [CogRef<Int, String>] = ids.map { draftCogs[$0] }
    let id: Int = refs[0].key
    #expect(id == 7)
    let squares: [CogRef<Int, Int>] = ids.map { squareCogs[$0] }
    let cogs = Cogs()
    cogs.turn("edit") { w in w[refs[1]] = "Hi" }
    #expect(refs.map { cogs[$0] } == ["", "Hi"])
    #expect(squares.map { cogs[$0] } == [49, 64])
  }
}

/// Reads `box[first]` in a body, then re-runs the body reading `box[second]`: whether the
/// second read named the first read's row (warm path: the body's candidate row confirmed), then
/// whether a read outside any body finds the same row by lookup (cold path).
@MainActor
enum Reread {
  static func sameRow<K: Hashable>(_ first: K, _ second: K) -> Bool {
    let made = Made()
    let box = CogBox(label: "box") { (_: K, _) -> Int in
      made.count += 1
      return made.count
    }
    let which = Cog(0, label: "which")
    let reader = Cog { c in c[which] == 0 ? c[box[first]] : c[box[second]] }
    let cogs = Cogs()
    let firstRow = cogs[reader]
    cogs.turn("switch") { w in w[which] = 1 }
    let warm = cogs[reader] == firstRow
    let cold = cogs[box[second]] == cogs[box[first]]
    #expect(warm == cold, "warm and cold paths disagree")
    return warm && cold && made.count == (warm ? 1 : 2)
  }

  final class Made {
    var count = 0
  }
}

final class IdentityKey: Hashable {
  static func == (a: IdentityKey, b: IdentityKey) -> Bool { a === b }
  func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}

class ValueKey: Hashable {
  let value: Int
  init(_ value: Int) { self.value = value }
  static func == (a: ValueKey, b: ValueKey) -> Bool { a.value == b.value }
  func hash(into h: inout Hasher) { h.combine(value) }
}

final class SubValueKey: ValueKey {}

struct CaseInsensitive: Hashable {
  let text: String
  init(_ text: String) { self.text = text }
  static func == (a: Self, b: Self) -> Bool { a.text.lowercased() == b.text.lowercased() }
  func hash(into h: inout Hasher) { h.combine(text.lowercased()) }
}

/// 32 bytes: more than an existential's three-word buffer.
struct Big: Hashable {
  var a, b, c, d: Int
}

enum Shape: Hashable {
  case named(String)
  case sized(Int, Int)
}
