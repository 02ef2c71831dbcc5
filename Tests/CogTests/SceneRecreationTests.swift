@_spi(Testing) import Cog
import Observation
import Testing

/// Scene recreation (issue 15): views torn down and made again re-attach to the same
/// boundaries, with no duplicate registrars, no lost or stale value and no missed notice.
@MainActor
@Suite("Scene recreation")
struct SceneRecreationTests {
  @Test("views made again read through the same boundaries, current, and are told of changes")
  func recreateScenes() {
    let count = Cog(0, label: "count")
    let items = CogBox(label: "item") { (k: Int, c) in "item \(k) at \(c[count])" }
    let cogs = Cogs()
    func makeScene() -> (FakeView<Int>, FakeView<String>) {
      let counter = FakeView { cogs.ui[count] }
      let detail = FakeView { cogs.ui[items[7]] }
      counter.render()
      detail.render()
      return (counter, detail)
    }
    var (counter, detail) = makeScene()
    #expect(cogs.boundaryCount == 2)
    cogs.turn("1") { w in w[count] = 1 }
    #expect(counter.notices.count == 1 && detail.notices.count == 1)
    counter.render()
    detail.render()

    for generation in 2...6 {
      // Tear the scene down; a change lands while no view is on screen.
      counter.tearDown()
      detail.tearDown()
      cogs.turn("while hidden") { w in w[count] = generation * 10 }
      // The old views' tracking was armed by their last render: Observation still calls it
      // once (SwiftUI ignores notices for views it dropped); they never render again.
      #expect(counter.notices.count == 2)
      // Re-create: same boundaries, the current value (not the one shown before teardown).
      (counter, detail) = makeScene()
      #expect(cogs.boundaryCount == 2)
      #expect(counter.shown == [generation * 10])
      #expect(detail.shown == ["item 7 at \(generation * 10)"])
      // The next change reaches the new views exactly once.
      cogs.turn("visible") { w in w[count] = generation * 10 + 1 }
      #expect(counter.notices.count == 1 && detail.notices.count == 1)
      counter.render()
      detail.render()
      #expect(counter.shown == [generation * 10, generation * 10 + 1])
      // An equal write afterwards tells nobody.
      cogs.turn("equal") { w in w[count] = generation * 10 + 1 }
      #expect(counter.notices.count == 1)
    }
    #expect(cogs.boundaryCount == 2)
  }

  @Test("a view made again between a turn and its re-render misses no notice")
  func noMissedNotice() {
    let count = Cog(0)
    let cogs = Cogs()
    let first = FakeView { cogs.ui[count] }
    first.render()
    cogs.turn("1") { w in w[count] = 1 }
    #expect(first.notices.count == 1)
    // The scene is replaced before the first view re-rendered.
    first.tearDown()
    let second = FakeView { cogs.ui[count] }
    second.render()
    #expect(second.shown == [1])
    cogs.turn("2") { w in w[count] = 2 }
    #expect(second.notices.count == 1)
    #expect(first.notices.count == 1)
    #expect(cogs.boundaryCount == 1)
  }
}
