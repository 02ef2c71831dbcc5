/// A derived value without memoization: `value` runs `body` on every read, like a computed
/// property of an `@Observable` model. Reads made by `body` are tracked by the enclosing
/// `withObservationTracking`, if any.
public final class ObservedDerived<Value>: @unchecked Sendable {
  let body: () -> Value
  /// How many times `body` ran (= how many times `value` was read).
  public private(set) var runCount = 0

  public init(_ body: @escaping () -> Value) {
    self.body = body
  }

  public var value: Value {
    runCount += 1
    return body()
  }
}
