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
  static func reason(_ error: Error) -> String {
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

  /// Replaces the files `files` and the directory `directory` (its whole content: the
  /// files named in it) together, or changes nothing: every output is first written beside
  /// its target (a failure there removes what was staged and leaves every target as it
  /// was), then each is renamed into place; a failing rename puts back what was already
  /// replaced. So a reader never sees charts of one render beside the markdown of another.
  static func replaceTogether(
    files: [(path: String, data: Data)], directory: (path: String, files: [(String, Data)])
  ) throws {
    let fm = FileManager.default
    func aside(_ path: String, _ kind: String) -> String {
      let dir = (path as NSString).deletingLastPathComponent
      let name = (path as NSString).lastPathComponent
      return (dir.isEmpty ? "" : dir + "/") + ".\(name).\(kind).\(getpid())"
    }
    func isDirectory(_ path: String) -> Bool? {
      var d: ObjCBool = false
      return fm.fileExists(atPath: path, isDirectory: &d) ? d.boolValue : nil
    }
    var staged: [(staged: String, target: String, isDirectory: Bool)] = []
    func removeStaged() { for s in staged { try? fm.removeItem(atPath: s.staged) } }
    do {
      for (path, data) in files {
        if isDirectory(path) == true { throw BenchError("cannot write \(path): it is a directory") }
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        staged.append((aside(path, "staged"), path, false))
        try writeTemp(data, staged.last!.staged)
      }
      if isDirectory(directory.path) == false {
        throw BenchError("cannot write \(directory.path): it is a file")
      }
      let parent = (directory.path as NSString).deletingLastPathComponent
      if !parent.isEmpty {
        try fm.createDirectory(atPath: parent, withIntermediateDirectories: true)
      }
      let dir = aside(directory.path, "staged")
      try? fm.removeItem(atPath: dir)
      try fm.createDirectory(atPath: dir, withIntermediateDirectories: false)
      staged.append((dir, directory.path, true))
      for (name, data) in directory.files { try writeTemp(data, "\(dir)/\(name)") }
    } catch {
      removeStaged()
      if let e = error as? BenchError { throw BenchError(e.message + "; nothing written") }
      throw BenchError("\(reason(error)); nothing written")
    }
    // A file is renamed over its target (atomic) after a hard link keeps the old one for a
    // roll-back; a directory cannot be renamed over a full one, so the old one moves aside.
    var done: [(target: String, old: String?)] = []
    func fail(_ target: String) -> BenchError {
      let message = String(cString: strerror(errno))
      for (t, old) in done.reversed() {
        if isDirectory(t) == true || old == nil { try? fm.removeItem(atPath: t) }
        if let old { rename(old, t) }
      }
      removeStaged()
      return BenchError("cannot replace \(target): \(message); nothing changed")
    }
    for s in staged {
      var old: String?
      if fm.fileExists(atPath: s.target) {
        old = aside(s.target, "old")
        try? fm.removeItem(atPath: old!)
        let kept = s.isDirectory ? rename(s.target, old!) : link(s.target, old!)
        if kept != 0 { throw fail(s.target) }
      }
      if rename(s.staged, s.target) != 0 {
        if s.isDirectory, let old { rename(old, s.target) } else if let old { unlink(old) }
        throw fail(s.target)
      }
      done.append((s.target, old))
    }
    for (_, old) in done { if let old { try? fm.removeItem(atPath: old) } }
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
