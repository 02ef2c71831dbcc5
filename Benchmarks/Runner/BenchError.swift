/// The documented exit codes of `cog-bench`.
enum ExitCode: Int32 {
  /// Success; for `check`, every gated count equals its threshold within tolerance.
  case ok = 0
  /// Usage error, bad input or a failure (including failed case checks).
  case failure = 1
  /// `check`: at least one gated count got worse than its threshold.
  case regression = 2
  /// `render --add`: the run lacks counters the current record has, so it was kept out of
  /// the record (nothing copied, nothing rendered); `--force` adds it on purpose.
  case notRecorded = 3
  /// `check`: no regression, but at least one count improved: ratchet the thresholds.
  case improvementsOnly = 4
}

/// An error reported as one line on stderr, with its exit code.
struct BenchError: Error, CustomStringConvertible {
  var message: String
  var exitCode: ExitCode = .failure

  init(_ message: String, exitCode: ExitCode = .failure) {
    self.message = message
    self.exitCode = exitCode
  }

  var description: String { message }
}
