import CogCore

/// The app context (seed 000 §3.2): one per app, set up once at launch. Tests and previews
/// make their own isolated contexts with `Cogs()` instead, one per test or preview runtime,
/// which share nothing with the app's.
extension Cogs {
  /// The app's context. Using it before `setUpApp()` stops the program with a message
  /// saying so (in release builds too), rather than silently creating a second graph.
  public static var app: Cogs {
    if let context = appContext { return context }
    CogError.appNotSetUp.stop()
  }

  /// Whether `setUpApp()` has run.
  public static var isAppSetUp: Bool { appContext != nil }

  /// Makes the app's context; call it once, at launch. A second call stops the program with
  /// a message saying so (in release builds too): an app has one graph.
  ///
  /// - Parameter rows: rows to reserve up front.
  @discardableResult
  public static func setUpApp(reservingRows rows: Int = 64) -> Cogs {
    if appContext != nil { CogError.appSetUpTwice.stop() }
    let context = Cogs(reservingRows: rows)
    appContext = context
    return context
  }

  /// The context `setUpApp()` made.
  private static var appContext: Cogs?
}
