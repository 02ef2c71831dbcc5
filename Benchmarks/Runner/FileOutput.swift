import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// File writes that never leave a half-written file behind.
enum FileOutput {
  /// Writes `data` to a new file `directory/<base>.<ext>` (or `<base>-2.<ext>`, … when the
  /// name is taken) and returns its path. Never overwrites: the temporary file is hard-linked
  /// to the final name, which fails if that name exists.
  static func writeNew(_ data: Data, directory: String, base: String, ext: String) throws
    -> String
  {
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    let temp = "\(directory)/.\(base).\(getpid()).tmp"
    try writeTemp(data, temp)
    defer { unlink(temp) }
    for attempt in 1...1000 {
      let name = attempt == 1 ? "\(base).\(ext)" : "\(base)-\(attempt).\(ext)"
      let path = "\(directory)/\(name)"
      if link(temp, path) == 0 { return path }
      if errno != EEXIST {
        throw BenchError("cannot create \(path): \(String(cString: strerror(errno)))")
      }
    }
    throw BenchError("cannot find a free file name for \(directory)/\(base).\(ext)")
  }

  /// Creates `directory` if needed and checks that a file can be created in it, so that a
  /// bad `--output-dir` is a one-line error before anything is measured.
  static func requireWritableDirectory(_ directory: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      if !isDirectory.boolValue { throw BenchError("output directory \(directory) is a file") }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      } catch {
        throw BenchError("cannot create output directory \(directory): \(reason(error))")
      }
    }
    let probe = "\(directory)/.cog-bench-probe.\(getpid())"
    let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard fd >= 0 else {
      throw BenchError(
        "cannot write in output directory \(directory): \(String(cString: strerror(errno)))")
    }
    close(fd)
    unlink(probe)
  }

  /// A Foundation file error as its POSIX reason when it has one.
  private static func reason(_ error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return ns.localizedDescription
  }

  /// Replaces `path` atomically (temporary file in the same directory, then rename).
  static func replace(_ data: Data, at path: String) throws {
    let dir = (path as NSString).deletingLastPathComponent
    if !dir.isEmpty {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    let name = (path as NSString).lastPathComponent
    let temp = (dir.isEmpty ? "" : dir + "/") + ".\(name).\(getpid()).tmp"
    try writeTemp(data, temp)
    if rename(temp, path) != 0 {
      let message = String(cString: strerror(errno))
      unlink(temp)
      throw BenchError("cannot replace \(path): \(message)")
    }
  }

  private static func writeTemp(_ data: Data, _ temp: String) throws {
    let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else {
      throw BenchError("cannot create \(temp): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    let ok = data.withUnsafeBytes { raw -> Bool in
      var offset = 0
      while offset < raw.count {
        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n <= 0 { return false }
        offset += n
      }
      return fsync(fd) == 0
    }
    if !ok {
      let message = String(cString: strerror(errno))
      unlink(temp)
      throw BenchError("cannot write \(temp): \(message)")
    }
  }
}
