import Foundation

/// A versioned JSON file that a command writes beside the runs (`Results/gate-power/`,
/// `Results/memory/`) and `render` shows the newest of: one reader for all of them.
protocol SideRecordFile: Decodable {
  static var currentSchema: Int { get }
  /// What the file is, in error messages (`gate-power`, `memory`).
  static var kind: String { get }
  var schema: Int { get }
  /// ISO 8601: newer sorts later.
  var date: String { get }
}

extension SideRecordFile {
  static func read(_ path: String) throws -> Self {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw BenchError("cannot read \(kind) file \(path)")
    }
    let file: Self
    do {
      file = try JSONDecoder().decode(Self.self, from: data)
    } catch {
      throw BenchError("\(path) is a corrupt \(kind) file (\(oneLine(error)))")
    }
    guard file.schema == currentSchema else {
      throw BenchError(
        "\(path) has schema \(file.schema); this cog-bench reads \(currentSchema)")
    }
    return file
  }

  /// The newest file in `dir` by date, or nil when there is none.
  static func newest(in dir: String) throws -> (String, Self)? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    var newest: (String, Self)?
    for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
      let path = "\(dir)/\(name)"
      let file = try read(path)
      if let n = newest, (n.1.date, n.0) >= (file.date, path) { continue }
      newest = (path, file)
    }
    return newest
  }
}
