/// What a run lacks against the record: the guard that keeps a run taken on a machine without
/// valgrind, or cut short by a deadline, from replacing a record that has those counters.
extension ResultFile {
  struct MissingCounter: Equatable {
    var metric: String
    /// Regions (case × system) where the record has the counter and this run does not.
    var regions: Int
    /// Regions where the record has it.
    var of: Int
    /// The first reason this run gives (its `unavailable` text), or "not measured".
    var reason: String
  }

  /// Per metric, the regions where `record` has a value (a count or a time) and this run,
  /// which measured the same region, has none. Regions this run does not have (a case or
  /// system that is gone) or that are not applicable in it are not counted: they are changes
  /// of the suite, not lost counters.
  func missingCounters(comparedWith record: ResultFile) -> [MissingCounter] {
    let mine = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var missing: [String: MissingCounter] = [:]
    for r in record.results where r.notApplicable == nil {
      guard let other = mine[r.id], other.notApplicable == nil else { continue }
      for (name, v) in r.metrics where v.value != nil || v.median != nil {
        var entry = missing[name] ?? MissingCounter(metric: name, regions: 0, of: 0, reason: "")
        entry.of += 1
        let theirs = other.metrics[name]
        if theirs?.value == nil && theirs?.median == nil {
          entry.regions += 1
          if entry.reason.isEmpty { entry.reason = theirs?.unavailable ?? "not measured" }
        }
        missing[name] = entry
      }
    }
    return missing.values.filter { $0.regions > 0 }.sorted { $0.metric < $1.metric }
  }
}
