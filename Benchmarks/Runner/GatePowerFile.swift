import CogBenchCases
import Foundation

/// What `cog-bench gate-power` measured of the gate: its false alarms on the same binary
/// (an A/A series) and which injected regressions `check` caught. Versioned JSON, written to
/// `Results/gate-power/`; the record's "Gate power" renders the newest.
struct GatePowerFile: Codable, SideRecordFile {
  static let currentSchema = 1
  static let kind = "gate-power"
  var schema: Int
  var date: String
  var size: CaseSize
  var commit: String
  var dirty: Bool
  var toolchain: String
  var configuration: String
  var cases: [String]
  var metrics: [String]
  var aa: AASeries
  var injections: [InjectionOutcome]

  /// The same binary measured `runs` times on `cog`; each run after the first checked against
  /// thresholds taken from the first.
  struct AASeries: Codable {
    var runs: Int
    var checks: Int
    /// Checks that did not exit 0.
    var falseAlarms: Int
    /// Their REGRESSION / IMPROVEMENT lines (at most 20).
    var alarms: [String]
  }

  /// One injected regression on one case (system `injected`), checked against thresholds
  /// from the same system without injection.
  struct InjectionOutcome: Codable {
    /// `instructions`, `allocation` or `retain`.
    var kind: String
    var caseID: String
    /// The share of the case's instructions aimed at (instructions only).
    var targetPercent: Double?
    /// Loop iterations injected per iteration (instructions only).
    var loop: Int?
    /// The injected metric's count without and with the injection.
    var baseline: Int?
    var measured: Int?
    /// `check` exited 2 with a regression of the injected metric on the case.
    var caught: Bool
    var exitCode: Int32

    var measuredPercent: Double? {
      guard let baseline, let measured, baseline > 0 else { return nil }
      return Double(measured - baseline) * 100 / Double(baseline)
    }
  }
}
