import CogVariants
import Foundation

/// The numbers of the record's M6 section, computed from one result file of
/// `scripts/compare.sh m6` before any prose is written (`PerfMarkdown.m6Section` writes it).
/// Ratios are `nil` where a side was not measured.
@MainActor
struct M6Model {
  struct VariantRow {
    let id: String
    let measuredCases: Int
    /// Geometric means of instructions × `base` on the stable and the churn cases.
    let irStable: Double?
    let irChurn: Double?
    /// Geometric mean of wall time × `ref` over the cases the variant measured.
    let wall: Double?
    /// `steadyCase`'s allocations, retains, releases.
    let steady: [Double?]
    let refAllocations: Double?
    let bytesPerRow: Double?
  }

  struct CaseCell {
    let instructions: Double?
    /// × `base` (not for the base itself).
    let ratio: Double?
    let perRecomputedRow: Double?
  }

  struct FocusRow {
    let caseID: String
    let variant: String
    let ir: Double?
    let wall: Double?
    /// Allocations, retains, releases.
    let arc: [Double?]
    let graphBytes: Double?
  }

  /// A seed claim (`SeedClaim.m6`) and what this file measured for it.
  enum Finding {
    case fewestOnStable(SeedClaim, best: String, means: [(String, Double)])
    case churnCase(String, best: String, prefixIr: Double?, prefixWall: Double?)
    case churnClaim(SeedClaim)
    case overflow(SeedClaim, variant: String, mean: Double, wins: [String])
    case referenceLayout(SeedClaim, ReferenceLayoutFinding)
  }

  /// A reference layout against the inline references: instructions on the keyed cases
  /// (geometric mean) and on `diamondCase`, wall time on `churnCase`.
  struct ReferenceLayoutFinding {
    let variant: String
    let diamondCase: String
    let churnCase: String
    let onKeyed: Double?
    let diamond: Double?
    let churnWall: Double?
  }

  /// The variants, in table order: the registered ones (`Variants.all`); the first is the
  /// baseline of the instruction ratios (the layouts `cog` binds, through the layout binding).
  static let registered = Variants.all.map { $0.id }
  /// Cases whose dependencies or keys change every iteration: where prefix arrays are said to
  /// win (seed 000 §3.3) and where interning is said to cost (§4).
  static let churnCases = [
    "cog/key-churn", "cog/keyed-switch", "cog/dependency-churn", "kairo/unstable",
    "dynamic/6-100x15-dyn50",
  ]
  /// Where bytes per row are read: a 1,001-row graph (100 signals, 900 computeds reading 2
  /// each, one effect reading 100: 1,900 edges).
  static let memoryCase = (id: "cog/peak-memory-1000", rows: 1001, edges: 1900)
  static let steadyCase = "cog/steady-turn"
  static let refCreationCase = "cog/box-ref-creation"

  let path: String
  let file: ResultFile
  /// The instruction ratios' denominator (the first registered variant).
  let base: String
  /// The wall-time ratios' denominator (`cog`, measured in the same run).
  let ref: String
  let variants: [String]
  let missing: [String]
  let cases: [String]
  let failed: [String]
  let perVariant: [VariantRow]
  let perCase: [(id: String, cells: [CaseCell])]
  /// The churn cases and the keyed ones (those a reference layout measured).
  let focusCases: [String]
  let focus: [FocusRow]
  let findings: [Finding]

