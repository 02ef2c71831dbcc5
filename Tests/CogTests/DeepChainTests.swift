import CCogStack
import Cog
import Testing

/// First evaluation of never-evaluated deep chains (issue 9, finding 10): each fresh row's
/// body runs nested inside its reader's, so the runtime moves to a fresh stack segment when
/// the current one runs low instead of overflowing it.
@MainActor
@Suite("Deep first evaluation")
struct DeepChainTests {
  @Test("the first read of a never-evaluated 100,000-deep chain works", arguments: [100_000])
  func firstReadOfFreshDeepChain(depth: Int) {
    let head = Cog(0, label: "head")
    var chain: [Cog<Int>] = []
    var previous: Cog<Int>? = nil
    for _ in 0..<depth {
      let p = previous
      let next = p.map { p in Cog { [unowned p] c in c[p] + 1 } } ?? Cog { c in c[head] + 1 }
      chain.append(next)
      previous = next
    }
    let cogs = Cogs(reservingRows: depth + 8)
    #expect(cogs[chain[depth - 1]] == depth)
    cogs.turn("bump") { w in w[head] = 5 }
    #expect(cogs[chain[depth - 1]] == depth + 5)
  }

  @Test("a fresh deep chain read from a reaction and through try read works")
  func freshDeepChainFromEveryEntryPoint() throws {
    let depth = 30_000
    let head = Cog(0, label: "head")
    var chain: [Cog<Int>] = []
    var previous: Cog<Int>? = nil
    for _ in 0..<depth {
      let p = previous
      let next = p.map { p in Cog { [unowned p] c in c[p] + 1 } } ?? Cog { c in c[head] + 1 }
      chain.append(next)
      previous = next
    }
    let cogs = Cogs()
    var seen: [Int] = []
    let tip = chain[depth - 1]
    cogs.react { c in seen.append(c[tip]) }
    #expect(seen == [depth])
    let mid = chain[depth / 2 - 1]
    #expect(try cogs.read(mid) == depth / 2)
    cogs.turn("bump") { w in w[head] = 1 }
    #expect(seen == [depth, depth + 1])
  }

  /// What one stack check saw: the exact bytes left and the one-compare test.
  struct StackView {
    var remaining = 0
    var low = true
  }

  @Test("on a fresh segment the one-compare stack check measures that segment, not the thread's")
  func freshSegmentRedZone() throws {
    try #require(cog_can_switch_stacks() != 0)
    // On the thread's own stack, far from its end: both checks agree there is room.
    #expect(cog_stack_remaining() > Int(COG_STACK_RED_ZONE))
    #expect(!cog_stack_is_low())
    var view = StackView()
    let status = withUnsafeMutablePointer(to: &view) { p in
      cog_run_on_fresh_stack(
        4 << 20,
        { raw in
          let v = raw!.assumingMemoryBound(to: StackView.self)
          v.pointee.remaining = cog_stack_remaining()
          v.pointee.low = cog_stack_is_low()
        }, p)
    }
    #expect(status == 0)
    // Near the top of a 4 MiB segment: nearly all of it left, so not low.
    #expect(view.remaining > 3 << 20)
    #expect(!view.low)
    // Back on the thread's stack, its own bound again.
    #expect(!cog_stack_is_low())
  }
}
