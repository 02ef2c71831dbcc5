import Observation

/// A stand-in for a SwiftUI view: `render` runs its body under `withObservationTracking`, as
/// SwiftUI does, and records what it showed; an `onChange` counts as an invalidation (SwiftUI
/// would schedule a new render). `tearDown` models the view going away: Observation offers no
/// way to drop a registration, so the view only stops rendering and ignores later notices.
@MainActor
final class FakeView<Value> {
  let body: @MainActor () -> Value
  private(set) var shown: [Value] = []
  let notices = NoticeCounter()
  private(set) var isTornDown = false

  init(_ body: @escaping @MainActor () -> Value) { self.body = body }

  /// Renders the body and arms the tracking for the next change.
  func render() {
    let counter = notices
    let value = withObservationTracking {
      body()
    } onChange: {
      counter.hit()
    }
    shown.append(value)
  }

  /// Re-renders if a notice arrived since the last render (SwiftUI's invalidation).
  func renderIfInvalidated(since last: inout Int) {
    if isTornDown || notices.count == last { return }
    last = notices.count
    render()
  }

  func tearDown() { isTornDown = true }
}

/// Counts `onChange` calls; Observation calls it synchronously inside the notifying mutation,
/// on the main actor here, but types it `@Sendable`.
final class NoticeCounter: @unchecked Sendable {
  private(set) var count = 0
  /// What ran in the `onChange`s, for order checks.
  var onHit: (() -> Void)?
  func hit() {
    count += 1
    onHit?()
  }
}
