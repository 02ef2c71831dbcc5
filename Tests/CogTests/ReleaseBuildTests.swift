import Foundation
import Testing

/// What a shipped (release) app sees (issue 9, findings 10 and 11): every misuse stops the
/// program with a message that says what went wrong and what to do, and a never-evaluated
/// 100,000-deep chain is read on the main thread. `preconditionFailure` prints nothing at `-O`,
/// so these run `CogReleaseProbe` built with `-c release`, as child processes.
///
/// The probe is built once per test run into `.build/release-probe` (its own scratch path, so
/// the build does not contend with the `swift test` that runs this). Set
/// `COG_SKIP_RELEASE_PROBE=1` to skip these tests when iterating on something else.
@Suite("Release builds", .serialized)
struct ReleaseBuildTests {
  static let skip = ProcessInfo.processInfo.environment["COG_SKIP_RELEASE_PROBE"] != nil

  @Test(
    "each misuse prints what went wrong and what to do, in a release build",
    .disabled(if: skip, "COG_SKIP_RELEASE_PROBE is set"),
    arguments: [
      ("escaped-writer", "a writer of turn '#1' was used after that turn ended"),
      ("escaped-writer-gone", "a writer of turn '#1' was used after that turn ended"),
      ("escaped-context", "a body's context was used outside its body"),
      ("escaped-context-gone", "a body's context was used outside its body"),
      ("escaped-reaction-context-gone", "a body's context was used outside its body"),
      ("escaped-family-writer", "a writer of turn '#1' was used after that turn ended"),
      ("escaped-family-writer-gone", "a writer of turn '#1' was used after that turn ended"),
      ("write-automatic", "'twice' is computed by the graph and cannot be written"),
      ("write-box", "'plus[2]' is computed by the graph and cannot be written"),
      ("turn-in-turn", "turn 'inner' was started inside turn 'outer'"),
      ("turn-in-body", "turn 'inside' was started while 'bad' was running"),
      ("react-in-turn", "reaction 'late' was registered inside turn 'outer'"),
      ("evict-in-turn", "evict was called inside turn 'outer'"),
      ("cycle-without-placeholder", "cycle between states: b → a → b"),
      ("export-in-turn", "an export was started inside turn 'outer'"),
      ("app-before-setup", "the app context (Cogs.app) was used before Cogs.setUpApp()"),
      ("app-setup-twice", "Cogs.setUpApp() was called a second time"),
      ("run-count-off", "runCount(of:) needs `countsRuns = true` on the context"),
      ("clock-backwards", "CogTestClock.advance(by:) was given -1.0 seconds"),
      ("descriptor-ids-exhausted", "descriptors (cogs, boxes, families, async cogs) declared in"),
    ])
  func misuseMessages(scenario: String, message: String) throws {
    let run = try ReleaseProbe.shared.run(scenario)
    #expect(run.status != 0, "\(scenario) exited 0")
    #expect(run.stderr.contains("Cog: "), "stderr: \(run.stderr)")
    #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
  }

  @Test(
    "the first read of a never-evaluated 100,000-deep chain works on the main thread",
    .disabled(if: skip, "COG_SKIP_RELEASE_PROBE is set"))
  func deepChainOnTheMainThread() throws {
    let run = try ReleaseProbe.shared.run("deep-chain-100000")
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stdout.contains("tip 100000"))
  }
}

extension ReleaseBuildTests {
  @Test(
    "the test API works in a release build: history, run counts, budgets, DOT",
    .disabled(if: skip, "COG_SKIP_RELEASE_PROBE is set"))
  func testAPI() throws {
    let run = try ReleaseProbe.shared.run("test-api")
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stdout.contains("history 0\n"), "stdout: \(run.stdout)")
    #expect(run.stdout.contains("history [\"#2 recorded [count]\"]"), "stdout: \(run.stdout)")
    #expect(run.stdout.contains("runs 2\n"), "stdout: \(run.stdout)")
    #expect(
      run.stdout.contains("budget recomputed 2 states beyond the budget []: doubled, show"),
      "stdout: \(run.stdout)")
    #expect(run.stdout.contains("dot true"), "stdout: \(run.stdout)")
  }

  @Test(
    "explained turns work in a release build, off until switched on",
    .disabled(if: skip, "COG_SKIP_RELEASE_PROBE is set"))
  func explain() throws {
    let run = try ReleaseProbe.shared.run("explain")
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stdout.contains("explained false 0\n"), "stdout: \(run.stdout)")
    #expect(
      run.stdout.contains(
        "why shown did not recompute in turn #2: it was flagged via parity, but none of its "
          + "dependencies changed: parity recomputed to an equal value"),
      "stdout: \(run.stdout)")
    #expect(run.stdout.contains("cutoff [\"parity\"]"), "stdout: \(run.stdout)")
  }

  @Test(
    "a 10⁶-deep chain of automatic cogs is dropped without a crash, four ways and on a small stack",
    .disabled(if: skip, "COG_SKIP_RELEASE_PROBE is set"),
    arguments: ["nocontext", "sweep", "contextfirst", "chainfirst", "thread"])
  func droppedDeepChain(way: String) throws {
    let run = try ReleaseProbe.shared.run("drop-chain-\(way)-1000000")
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stdout.contains("dropped"), "stdout: \(run.stdout)")
    if way != "nocontext" && way != "thread" { #expect(run.stdout.contains("tip 1000001")) }
    if way == "sweep" { #expect(run.stdout.contains("rows 0")) }
  }
}

/// Builds the probe once and runs it.
final class ReleaseProbe: @unchecked Sendable {
  static let shared = ReleaseProbe()
  private let lock = NSLock()
  private var binary: Result<URL, Error>? = nil

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  struct BuildFailed: Error, CustomStringConvertible {
    var description: String
  }

  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  func run(_ scenario: String) throws -> Run {
    let bin = try built()
    return try Self.execute(bin, [scenario])
  }

  private func built() throws -> URL {
    lock.lock()
    defer { lock.unlock() }
    if let binary { return try binary.get() }
    let result = Result { try Self.build() }
    binary = result
    return try result.get()
  }

  /// Through `scripts/release-build.sh`, which builds the scratch path afresh when the sources
  /// changed: SwiftPM's incremental release build linked the probe's old object, which had
  /// inlined a since-changed `@inlinable` function, against the new library (undefined
  /// symbols; impl/perf-notes.md, "Stop 47").
  private static func build() throws -> URL {
    let scratch = packageRoot.appendingPathComponent(".build/release-probe").path
    let env = URL(fileURLWithPath: "/usr/bin/env")
    let build = try execute(
      env, ["bash", "scripts/release-build.sh", scratch, "--product", "CogReleaseProbe"],
      in: packageRoot)
    guard build.status == 0 else {
      throw BuildFailed(description: "swift build failed: \(build.stderr)\(build.stdout)")
    }
    let args = [
      "swift", "build", "-c", "release", "--product", "CogReleaseProbe", "--scratch-path", scratch,
    ]
    let path = try execute(env, args + ["--show-bin-path"], in: packageRoot)
    let dir = path.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    return URL(fileURLWithPath: dir).appendingPathComponent("CogReleaseProbe")
  }

  static func execute(_ executable: URL, _ arguments: [String], in directory: URL? = nil)
    throws -> Run
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes to the end before waiting, so a chatty child cannot block on a full pipe.
    final class Box: @unchecked Sendable { var data = Data() }
    let stderr = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      stderr.data = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr.data, as: UTF8.self))
  }
}
