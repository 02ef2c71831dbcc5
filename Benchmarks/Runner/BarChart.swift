import CogBenchCases

/// Simple horizontal SVG bar charts: one group per case, one bar per system.
enum BarChart {
  static let palette = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#9c755f",
  ]

  /// Instructions when the family has them, else median wall time; as a ratio to the
  /// reference system when it is present in every group, else absolute.
  @MainActor
  static func svg(family: String, size: CaseSize, rows: [CaseResult]) -> (
    chart: String, caption: String
  )? {
    let measured = rows.filter { $0.notApplicable == nil }
    let useInstructions = measured.contains { $0.value(.instructions)?.value != nil }
    let metric: Metric = useInstructions ? .instructions : .wallTime
    func value(_ r: CaseResult) -> Double? { r.value(metric)?.comparable }
    let cases = Array(Set(measured.map { $0.caseID })).sorted()
    let systems = Array(Set(measured.map { $0.system })).sorted()
    guard !cases.isEmpty, !systems.isEmpty else { return nil }
    let ref = SystemCatalog.referenceID
    let hasRef = cases.allSatisfy { c in
      measured.contains { $0.caseID == c && $0.system == ref && value($0) != nil }
    }
    var bars: [(String, String, Double)] = []
    for c in cases {
      let refValue = measured.first { $0.caseID == c && $0.system == ref }.flatMap(value)
      for s in systems {
        guard let r = measured.first(where: { $0.caseID == c && $0.system == s }), let v = value(r)
        else { continue }
        bars.append((c, s, hasRef ? (refValue! == 0 ? 0 : v / refValue!) : v))
      }
    }
    guard let top = bars.map({ $0.2 }).max(), top > 0 else { return nil }
    let caption =
      hasRef
      ? "\(metric.rawValue) relative to \(ref) (1.0 = \(ref))"
      : "\(metric.rawValue) (\(metric.unit))"
    let labelWidth = 260.0
    let plotWidth = 420.0
    let barHeight = 14.0
    let gap = 10.0
    var y = 40.0
    var body: [String] = []
    for c in cases {
      body.append(text(8, y + 10, c, anchor: "start", weight: "bold"))
      y += 16
      for (k, s) in systems.enumerated() {
        guard let bar = bars.first(where: { $0.0 == c && $0.1 == s }) else { continue }
        let w = max(1, bar.2 / top * plotWidth)
        body.append(text(labelWidth - 6, y + 11, s, anchor: "end"))
        body.append(
          "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(fixed(w, 1))\" height=\"\(barHeight)\" fill=\"\(palette[k % palette.count])\"/>"
        )
        let label = hasRef ? fixed(bar.2, 2) + "×" : fixed(bar.2, 0)
        body.append(text(labelWidth + w + 4, y + 11, label, anchor: "start"))
        y += barHeight + 3
      }
      y += gap
    }
    if hasRef {
      let x = labelWidth + 1 / top * plotWidth
      body.append(
        "<line x1=\"\(fixed(x, 1))\" y1=\"30\" x2=\"\(fixed(x, 1))\" y2=\"\(fixed(y, 1))\" stroke=\"#333\" stroke-dasharray=\"3,3\"/>"
      )
    }
    let width = labelWidth + plotWidth + 80
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(fixed(width, 0))" height="\(fixed(y + 10, 0))" font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      \(text(8, 20, "\(family) (\(size.rawValue)): \(caption)", anchor: "start", weight: "bold"))
      \(body.joined(separator: "\n"))
      </svg>

      """
    return (svg, caption)
  }

  static func text(_ x: Double, _ y: Double, _ s: String, anchor: String, weight: String = "normal")
    -> String
  {
    let escaped = s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
      of: "<", with: "&lt;"
    )
    .replacingOccurrences(of: ">", with: "&gt;")
    return
      "<text x=\"\(fixed(x, 1))\" y=\"\(fixed(y, 1))\" text-anchor=\"\(anchor)\" font-weight=\"\(weight)\">\(escaped)</text>"
  }
}
