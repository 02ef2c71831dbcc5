import CogBenchSystems

/// swift-state-graph itself, as issue 17 measured it: the figures the object-graph model
/// (`Benchmarks/Baselines/ObjectGraph`, system `object-graph`) is held to.
///
/// The library does not build on Linux unmodified, so the issue measured a local Linux port
/// (Apple-only imports guarded, a pthread stand-in for `OSAllocatedUnfairLock`, no macros;
/// graph logic untouched; see `research/baselines.md` §1) beside the model as it was then, on
/// the Kairo shapes with every sink read after each write: the `sinks/*` cases' shape of work.
/// The port is not part of this repository, so its figures are quoted here, not measured by
/// the workbench; the record says so where it shows them.
///
/// Swift-state-graph's allocations per node are not quoted as counts but as a ratio to the
/// model of that time; the record multiplies the ratio by that model's allocations per node,
/// measured by the workbench on the same cases in `modelThenResult` (whose instructions per
/// node reproduce the model column, which the record shows as a check of the shape).
enum StateGraphReference {
  /// The system that models swift-state-graph.
  static var modelID: String { ObjectGraphSystem.id }
  /// How far the model may be from swift-state-graph, either way, and still stand for it.
  static let tolerance = 1.3
  /// The committed result file of the model as issue 17 measured it (commit a535c3b: the
  /// `sinks/*` cases, the model unchanged).
  static let modelThenResult = "Results/runs/20261201T100934Z-quick-a535c3bf7b.json"

  struct Shape {
    /// The name for it.
    var name: String
    var caseID: String
    /// swift-state-graph's instructions per recomputed node.
    var instructionsPerNode: Double
    /// The model's, as the issue measured it then.
    var modelThenInstructionsPerNode: Double
    /// swift-state-graph's allocations ÷ the model's then, per recomputed node.
    var allocationRatio: Double
  }

  /// Issue 17's table, in its order.
  static let shapes: [Shape] = [
    Shape(
      name: "deep", caseID: "sinks/deep", instructionsPerNode: 98_186,
      modelThenInstructionsPerNode: 32_917, allocationRatio: 2.5),
    Shape(
      name: "broad", caseID: "sinks/broad", instructionsPerNode: 108_936,
      modelThenInstructionsPerNode: 37_262, allocationRatio: 2.5),
    Shape(
      name: "diamond", caseID: "sinks/diamond", instructionsPerNode: 127_611,
      modelThenInstructionsPerNode: 48_878, allocationRatio: 2.2),
    Shape(
      name: "triangle", caseID: "sinks/triangle", instructionsPerNode: 135_270,
      modelThenInstructionsPerNode: 55_319, allocationRatio: 2.2),
    Shape(
      name: "fan-out 1 → 1000", caseID: "sinks/fan-out", instructionsPerNode: 270_938,
      modelThenInstructionsPerNode: 192_832, allocationRatio: 2.5),
  ]
}

/// How a result file's object-graph model compares with swift-state-graph, shape by shape.
struct ModelFidelity {
  struct Row {
    var shape: StateGraphReference.Shape
    /// The model's per-node figures in this result file (nil: not measured).
    var instructions: Double?
    var allocations: Double?
    /// The model of issue 17's time, per node, from `modelThenResult`.
    var thenInstructions: Double?
    var thenAllocations: Double?

    /// swift-state-graph's allocations per node: the ratio × the model's then.
    var referenceAllocations: Double? { thenAllocations.map { $0 * shape.allocationRatio } }
    /// swift-state-graph ÷ model.
    var instructionFactor: Double? { instructions.map { shape.instructionsPerNode / $0 } }
    var allocationFactor: Double? {
      guard let a = allocations, let r = referenceAllocations else { return nil }
      return r / a
    }
  }

  /// What the model's comparisons with Cog in this file say about swift-state-graph.
  enum Verdict: Equatable {
    /// Every shape within the tolerance in instructions and allocations.
    case faithful
    /// swift-state-graph costs more than the model by more than the tolerance somewhere (and
    /// nowhere less): the model's figures are a lower bound; `factor` is the largest
    /// swift-state-graph ÷ model.
    case lowerBound(factor: Double)
    /// The model costs more than swift-state-graph by more than the tolerance somewhere (and
    /// nowhere less): an upper bound; `factor` is the largest model ÷ swift-state-graph.
    case upperBound(factor: Double)
    /// Outside the tolerance both ways: neither bound.
    case neither(low: Double, high: Double)
    /// Not every shape was measured on the model in this file.
    case unverified(String)
  }

  var rows: [Row]
  var verdict: Verdict
  /// Why the model-then figures are missing, if they are.
  var thenUnavailable: String?

