/// The record's cache-miss attribution: each committed cache profile (`cog-bench profile
/// --cache`), the functions of one sample ranked by the misses they cause in the simulated
/// caches. Nothing is rendered when no cache profile is committed.
extension PerfMarkdown {
  static func cacheProfileSection(_ profiles: [String: ProfileFile]) -> [String] {
    let cacheProfiles = profiles.values.filter { $0.cache != nil }
      .sorted {
        ($0.caseID, $0.system, $0.cache!.geometry) < ($1.caseID, $1.system, $1.cache!.geometry)
      }
    guard !cacheProfiles.isEmpty else { return [] }
    var md = ["## Cache-miss attribution (profiles)", ""]
    md.append(
      "Each committed cache profile (`Results/profiles/*-cache-*.json`, written by `cog-bench "
        + "profile <case> --cache-last-level BYTES`) runs one sample under callgrind's cache "
        + "simulator and charges every miss to the function whose instruction missed: a body's "
        + "load of its captured data is the body's, the turn's load of a row's behavior object "
        + "the turn's. Misses count reads and writes; LL is the simulated last level named in "
        + "each heading.")
    md.append("")
    for p in cacheProfiles {
      let c = p.cache!
      md.append(
        "### \(p.id) (\(p.size.rawValue)), \(c.geometry): \(c.llMisses) LL misses, "
          + "\(c.d1Misses) D1 misses, \(c.dataAccesses) data accesses, \(p.totalInstructions) Ir "
          + "for \(p.iterationsPerSample) iterations; commit \(p.commit.prefix(12)), \(p.date)")
      md.append("")
      md.append("| LL misses | share | D1 misses | data accesses | Ir | function |")
      md.append("|---:|---:|---:|---:|---:|---|")
      for f in p.functions.prefix(10) {
        let ll = f.llMisses ?? 0
        let share = c.llMisses > 0 ? Double(ll) * 100 / Double(c.llMisses) : 0
        md.append(
          "| \(ll) | \(fixed(share, 1))% | \(f.d1Misses ?? 0) | \(f.dataAccesses ?? 0) | "
            + "\(f.instructions) | `\(escape(String(f.function.prefix(140))))` |")
      }
      md.append("")
    }
    return md
  }
}
