import CogBenchCases
import CogBenchSystems

#if canImport(Glibc)
  import Glibc
#endif

/// A test-only system: Cog, with a known regression added to every iteration, so that the
/// tests and CI can show that `cog-bench check` exits 2 on a real regression.
///
/// Id `injected`; hidden: `list` does not show it, no glob matches it (select it by its
/// exact id) and no default selection has it. What it adds per iteration comes from
/// `COG_BENCH_INJECT`: `none` (default: only the wrapper, for the thresholds to compare
/// with), `allocation` (one `malloc` of 16 bytes, freed by the next iteration) or
/// `instructions` (an unoptimized loop of `loopIterations` additions, no allocation, no
/// reference counting).
@MainActor
enum InjectedSystem {
  static let id = "injected"
  static let variable = "COG_BENCH_INJECT"
  nonisolated static let loopIterations = 200_000

  enum Injection: String, CaseIterable {
    case none
    case allocation
    case instructions
  }

  /// The injection `COG_BENCH_INJECT` asks for.
  static func injection() throws -> Injection {
    guard let raw = getenv(variable) else { return .none }
    let text = String(cString: raw)
    guard let i = Injection(rawValue: text.isEmpty ? "none" : text) else {
      throw BenchError(
        "\(variable) must be one of \(Injection.allCases.map(\.rawValue).joined(separator: ", ")), "
          + "got '\(text)'")
    }
    return i
  }

  static let entry = SystemEntry.wrapping(CogSystem.self, id: id) { bound in
    var wrapped = bound
    wrapped.systemID = id
    let base = bound.prepare
    // The selection is checked before anything runs (`Selection.systems`), so `try?` only
    // meets a valid value here.
    let injection = (try? injection()) ?? .none
    wrapped.prepare = { size, checks in
      guard var p = base(size, checks) else { return nil }
      let iterate = p.iterate
      switch injection {
      case .none: p.iterate = { iterate() }
      case .allocation:
        p.iterate = {
          iterate()
          injectedAllocation()
        }
      case .instructions:
        p.iterate = {
          iterate()
          injectedInstructions()
        }
      }
      return p
    }
    return wrapped
  }
}

nonisolated(unsafe) private var injectedSink: UnsafeMutableRawPointer?
nonisolated(unsafe) private var injectedTotal = 0

/// One heap allocation per call that the optimizer cannot remove: the block lives in a
/// global until the next call frees it (a `malloc` freed at once was folded away in release).
@inline(never) @_optimize(none)
private func injectedAllocation() {
  free(injectedSink)
  injectedSink = malloc(16)
}

/// A fixed amount of work: unoptimized, so that the loop runs in every build.
@inline(never) @_optimize(none)
private func injectedInstructions() {
  var total = 0
  var i = 0
  while i < InjectedSystem.loopIterations {
    total &+= i
    i &+= 1
  }
  injectedTotal &+= total
}