  /// The per-node figures of `file`, checked against issue 17's.
  init(_ file: ResultFile) {
    var then: ResultFile?
    do {
      then = try ResultFile.read(StateGraphReference.modelThenResult)
    } catch let error as BenchError {
      thenUnavailable = error.message
    } catch {
      thenUnavailable = "\(error)"
    }
    let model = StateGraphReference.modelID
    rows = StateGraphReference.shapes.map { shape in
      let now = file.result(shape.caseID, model)
      let old = then?.result(shape.caseID, model)
      return Row(
        shape: shape, instructions: now.flatMap { Self.perNode($0, .instructions) },
        allocations: now.flatMap { Self.perNode($0, .allocations) },
        thenInstructions: old.flatMap { Self.perNode($0, .instructions) },
        thenAllocations: old.flatMap { Self.perNode($0, .allocations) })
    }
    verdict = Self.judge(rows, thenUnavailable: thenUnavailable)
  }

  /// A counted sample's `metric` ÷ the computeds it reran (updates per sample × the case's
  /// declared reruns per update); nil when not measured, failed or not declared.
  static func perNode(_ r: CaseResult, _ metric: Metric) -> Double? {
    guard r.notApplicable == nil, r.checks.passed, let reruns = r.recomputesPerIteration,
      reruns > 0, let value = r.value(metric)?.value
    else { return nil }
    return Double(value) / Double(reruns * max(r.iterationsPerSample, 1))
  }

  static func judge(_ rows: [Row], thenUnavailable: String?) -> Verdict {
    var factors: [Double] = []
    for row in rows {
      guard let i = row.instructionFactor else {
        return .unverified(
          "`\(row.shape.caseID)@\(StateGraphReference.modelID)` has no instructions or failed "
            + "its checks in this result file")
      }
      guard let a = row.allocationFactor else {
        if let thenUnavailable {
          return .unverified("the model-then allocations are unavailable: \(thenUnavailable)")
        }
        return .unverified(
          "`\(row.shape.caseID)@\(StateGraphReference.modelID)` has no allocations here or in "
            + "`\(StateGraphReference.modelThenResult)`")
      }
      factors += [i, a]
    }
    let t = StateGraphReference.tolerance
    let high = factors.max()!
    let low = factors.min()!
    switch (high > t, low < 1 / t) {
    case (false, false): return .faithful
    case (true, false): return .lowerBound(factor: high)
    case (false, true): return .upperBound(factor: 1 / low)
    case (true, true): return .neither(low: low, high: high)
    }
  }

  /// A ratio of the model to Cog as the record shows it: "at least …" for a lower bound, "at
  /// most …" for an upper bound, unchanged otherwise (the footnote says why) or when missing.
  func label(_ ratio: String) -> String {
    guard ratio != "–" else { return ratio }
    switch verdict {
    case .lowerBound: return "at least " + ratio
    case .upperBound: return "at most " + ratio
    case .faithful, .neither, .unverified: return ratio
    }
  }

  /// One sentence on what the model's figures in this file stand for.
  var summary: String {
    let t = fixed(StateGraphReference.tolerance, 1)
    let model = "`\(StateGraphReference.modelID)`"
    switch verdict {
    case .faithful:
      return
        "\(model) is within \(t)× of swift-state-graph per recomputed node, in instructions "
        + "and allocations, on every shape issue 17 measured: its comparisons with Cog stand "
        + "for swift-state-graph's within that factor (on those shapes; other cases share the "
        + "model's structure but were not measured on the library)."
    case .lowerBound(let f):
      return
        "\(model) is a lower bound of swift-state-graph: on the shapes issue 17 measured, "
        + "swift-state-graph costs up to \(fixed(f, 2))× the model per recomputed node. Read "
        + "every comparison of \(model) with Cog as at least: swift-state-graph's ratio is at "
        + "least the model's, and measured up to \(fixed(f, 2))× higher."
    case .upperBound(let f):
      return
        "\(model) overstates swift-state-graph: on the shapes issue 17 measured, the model "
        + "costs up to \(fixed(f, 2))× swift-state-graph per recomputed node. Read every "
        + "comparison of \(model) with Cog as at most: swift-state-graph's ratio is at most "
        + "the model's, and measured up to \(fixed(f, 2))× lower."
    case .neither(let low, let high):
      return
        "\(model) is not within \(t)× of swift-state-graph either way: swift-state-graph ÷ "
        + "model ranges from \(fixed(low, 2))× to \(fixed(high, 2))× over the shapes issue 17 "
        + "measured, so its comparisons with Cog bound swift-state-graph's neither way."
    case .unverified(let why):
      return
        "\(model)'s fidelity to swift-state-graph is not checked in this result file (\(why)); "
        + "its comparisons with Cog say nothing about swift-state-graph until it is."
    }
  }
}
