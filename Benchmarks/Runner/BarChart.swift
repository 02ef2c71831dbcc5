import CogBenchCases
import Foundation

/// Horizontal SVG bar charts, one per family and metric: each system's value divided by the
/// reference system's (`cog`) for the same case, on a logarithmic axis centred on 1×, so that
/// 0.5× and 2× are the same length either side and an outlier (thousands of times) does not
/// flatten every other bar. Bars left of 1× are where Cog needs more. A family without the
/// reference system gets absolute values on a logarithmic axis.
enum BarChart {
  static let palette = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#9c755f",
  ]
  static let labelWidth = 260.0
  static let plotWidth = 460.0
  static let barHeight = 14.0

  struct Bar {
    var caseID: String
    var system: String
    /// The ratio (or absolute value); nil when it cannot be drawn (`note` says why).
    var value: Double?
    var note: String?
  }

  /// The chart of `metric` over `rows`, or nil when no row has a value for it.
  @MainActor
  static func svg(family: String, size: CaseSize, rows: [CaseResult], metric: Metric) -> (
    chart: String, caption: String
  )? {
    let measured = rows.filter { $0.notApplicable == nil }
    func value(_ r: CaseResult) -> Double? { r.value(metric)?.comparable }
    let cases = Array(Set(measured.map { $0.caseID })).sorted()
    let ref = SystemCatalog.referenceID
    let hasRef = cases.allSatisfy { c in
      measured.contains { $0.caseID == c && $0.system == ref && value($0) != nil }
    }
    let systems = Array(Set(measured.map { $0.system })).sorted().filter { !hasRef || $0 != ref }
    guard !cases.isEmpty, !systems.isEmpty else { return nil }
    var bars: [Bar] = []
    for c in cases {
      let refValue = measured.first { $0.caseID == c && $0.system == ref }.flatMap(value)
      for s in systems {
        guard let r = measured.first(where: { $0.caseID == c && $0.system == s }),
          let v = value(r)
        else { continue }
        if !hasRef {
          bars.append(Bar(caseID: c, system: s, value: v > 0 ? v : nil, note: v > 0 ? nil : "0"))
        } else if let rv = refValue, rv > 0, v > 0 {
          bars.append(Bar(caseID: c, system: s, value: v / rv))
        } else {
          bars.append(
            Bar(
              caseID: c, system: s, value: nil,
              note: refValue == 0 ? (v == 0 ? "both 0" : "\(fixed(v, 0)) vs cog 0") : "0"))
        }
      }
    }
    let values = bars.compactMap { $0.value }
    guard !values.isEmpty else { return nil }
    let unit = metric == .wallTime || metric == .cpuTime ? "median \(metric.unit)" : metric.unit
    let caption =
      hasRef
      ? "\(metric.rawValue) ÷ \(ref) (log scale; right of 1× = more than Cog, left = less)"
      : "\(metric.rawValue), \(unit) (log scale)"
    let axis = Axis(values: values, centredOnOne: hasRef)
    var y = 44.0
    var body: [String] = []
    for c in cases {
      body.append(text(8, y + 10, c, anchor: "start", weight: "bold"))
      y += 16
      for (k, s) in systems.enumerated() {
        guard let bar = bars.first(where: { $0.caseID == c && $0.system == s }) else { continue }
        body.append(text(labelWidth - 6, y + 11, s, anchor: "end"))
        if let v = bar.value {
          let x0 = axis.x(axis.origin)
          let x1 = axis.x(v)
          let left = min(x0, x1)
          let width = max(1, abs(x1 - x0))
          body.append(
            "<rect x=\"\(fixed(labelWidth + left, 1))\" y=\"\(fixed(y, 1))\" width=\"\(fixed(width, 1))\" height=\"\(barHeight)\" fill=\"\(palette[k % palette.count])\"/>"
          )
          let label = hasRef ? ratioLabel(v) : fixed(v, 0)
          let onRight = x1 >= x0
          body.append(
            text(
              labelWidth + (onRight ? left + width + 4 : left - 4), y + 11, label,
              anchor: onRight ? "start" : "end"))
        } else {
          body.append(
            text(labelWidth + axis.x(axis.origin) + 4, y + 11, bar.note ?? "", anchor: "start"))
        }
        y += barHeight + 3
      }
      y += 10
    }
    var grid: [String] = []
    for t in axis.ticks {
      let x = labelWidth + axis.x(t)
      let isOrigin = t == axis.origin
      grid.append(
        "<line x1=\"\(fixed(x, 1))\" y1=\"34\" x2=\"\(fixed(x, 1))\" y2=\"\(fixed(y, 1))\" stroke=\"\(isOrigin ? "#333" : "#ccc")\"\(isOrigin ? "" : " stroke-dasharray=\"2,3\"")/>"
      )
      grid.append(text(x, 32, hasRef ? ratioLabel(t) : compact(t), anchor: "middle"))
    }
    let width = labelWidth + plotWidth + 90
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(fixed(width, 0))" height="\(fixed(y + 10, 0))" font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      \(text(8, 16, "\(family) (\(size.rawValue)): \(caption)", anchor: "start", weight: "bold"))
      \(grid.joined(separator: "\n"))
      \(body.joined(separator: "\n"))
      </svg>

      """
    return (svg, caption)
  }

  /// A logarithmic axis over `plotWidth`: decades (with 2× and 5× steps when it spans less
  /// than two), always including 1× when centred on one (and at least 0.5× to 2×).
  struct Axis {
    var low: Double
    var high: Double
    var origin: Double
    var ticks: [Double]

    init(values: [Double], centredOnOne: Bool) {
      var lo = log10(values.min()!)
      var hi = log10(values.max()!)
      if centredOnOne {
        // 1× always inside, with at least 0.5× to 2× around it; no empty half when every
        // ratio lies on one side.
        lo = min(lo, -log10(2))
        hi = max(hi, log10(2))
        origin = 1
      } else {
        lo = floor(lo)
        hi = max(ceil(hi), lo + 1)
        origin = pow(10, lo)
      }
      low = lo - (hi - lo) * 0.02
      high = hi + (hi - lo) * 0.02
      let decades = Int(floor(lo))...Int(ceil(hi))
      var ticks: [Double] = []
      for d in decades {
        let base = pow(10, Double(d))
        let steps: [Double] = hi - lo < 2.1 ? [1, 2, 5] : [1]
        for s in steps {
          let t = base * s
          if log10(t) >= lo - 1e-9 && log10(t) <= hi + 1e-9 { ticks.append(t) }
        }
      }
      if centredOnOne && !ticks.contains(1) { ticks.append(1) }
      self.ticks = ticks.sorted()
    }

    func x(_ v: Double) -> Double {
      (log10(v) - low) / (high - low) * BarChart.plotWidth
    }
  }

  static func ratioLabel(_ r: Double) -> String {
    if r >= 100 { return fixed(r, 0) + "×" }
    if r >= 10 { return fixed(r, 1) + "×" }
    if r >= 0.1 { return fixed(r, 2) + "×" }
    if r >= 0.01 { return fixed(r, 3) + "×" }
    return fixed(r, 4) + "×"
  }

  /// 1500 → 1.5k, 2000000 → 2M.
  static func compact(_ v: Double) -> String {
    if v >= 1e9 { return fixed(v / 1e9, v >= 1e10 ? 0 : 1) + "G" }
    if v >= 1e6 { return fixed(v / 1e6, v >= 1e7 ? 0 : 1) + "M" }
    if v >= 1e3 { return fixed(v / 1e3, v >= 1e4 ? 0 : 1) + "k" }
    return fixed(v, v < 10 ? 1 : 0)
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
