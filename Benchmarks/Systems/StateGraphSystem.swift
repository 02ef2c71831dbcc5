import Foundation

/// swift-state-graph (VergeGroup/swift-state-graph) as a measured system: not built here.
///
/// The library does not compile on Linux unmodified (Combine, `os`, `Foundation.NSLock`), and
/// its macro target needs swift-syntax, which this workbench cannot fetch. A measurement needs
/// a local Linux port (see swift/Benchmarks/baselines.md) that must never be committed; until an
/// adapter compiled against such a checkout exists, the runner reports the system as
/// unavailable with `unavailableReason`. `CogObjectGraph` models its cost structure meanwhile.
public enum StateGraphSystem {
  public static let id = "state-graph"
  /// The environment variable naming the local, Linux-ported checkout.
  public static let checkoutVariable = "COG_STATE_GRAPH_PATH"

  /// Why the system cannot be measured in this build (never nil in this build: the adapter is
  /// not compiled in).
  public static var unavailableReason: String {
    let path = ProcessInfo.processInfo.environment[checkoutVariable] ?? ""
    if path.isEmpty {
      return "unavailable: set \(checkoutVariable) to a local Linux-ported checkout "
        + "(see swift/Benchmarks/baselines.md)"
    }
    return "unavailable: \(checkoutVariable)=\(path) is set, but this build has no "
      + "state-graph adapter (the port stays local and is not part of the package)"
  }
}
