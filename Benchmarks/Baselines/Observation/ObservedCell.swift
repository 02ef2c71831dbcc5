import Observation

/// One source: an `@Observable` model with a single stored property.
@Observable
public final class ObservedCell<Value>: @unchecked Sendable {
  public var value: Value
  @ObservationIgnored public let equals: (Value, Value) -> Bool

  public init(_ value: Value, equals: @escaping (Value, Value) -> Bool) {
    self.value = value
    self.equals = equals
  }

  /// Writes only an unequal value (an equal write would still notify observers).
  public func set(_ newValue: Value) {
    if !equals(value, newValue) { value = newValue }
  }
}

extension ObservedCell where Value: Equatable {
  public convenience init(_ value: Value) {
    self.init(value, equals: ==)
  }
}
