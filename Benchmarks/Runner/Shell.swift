import Foundation

/// Runs helper programs (git, swift, valgrind, callgrind_annotate).
enum Shell {
  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Finds an executable on PATH.
  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs `executable` with `arguments`, capturing output. Nil when it cannot be started.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    stdin: String? = nil, inheritStderr: Bool = false
  ) -> Output? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    if !inheritStderr { process.standardError = err }
    let input = Pipe()
    process.standardInput = input
    do { try process.run() } catch { return nil }
    if let stdin {
      input.fileHandleForWriting.write(stdin.data(using: .utf8)!)
    }
    try? input.fileHandleForWriting.close()
    // Read both pipes before waiting so a chatty child cannot block on a full pipe.
    final class Box: @unchecked Sendable { var data = Data() }
    let errBox = Box()
    let group = DispatchGroup()
    group.enter()
    let errHandle = err.fileHandleForReading
    DispatchQueue.global().async {
      if !inheritStderr { errBox.data = errHandle.readDataToEndOfFile() }
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let errData = errBox.data
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// Runs each job (executable, arguments, environment, stdin) at the same time, with its
  /// stderr inherited, and returns their outputs in order (nil for a job that cannot start).
  static func runConcurrently(
    _ jobs: [(String, [String], [String: String], String)]
  ) -> [Output?] {
    if jobs.count == 1 {
      let j = jobs[0]
      return [run(j.0, j.1, environment: j.2, stdin: j.3, inheritStderr: true)]
    }
    final class Results: @unchecked Sendable {
      var outputs: [Output?]
      let lock = NSLock()
      init(_ n: Int) { outputs = Array(repeating: nil, count: n) }
    }
    let results = Results(jobs.count)
    DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
      let j = jobs[i]
      let o = run(j.0, j.1, environment: j.2, stdin: j.3, inheritStderr: true)
      results.lock.lock()
      results.outputs[i] = o
      results.lock.unlock()
    }
    return results.outputs
  }

  /// The trimmed stdout of a successful run, or nil.
  static func capture(_ name: String, _ arguments: [String]) -> String? {
    guard let exe = which(name), let o = run(exe, arguments), o.status == 0 else { return nil }
    return o.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// Writes a line to stderr (progress and errors; stdout carries results).
func note(_ text: String) {
  FileHandle.standardError.write((text + "\n").data(using: .utf8)!)
}

/// `text` as one shell word: unchanged when it has no character the shell treats specially,
/// else in single quotes. Commands the runner suggests are pasted into a shell.
func shellQuoted(_ text: String) -> String {
  let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%")
  if !text.isEmpty && text.allSatisfy({ plain.contains($0) }) { return text }
  return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
