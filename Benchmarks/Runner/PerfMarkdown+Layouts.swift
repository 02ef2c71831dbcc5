import Foundation

/// The layout systems in the record (swift/0003-edge-layouts.md): the calibration of the
/// generic binding against `cog`, and what the committed profiles of the layout systems show.
extension PerfMarkdown {
  /// The systems that bind `cog`'s layouts through the workbench's layout binding, first
  /// match per case: the shared pool with generic references where the case reads keyed
  /// references (that variant runs only there), else the pool with inline references (a
  /// keyless case reads no reference, so its reference layout does not matter).
  static let calibrationIDs = ["cog[pool+typed]", "cog[pool+inline]"]
  /// Calibration tolerance: the layout binding must count within this of `cog` on every case.
  static let calibrationTolerance = 0.02

  static func layoutSection(_ current: [(String, ResultFile)], profiles: [String: ProfileFile])
    -> [String]
  {
    var md: [String] = []
    for (path, file) in current {
      let byCase = Dictionary(grouping: file.results) { $0.caseID }
      var rows: [(String, Int, Int, Double, String)] = []
      for caseID in byCase.keys.sorted() {
        let results = byCase[caseID]!
        guard
          let cog = results.first(where: { $0.system == SystemCatalog.referenceID })?
            .value(.instructions)?.value,
          let (id, bound) = calibrationIDs.lazy.compactMap({ id in
            results.first(where: { $0.system == id })?.value(.instructions)?.value.map { (id, $0) }
          }).first, cog > 0
        else { continue }
        rows.append((caseID, cog, bound, Double(bound) / Double(cog), id))
      }
      guard !rows.isEmpty else { continue }
      let worst = rows.map { abs($0.3 - 1) }.max() ?? 0
      let outside = rows.filter { abs($0.3 - 1) > calibrationTolerance }
      md.append("## Calibration: the layout binding against `cog` (\(file.size.rawValue))")
      md.append("")
      md.append(
        "`cog[pool+typed]` (on the keyed cases) and `cog[pool+inline]` (on the others, which "
          + "read no reference) bind the same layouts as `cog` (the shared pool, generic "
          + "references) through the workbench's layout binding instead of the public API. "
          + "Equal counts "
          + "show that the layout systems `cog[…]` measure their layouts, not their binding. "
          + "From `\(path)`: the largest difference is \(fixed(worst * 100, 2))% on "
          + "\(rows.count) cases; "
          + (outside.isEmpty
            ? "every case is within \(fixed(calibrationTolerance * 100, 0))%."
            : "\(outside.count) case(s) differ by more than "
              + "\(fixed(calibrationTolerance * 100, 0))%: "
              + outside.map { "`\($0.0)`" }.joined(separator: ", ") + "."))
      md.append("")
      md.append("| case | `cog` Ir | bound by | its Ir | ratio |")
      md.append("|---|---:|---|---:|---:|")
      for r in rows {
        md.append("| `\(r.0)` | \(r.1) | `\(r.4)` | \(r.2) | \(fixed(r.3, 4)) |")
      }
      md.append("")
    }
    let layoutProfiles = profiles.values
      .filter { SystemCatalog.runsCog($0.system) && $0.cache == nil }
      .sorted { ($0.system, $0.caseID, $0.date) < ($1.system, $1.caseID, $1.date) }
    // The newest profile per case × system.
    var newest: [String: ProfileFile] = [:]
    for p in layoutProfiles where (newest[p.id]?.date ?? "") < p.date { newest[p.id] = p }
    if !newest.isEmpty {
      md.append("## Specialization of the layouts (profiles)")
      md.append("")
      md.append(
        "Each committed profile (`Results/profiles/`, written by `cog-bench profile`) lists the "
          + "heaviest functions of one case on one system. In a fully specialized binary none of "
          + "them is a retain, release, allocation, generic-metadata or witness-table function; "
          + "this table says which of those each profile's listed functions contain.")
      md.append("")
      md.append(
        "| profile | commit | functions listed | retain, release, allocation, metadata or witness |"
      )
      md.append("|---|---|---:|---|")
      let suspects = [
        "swift_retain", "swift_release", "swift_allocObject", "malloc", "GenericMetadata",
        "getGenericMetadata", "witness", "swift_dynamicCast",
      ]
      for p in newest.values.sorted(by: { $0.id < $1.id }) {
        let hits = p.functions.filter { f in suspects.contains { f.function.contains($0) } }
        let found =
          hits.isEmpty
          ? "none"
          : hits.map { "`\(escape(String($0.function.prefix(60))))` (\(fixed($0.share, 2))%)" }
            .joined(separator: ", ")
        md.append(
          "| `\(p.id)` (\(p.size.rawValue)) | \(p.commit.prefix(12)) | \(p.functions.count) | \(found) |"
        )
      }
      md.append("")
    }
    return md
  }
}
