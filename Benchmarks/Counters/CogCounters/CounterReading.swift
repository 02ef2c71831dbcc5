/// One counter's value for one measured region, or why the counter could not run.
///
/// A counter that cannot run on this machine or build is `.unavailable(reason)`, never 0.
public enum CounterReading: Equatable, Sendable {
  case available(Int)
  case unavailable(String)

  /// The value when available.
  public var value: Int? {
    if case .available(let v) = self { return v }
    return nil
  }

  /// The reason when unavailable.
  public var unavailableReason: String? {
    if case .unavailable(let r) = self { return r }
    return nil
  }
}

extension CounterReading: Codable {
  private enum CodingKeys: String, CodingKey { case value, unavailable }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if let v = try c.decodeIfPresent(Int.self, forKey: .value) {
      self = .available(v)
    } else if let r = try c.decodeIfPresent(String.self, forKey: .unavailable) {
      self = .unavailable(r)
    } else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: c.codingPath, debugDescription: "a reading needs `value` or `unavailable`"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .available(let v): try c.encode(v, forKey: .value)
    case .unavailable(let r): try c.encode(r, forKey: .unavailable)
    }
  }
}

/// Whether a counter can run, decided once when its producer is created.
public enum CounterAvailability: Equatable, Sendable {
  case available
  case unavailable(String)

  /// `reading` when available, otherwise the unavailability carried over.
  @inlinable
  public func reading(_ value: @autoclosure () -> Int) -> CounterReading {
    switch self {
    case .available: return .available(value())
    case .unavailable(let reason): return .unavailable(reason)
    }
  }
}
