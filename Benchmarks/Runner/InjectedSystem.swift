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
/// with), `allocation` (one `malloc` of 16 bytes, freed by the next iteration), `retain`
/// (one strong reference stored: one retain and one release, no allocation) or
/// `instructions[:N]` (an unoptimized loop of N additions, default `loopIterations`, no
/// allocation, no reference counting; `cog-bench gate-power` sizes N to a share of a case's
/// instructions).
@MainActor
enum InjectedSystem {
  static let id = "injected"
  static let variable = "COG_BENCH_INJECT"
  nonisolated static let loopIterations = 200_000

  enum Injection: Equatable {
    case none
    case allocation
    case retain
    case instructions(loop: Int)

    init?(_ text: String) {
      switch text {
      case "", "none": self = .none
      case "allocation": self = .allocation
      case "retain": self = .retain
      case "instructions": self = .instructions(loop: InjectedSystem.loopIterations)
      default:
        guard text.hasPrefix("instructions:"), let n = Int(text.dropFirst("instructions:".count)),
          n >= 0
        else { return nil }
        self = .instructions(loop: n)
      }
    }

    var rawValue: String {
      switch self {
      case .none: "none"
      case .allocation: "allocation"
      case .retain: "retain"
      case .instructions(let n): "instructions:\(n)"
      }
    }
  }

  /// The injection `COG_BENCH_INJECT` asks for.
  static func injection() throws -> Injection {
    guard let raw = getenv(variable) else { return .none }
    let text = String(cString: raw)
    guard let i = Injection(text) else {
      throw BenchError(
        "\(variable) must be one of none, allocation, retain, instructions, instructions:N "
          + "(N ≥ 0 loop iterations), got '\(text)'")
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
      case .retain:
        p.iterate = {
          iterate()
          injectedRetain()
        }
      case .instructions(let n):
        p.iterate = {
          iterate()
          injectedInstructions(n)
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

private final class InjectedObject {}
nonisolated(unsafe) private let injectedShared = InjectedObject()
nonisolated(unsafe) private var injectedReference: InjectedObject?

/// One retain and one release per call, no allocation: the shared object is stored again
/// (retained), and the reference it replaces (the same object) released. Unoptimized, so
/// that the pair is not folded away.
@inline(never) @_optimize(none)
private func injectedRetain() {
  injectedReference = injectedShared
}

/// A fixed amount of work: unoptimized, so that the loop runs in every build.
@inline(never) @_optimize(none)
private func injectedInstructions(_ n: Int) {
  var total = 0
  var i = 0
  while i < n {
    total &+= i
    i &+= 1
  }
  injectedTotal &+= total
}
