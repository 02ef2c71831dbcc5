import Foundation
import Testing

/// Every public declaration of the library has a `///` comment (attributes may sit between
/// the comment and the declaration).
@Suite("Doc comments")
struct DocCommentTests {
  /// The public declarations of `source` with no doc comment, as "line: text".
  static func undocumented(in source: String) -> [String] {
    let lines = source.components(separatedBy: "\n")
    var missing: [String] = []
    for (i, line) in lines.enumerated() {
      let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
      guard let at = words.firstIndex(where: { $0 == "public" || $0 == "open" }),
        words[..<at].allSatisfy({ $0.hasPrefix("@") }), words.count > at + 1,
        words[at + 1] != "import"
      else { continue }
      var j = i - 1
      while j >= 0 && lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("@") { j -= 1 }
      if j < 0 || !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
        missing.append("\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    return missing
  }

  @Test("the checker finds a public declaration with no comment, and accepts attributes")
  func checker() {
    let source = """
      /// Documented.
      @inlinable
      public func a() {}
      public func b() {}
      public import Foundation
      @MainActor public var c: Int { 0 }
      """
    #expect(
      Self.undocumented(in: source) == [
        "4: public func b() {}", "6: @MainActor public var c: Int { 0 }",
      ])
  }

  @Test("every public declaration in Sources/Cog and Sources/CogCore has a doc comment")
  func everyPublicDeclaration() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var missing: [String] = []
    for module in ["Sources/Cog", "Sources/CogCore"] {
      let dir = root.appendingPathComponent(module)
      for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
      where name.hasSuffix(".swift") {
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        missing += Self.undocumented(in: text).map { "\(module)/\(name):\($0)" }
      }
    }
    #expect(missing == [])
  }
}
