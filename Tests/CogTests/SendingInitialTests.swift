import Testing

/// A cog is `Sendable` whatever its value type, and contexts read its initial value on the
/// main actor. So an initial value that is not `Sendable` is taken on the main actor only
/// (issue 28): code elsewhere cannot give one and keep changing it while a context reads it.
/// `Sendable` values are taken anywhere, as before. Checked by type-checking small files in
/// the Swift 6 language mode against the built `Cog` module (see `AsyncPolicyCompileTests`).
@Suite(
  "Initial values that are not Sendable", .serialized,
  .enabled(if: PolicyTypecheck.isAvailable, "no swiftc or no built Cog module here"))
struct SendingInitialTests {
  static let prelude = """
    import Cog
    final class Draft: Equatable {
      var text = ""
      static func == (a: Draft, b: Draft) -> Bool { a === b }
    }
    """

  static func typecheck(_ source: String) throws -> (status: Int32, output: String)? {
    try AsyncPolicyCompileTests.typecheck(prelude + "\n" + source, flags: ["-swift-version", "6"])
  }

  @Test("Sendable initial values are taken anywhere: globals and nonisolated code")
  func sendableAnywhere() throws {
    let r = try #require(
      try Self.typecheck(
        """
        let count = Cog(0)
        let name = Cog("a", label: "name", equals: nil)
        let forecast = Cog.Async(.latest, initial: 0) { _ in .run { 1 } }
        let queued = Cog.Async(.queue, initial: 0) { _ in .run { 1 } }
        let optional = Cog<Int?>.Async(.latest) { _ in .run { 1 } }
        nonisolated func make() -> Cog<Int> { Cog(1) }
        """))
    #expect(r.status == 0, "\(r.output)")
  }

  @Test("a value that is not Sendable is taken on the main actor, and used there after")
  func mainActorValue() throws {
    let r = try #require(
      try Self.typecheck(
        """
        @MainActor func make() -> [Cog<Draft>] {
          let draft = Draft()
          let cogs = [Cog(draft), Cog(draft, equals: nil)]
          draft.text = "still mine, on the main actor"
          _ = Cog.Async(.latest, initial: draft) { _ in .run { Draft() } }
          _ = Cog.Async(.merged, initial: draft) { _ in .run { Draft() } }
          _ = Cog<Draft?>.Async(.latest) { _ in .run { nil } }
          return cogs
        }
        """))
    #expect(r.status == 0, "\(r.output)")
  }

  @Test(
    "a value that is not Sendable, given off the main actor, is a compile-time error",
    arguments: [
      "Cog(draft)", "Cog(draft, equals: nil)",
      "Cog.Async(.latest, initial: draft) { _ in .run { Draft() } }",
      "Cog.Async(.queue, initial: draft) { _ in .run { Draft() } }",
    ])
  func offMainRejected(expression: String) throws {
    let r = try #require(
      try Self.typecheck(
        """
        nonisolated func make() -> Cog<Draft> {
          let draft = Draft()
          return \(expression)
        }
        """))
    #expect(r.status != 0, "compiled: \(expression)")
    #expect(r.output.contains("main actor-isolated"), "\(r.output)")
  }
}
