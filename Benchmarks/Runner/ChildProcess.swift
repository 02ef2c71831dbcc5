import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Child processes whose argument vector, environment and standard streams the runner fixes
/// exactly (Foundation's `Process` sets `argv[0]` to the path and inherits the environment):
/// each measured region runs in one, so that what ran before it is the same every time.
enum ChildProcess {
  struct Job: Sendable {
    var executable: String
    /// The whole argument vector, `argv[0]` included.
    var argv: [String]
    /// `NAME=value` entries: the child's whole environment.
    var environment: [String]
    /// The child's working directory.
    var directory: String
    /// Files that become the child's stdin, stdout and stderr (stdout and stderr are created);
    /// absolute paths, opened after the change of directory.
    var stdin: String
    var stdout: String
    var stderr: String
  }

  enum Outcome: Sendable {
    /// The exit status, or 128 + the signal that ended the child.
    case exited(Int32)
    case cannotStart(String)
  }

  /// Runs `job` and waits for it.
  static func run(_ job: Job) -> Outcome {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard let addchdir = addChangeDirectory else {
      return .cannotStart(
        "posix_spawn_file_actions_addchdir_np is missing (glibc 2.29 or later is needed)")
    }
    _ = addchdir(&actions, job.directory)
    posix_spawn_file_actions_addopen(&actions, 0, job.stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, job.stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, job.stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = job.argv.map { strdup($0) } + [nil]
    let envp = job.environment.map { strdup($0) } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, job.executable, &actions, nil, argv, envp)
    guard rc == 0 else {
      return .cannotStart("cannot start \(job.executable): \(String(cString: strerror(rc)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR {
        return .cannotStart("waitpid failed: \(String(cString: strerror(errno)))")
      }
    }
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which Glibc does not import as functions.
    if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
    return .exited(128 + (status & 0x7f))
  }

  /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29), which the Glibc module does not
  /// import.
  private static let addChangeDirectory:
    (
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) ->
        Int32
    )? = {
      guard
        let symbol = dlsym(
          UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
      else { return nil }
      return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
          -> Int32).self)
    }()

  /// Runs every job, at most `width` at a time, and returns their outcomes in order;
  /// `finished` is called (on any thread, one call at a time) as each job ends.
  static func runAll(
    _ jobs: [Job], width: Int, finished: @escaping @Sendable (Int, Outcome) -> Void
  ) -> [Outcome] {
    final class State: @unchecked Sendable {
      let lock = NSLock()
      var next = 0
      var outcomes: [Outcome?]
      init(_ n: Int) { outcomes = Array(repeating: nil, count: n) }
    }
    let state = State(jobs.count)
    let workers = max(1, min(width, jobs.count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while true {
        state.lock.lock()
        let i = state.next
        state.next += 1
        state.lock.unlock()
        if i >= jobs.count { return }
        let outcome = run(jobs[i])
        state.lock.lock()
        state.outcomes[i] = outcome
        finished(i, outcome)
        state.lock.unlock()
      }
    }
    return state.outcomes.map { $0 ?? .cannotStart("not run") }
  }
}
