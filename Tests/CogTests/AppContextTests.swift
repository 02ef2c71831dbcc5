import Cog
import Testing

/// The app context (seed 000 §3.2). The failing cases (use before setup, a second setup) stop
/// the program, so `ReleaseBuildTests` runs them in a release-built child process; this
/// process sets the app context up once, here and nowhere else.
@MainActor
@Suite("App context")
struct AppContextTests {
  @Test("setUpApp makes the one app context; isolated contexts stay apart from it")
  func setUpOnce() {
    let count = Cog(0)
    #expect(!Cogs.isAppSetUp)
    let app = Cogs.setUpApp()
    #expect(Cogs.isAppSetUp)
    #expect(Cogs.app === app)
    let preview = Cogs()
    app.turn("app") { w in w[count] = 1 }
    #expect(Cogs.app[count] == 1)
    #expect(preview[count] == 0)
  }
}
