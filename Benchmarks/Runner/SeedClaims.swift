/// Data, not code: what seed 000 reports of its own M6 comparison, quoted, and which
/// measured numbers of `scripts/compare.sh m6` the record sets beside each claim
/// (`M6Model.findings`). A claim changes here only when the seed does.
struct SeedClaim {
  /// What the record measures for the claim.
  enum Check {
    /// The edge layout with the fewest instructions on the stable cases, in geometric mean.
    case fewestOnStableCases
    /// Per churn case: the fewest instructions, and prefix arrays against the pool.
    case churnCases(prefixVariant: String)
    /// The overflow layout's geometric mean and the cases it wins by more than 1%.
    case inlineOverflowWins
    /// A reference layout on the keyed cases: instructions, `diamondCase`, wall time on
    /// `churnCase`, each against the inline references.
    case referenceLayout(variant: String, diamondCase: String, churnCase: String)
  }

  /// Where in seed 000 (`../shared/seeds/000_*.txt`).
  let section: String
  /// The seed's words, shortened only.
  let text: String
  let check: Check
}

extension SeedClaim {
  static let m6: [SeedClaim] = [
    SeedClaim(
      section: "§3.3",
      text: "the shared pool used the fewest instructions for mostly stable dependencies",
      check: .fewestOnStableCases),
    SeedClaim(
      section: "§3.3",
      text: "prefix arrays used fewer instructions under high churn, with no wall-time gain and "
        + "extra ARC work",
      check: .churnCases(prefixVariant: "cog[prefix+inline]")),
    SeedClaim(
      section: "§3.3", text: "inline storage won neither", check: .inlineOverflowWins),
    SeedClaim(
      section: "§4",
      text: "interning saved about 2% of instructions but made churn 4% slower",
      check: .referenceLayout(
        variant: "cog[pool+interned]", diamondCase: "cog/keyed-diamond",
        churnCase: "cog/key-churn")),
    SeedClaim(
      section: "§4", text: "the generic form was 6% slower on the keyed diamond",
      check: .referenceLayout(
        variant: "cog[pool+typed]", diamondCase: "cog/keyed-diamond", churnCase: "cog/key-churn")),
  ]
}
