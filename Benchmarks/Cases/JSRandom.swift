/// js-reactivity-benchmark's `pseudoRandom(seed)` (`util/pseudoRandom.ts`), bit for bit:
/// `sfc32(h(), h(), h(), h())` with `h = xmur3a(seed)`. The JS works on 32-bit integers through
/// `| 0`, `>>> 0` and `Math.imul`, which keep exactly the low 32 bits: `UInt32` with wrapping
/// operators (`&+`, `&*`) and logical shifts gives the same bits. Each output is
/// `(t >>> 0) / 4294967296`, a `Double` in [0, 1).
///
/// The first outputs for "seed" (checked in CaseTests, derived independently with node and
/// with Python) are 0.8370377509854734, 0.35816134908236563, 0.12195610790513456, …
public struct JSPseudoRandom: Sendable {
  @usableFromInline var a: UInt32
  @usableFromInline var b: UInt32
  @usableFromInline var c: UInt32
  @usableFromInline var d: UInt32

  public init(seed: String = "seed") {
    var hash = XMur3a(seed)
    a = hash.next()
    b = hash.next()
    c = hash.next()
    d = hash.next()
  }

  /// sfc32 (PractRand): the next output as a 32-bit integer (`t >>> 0`).
  @inlinable
  public mutating func nextUInt32() -> UInt32 {
    var t = a &+ b
    a = b ^ (b >> 9)
    b = c &+ (c << 3)
    c = (c << 21) | (c >> 11)
    d = d &+ 1
    t = t &+ d
    c = c &+ t
    return t
  }

  /// The JS `rng()`: `(t >>> 0) / 4294967296`.
  @inlinable
  public mutating func next() -> Double { Double(nextUInt32()) / 4294967296 }
}

/// `xmur3a(str)`: MurmurHash3's mixing over the string's UTF-16 code units (`charCodeAt`),
/// then a generator of 32-bit hashes.
public struct XMur3a: Sendable {
  @usableFromInline var h: UInt32

  public init(_ string: String) {
    var h: UInt32 = 2_166_136_261
    var length: UInt32 = 0
    for unit in string.utf16 {
      var k = UInt32(unit) &* 3_432_918_353
      k = (k << 15) | (k >> 17)
      h ^= k &* 461_845_907
      h = (h << 13) | (h >> 19)
      h = h &* 5 &+ 3_864_292_196
      length &+= 1
    }
    self.h = h ^ length
  }

  @inlinable
  public mutating func next() -> UInt32 {
    h ^= h >> 16
    h = h &* 2_246_822_507
    h ^= h >> 13
    h = h &* 3_266_489_909
    h ^= h >> 16
    return h
  }
}
