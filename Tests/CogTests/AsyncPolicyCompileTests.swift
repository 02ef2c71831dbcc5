import Foundation
import Testing

/// Streams take `.latest` only, and the types say so: a `.stream` returned under another policy
/// does not compile. Checked by type-checking small files against the built `Cog` module with
/// the toolchain's `swiftc` (skipped when it or the module cannot be found).
@Suite(
  "Async policies at compile time", .serialized,
  .enabled(if: PolicyTypecheck.isAvailable, "no swiftc or no built Cog module here"))
struct AsyncPolicyCompileTests {
  /// The build directory of the running test binary (`.build/<configuration>`).
  static var buildDirectory: URL {
    let exe =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
    if url.lastPathComponent == "MacOS" {  // an .xctest bundle on Darwin
      url = url.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    return url
  }

  static var canTypecheck: Bool {
    let build = buildDirectory
    return swiftc != nil
      && FileManager.default.fileExists(
        atPath: build.appendingPathComponent("Modules/Cog.swiftmodule").path)
      && FileManager.default.fileExists(
        atPath: build.appendingPathComponent("CCogStack.build/module.modulemap").path)
  }

  static var swiftc: String? {
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return dirs.map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Type-checks `source` against the built module (with `flags`, say a language mode): the
  /// exit status and the diagnostics.
  static func typecheck(
    _ source: String, flags: [String] = []
  ) throws -> (status: Int32, output: String)? {
    let build = buildDirectory
    let modules = build.appendingPathComponent("Modules")
    let moduleMap = build.appendingPathComponent("CCogStack.build/module.modulemap")
    guard let swiftc,
      FileManager.default.fileExists(
        atPath: modules.appendingPathComponent("Cog.swiftmodule").path),
      FileManager.default.fileExists(atPath: moduleMap.path)
    else { return nil }
    let file = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("cog-policy-\(UUID().uuidString).swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: swiftc)
    p.arguments =
      [
        "-typecheck", "-I", modules.path, "-Xcc", "-fmodule-map-file=\(moduleMap.path)", file.path,
      ] + flags
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  static func source(_ policy: String) -> String {
    """
    import Cog
    let seconds = Cog(1)
    let ticks = Cog<Int?>.Async(\(policy)) { c in
      let n = c[seconds]
      return .stream(AsyncStream<Int> { continuation in continuation.yield(n) })
    }
    """
  }

  @Test("a stream under .latest compiles")
  func latestStreamCompiles() throws {
    let r = try #require(try Self.typecheck(Self.source(".latest")))
    #expect(r.status == 0, "\(r.output)")
  }

  @Test(
    "a stream under another policy is a compile-time error",
    arguments: [".queue", ".merged", ".exhaustLatest"])
  func otherPoliciesRejectStreams(policy: String) throws {
    let r = try #require(try Self.typecheck(Self.source(policy)))
    #expect(r.status != 0)
    #expect(r.output.contains("has no member 'stream'"), "\(r.output)")
  }
}

/// Whether the suite can run here (outside the suite type: its own attribute cannot refer to
/// it without a circular macro reference).
enum PolicyTypecheck {
  static var isAvailable: Bool { AsyncPolicyCompileTests.canTypecheck }
}
