import Foundation
import Testing

/// An app depends on this package by path and uses Cog's API (issue 11): a tiny package is
/// written to a temporary folder and built. The library product carries no unsafe flags (a
/// dependency with them would not build), and the app sees Cog's API only: a second target
/// that reaches for the core (`cogs.graph`, `Graph`) must fail to compile.
///
/// Skipped with `COG_SKIP_RELEASE_PROBE=1`, like the other tests that run `swift build`.
@Suite("An app depending on Cog", .serialized)
struct AppPackageTests {
  static let skip = ProcessInfo.processInfo.environment["COG_SKIP_RELEASE_PROBE"] != nil

  @Test("builds against the package by path and runs", .disabled(if: skip))
  func appBuildsAndRuns() throws {
    let app = try AppPackage.shared.build(product: "App")
    #expect(app.status == 0, "swift build failed:\n\(app.stderr)\(app.stdout)")
    let run = try AppPackage.shared.run("App")
    #expect(run.status == 0)
    #expect(run.stdout.contains("doubled 4, label total 4"))
  }

  @Test("cannot reach the core's internals", .disabled(if: skip))
  func internalsAreHidden() throws {
    let peek = try AppPackage.shared.build(product: "Peek")
    #expect(peek.status != 0, "a target using the core's internals compiled")
    #expect(peek.stderr.contains("graph") || peek.stdout.contains("graph"))
  }
}

/// The temporary app package (made once per test run).
final class AppPackage: @unchecked Sendable {
  static let shared = AppPackage()
  let root: URL
  private var made = false
  private let lock = NSLock()

  init() {
    root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cog-app-\(ProcessInfo.processInfo.processIdentifier)")
  }

  private func make() throws {
    lock.lock()
    defer { lock.unlock() }
    if made { return }
    let fm = FileManager.default
    try? fm.removeItem(at: root)
    for dir in ["Sources/App", "Sources/Peek"] {
      try fm.createDirectory(
        at: root.appendingPathComponent(dir), withIntermediateDirectories: true)
    }
    let cog = ReleaseProbe.packageRoot.path
    // A path dependency's identity is its folder's name.
    let identity = ReleaseProbe.packageRoot.lastPathComponent.lowercased()
    try """
    // swift-tools-version: 6.0
    import PackageDescription
    let package = Package(
      name: "App",
      dependencies: [.package(path: "\(cog)")],
      targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "Cog", package: "\(identity)")]),
        .executableTarget(
          name: "Peek", dependencies: [.product(name: "Cog", package: "\(identity)")]),
      ]
    )
    """.write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try """
    import Cog

    let countCog = Cog(1, label: "count")
    let doubledCog = Cog { c in c[countCog] * 2 }
    let squares = CogBox { (n: Int, c) in n * n }
    let labelCog = Cog { c -> String in "label total \\(c[doubledCog] + c[squares[0]])" }

    @MainActor func main() {
      let cogs = Cogs()
      cogs.react("log") { c in _ = c[labelCog] }
      cogs.turn("increment") { w in w[countCog] += 1 }
      do {
        print("doubled \\(try cogs.read(doubledCog)), \\(cogs[labelCog])")
      } catch let error as CogError {
        print("error \\(error)")
      } catch {}
    }
    MainActor.assumeIsolated { main() }
    """.write(
      to: root.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)
    try """
    import Cog

    @MainActor func peek() {
      let cogs = Cogs()
      print(cogs.graph)
    }
    MainActor.assumeIsolated { peek() }
    """.write(
      to: root.appendingPathComponent("Sources/Peek/main.swift"), atomically: true, encoding: .utf8)
    made = true
  }

  func build(product: String) throws -> ReleaseProbe.Run {
    try make()
    return try ReleaseProbe.execute(
      URL(fileURLWithPath: "/usr/bin/env"), ["swift", "build", "--product", product], in: root)
  }

  func run(_ product: String) throws -> ReleaseProbe.Run {
    let bin = try ReleaseProbe.execute(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["swift", "build", "--product", product, "--show-bin-path"],
      in: root)
    let dir = bin.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    return try ReleaseProbe.execute(URL(fileURLWithPath: dir).appendingPathComponent(product), [])
  }
}