  init(path: String, file: ResultFile) {
    self.path = path
    self.file = file
    let ref = SystemCatalog.referenceID
    let base = Self.registered[0]
    self.ref = ref
    self.base = base
    let byKey = Dictionary(
      file.results.filter { $0.notApplicable == nil }.map { ("\($0.caseID)@\($0.system)", $0) },
      uniquingKeysWith: { a, _ in a })
    func r(_ c: String, _ s: String) -> CaseResult? { byKey["\(c)@\(s)"] }
    func count(_ c: String, _ s: String, _ m: Metric) -> Double? {
      r(c, s)?.value(m)?.value.map(Double.init)
    }
    func wall(_ c: String, _ s: String) -> Double? { r(c, s)?.value(.wallTime)?.median }
    func ratio(_ a: Double?, _ b: Double?) -> Double? {
      guard let a, let b, b > 0 else { return nil }
      return a / b
    }
    let variants = Self.registered.filter { v in file.results.contains { $0.system == v } }
    let cases = Array(Set(file.results.map { $0.caseID })).sorted()
    self.variants = variants
    self.missing = Self.registered.filter { !variants.contains($0) }
    self.cases = cases
    self.failed = file.results.filter { !$0.checks.passed && $0.notApplicable == nil }.map(\.id)

    func irRatios(_ v: String, _ subset: [String]) -> [Double] {
      subset.compactMap { ratio(count($0, v, .instructions), count($0, base, .instructions)) }
    }
    func wallRatios(_ v: String, _ subset: [String]) -> [Double] {
      subset.compactMap { ratio(wall($0, v), wall($0, ref)) }
    }
    let stable = cases.filter { !Self.churnCases.contains($0) }
    perVariant = variants.map { v in
      let measured = cases.filter { r($0, v) != nil }
      return VariantRow(
        id: v, measuredCases: measured.count,
        irStable: Self.geomean(irRatios(v, stable)),
        irChurn: Self.geomean(irRatios(v, Self.churnCases)),
        wall: Self.geomean(wallRatios(v, measured)),
        steady: [Metric.allocations, .retains, .releases].map { count(Self.steadyCase, v, $0) },
        refAllocations: count(Self.refCreationCase, v, .allocations),
        bytesPerRow: count(Self.memoryCase.id, v, .graphBytes).map {
          $0 / Double(Self.memoryCase.rows)
        })
    }
    perCase = cases.map { c in
      (
        c,
        variants.map { v in
          let x = count(c, v, .instructions)
          var perRow: Double?
          if let x, let res = r(c, v), let n = res.recomputesPerIteration, n > 0 {
            perRow = x / Double(n * max(res.iterationsPerSample, 1))
          }
          return CaseCell(
            instructions: x, ratio: v == base ? nil : ratio(x, count(c, base, .instructions)),
            perRecomputedRow: perRow)
        }
      )
    }

    // The reference layouts are the variants that are not edge layouts with inline
    // references; a case one of them measured is keyed.
    let edgeVariants = variants.filter { $0.hasSuffix("+inline]") }
    let keyed = cases.filter { c in
      variants.contains { !$0.hasSuffix("+inline]") && r(c, $0) != nil }
    }
    focusCases = Array(Set(Self.churnCases + keyed)).sorted().filter { cases.contains($0) }
    focus = focusCases.flatMap { c in
      variants.filter { r(c, $0) != nil }.map { v in
        FocusRow(
          caseID: c, variant: v,
          ir: ratio(count(c, v, .instructions), count(c, base, .instructions)),
          wall: ratio(wall(c, v), wall(c, ref)),
          arc: [Metric.allocations, .retains, .releases].map { count(c, v, $0) },
          graphBytes: count(c, v, .graphBytes))
      }
    }

    var findings: [Finding] = []
    for claim in SeedClaim.m6 {
      switch claim.check {
      case .fewestOnStableCases:
        let means = edgeVariants.compactMap { v in
          Self.geomean(irRatios(v, stable)).map { (v, $0) }
        }
        if let best = means.min(by: { $0.1 < $1.1 }) {
          findings.append(.fewestOnStable(claim, best: best.0, means: means))
        }
      case .churnCases(let prefix):
        for c in Self.churnCases where edgeVariants.contains(where: { r(c, $0) != nil }) {
          let ir = edgeVariants.compactMap { v in count(c, v, .instructions).map { (v, $0) } }
          guard let best = ir.min(by: { $0.1 < $1.1 }) else { continue }
          findings.append(
            .churnCase(
              c, best: best.0,
              prefixIr: ratio(count(c, prefix, .instructions), count(c, base, .instructions)),
              prefixWall: ratio(wall(c, prefix), wall(c, base))))
        }
        findings.append(.churnClaim(claim))
      case .inlineOverflowWins:
        let means = edgeVariants.compactMap { v in
          Self.geomean(irRatios(v, cases)).map { (v, $0) }
        }
        guard let overflow = means.first(where: { $0.0.hasPrefix("cog[overflow") }) else {
          continue
        }
        let wins = cases.filter { c in
          guard let o = count(c, overflow.0, .instructions) else { return false }
          // A win is fewer instructions than every other edge layout by more than 1%.
          return edgeVariants.allSatisfy { v in
            v == overflow.0 || (count(c, v, .instructions) ?? .infinity) > o * 1.01
          }
        }
        findings.append(.overflow(claim, variant: overflow.0, mean: overflow.1, wins: wins))
      case .referenceLayout(let v, let diamondCase, let churnCase):
        guard variants.contains(v) else { continue }
        findings.append(
          .referenceLayout(
            claim,
            ReferenceLayoutFinding(
              variant: v, diamondCase: diamondCase, churnCase: churnCase,
              onKeyed: Self.geomean(irRatios(v, keyed)),
              diamond: ratio(
                count(diamondCase, v, .instructions), count(diamondCase, base, .instructions)),
              churnWall: ratio(wall(churnCase, v), wall(churnCase, base)))))
      }
    }
    self.findings = findings
  }

  static func geomean(_ ratios: [Double]) -> Double? {
    let usable = ratios.filter { $0 > 0 && $0.isFinite }
    guard !usable.isEmpty else { return nil }
    return exp(usable.map { log($0) }.reduce(0, +) / Double(usable.count))
  }
}
