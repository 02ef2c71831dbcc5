/// A time on a context's clock, in nanoseconds since the context was made: what `.cache`
/// retention keeps and compares after every turn.
///
/// One integer, not a `Duration`: a `Duration` is 128 bits, and the standard library's
/// subtraction of two takes a branch when the low word borrows, which it does when the time
/// crosses a multiple of 2⁶⁴ attoseconds (every 18.4 s). A turn's instructions then moved with
/// the time of day (`cog/cache-steady-turn` counted 64 more in one gate run:
/// impl/perf-notes.md, "Stop 55"). 64-bit nanoseconds hold 292 years.
@frozen
@usableFromInline package struct ContextTime: Comparable {
  @usableFromInline package var nanoseconds: Int64

  @inlinable package init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// `duration` in whole nanoseconds (toward zero), clamped to what `Int64` holds: a retention
  /// longer than 292 years is never reached, as it was not with `Duration`.
  @inlinable package init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, overflowSum) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflow || overflowSum {
      nanoseconds = seconds < 0 ? .min : .max
    } else {
      nanoseconds = sum
    }
  }

  @usableFromInline package static let zero = ContextTime(nanoseconds: 0)

  /// `self` plus `span`, clamped to `Int64`'s range (a deadline past it is never reached).
  @inlinable package func adding(_ span: ContextTime) -> ContextTime {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(span.nanoseconds)
    if overflow { return ContextTime(nanoseconds: span.nanoseconds < 0 ? .min : .max) }
    return ContextTime(nanoseconds: sum)
  }

  @inlinable package static func < (a: ContextTime, b: ContextTime) -> Bool {
    a.nanoseconds < b.nanoseconds
  }
}
