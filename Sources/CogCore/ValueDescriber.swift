/// How a value type is described for explanations and inspection (`String(describing:)`'s
/// text), with the type's conformance found once per process. `String(describing:)` casts
/// each value to the printing protocols, and each cast looks up the runtime's conformance
/// cache, whose probe length depends on what else the binary registered: with it, explained
/// turns cost a different number of instructions in two builds of one commit (swift/0009).
@MainActor
@usableFromInline
final class ValueDescriber<Value> {
  let describe: (Value) -> String

  init(_ describe: @escaping (Value) -> String) { self.describe = describe }

  /// Value's describer, made on its first use and kept by the registry for the process.
  static var shared: ValueDescriber<Value> {
    Registry.shared(for: Value.self) { ValueDescriber(make()) }.takeUnretainedValue()
  }

  /// `String(describing:)`'s choice, made for the type instead of each value: an optional is
  /// printed as it is; then `TextOutputStreamable`, `CustomStringConvertible`, and the rest.
  static func make() -> (Value) -> String {
    if _isOptional(Value.self) { return { String(describing: $0) } }
    if let t = Value.self as? any TextOutputStreamable.Type { return streamed(t) }
    if let t = Value.self as? any CustomStringConvertible.Type { return described(t) }
    return { String(describing: $0) }
  }

  static func streamed<T: TextOutputStreamable>(_: T.Type) -> (Value) -> String {
    { value in
      var text = ""
      // Safety: T is Value (found by the metatype cast in `make`): an identity cast.
      unsafeBitCast(value, to: T.self).write(to: &text)
      return text
    }
  }

  static func described<T: CustomStringConvertible>(_: T.Type) -> (Value) -> String {
    // Safety: T is Value (found by the metatype cast in `make`): an identity cast.
    { value in unsafeBitCast(value, to: T.self).description }
  }
}

/// A type's name as a label shows it (`Int`, `Array<String>`): `_typeName` directly, since
/// interpolating a metatype casts it to the printing protocols first (see `ValueDescriber`).
@inlinable package func typeName(_ type: Any.Type) -> String { _typeName(type, qualified: false) }

/// The label of a keyless state declared without one: `Cog<Value>#id` (its descriptor's,
/// `KeylessState.label(id:)`, and its row's when the row does not hold the descriptor,
/// `Graph.defaultLabel`).
@usableFromInline package func unlabeledCogLabel(typeName: String, id: Int32) -> String {
  "Cog<\(typeName)>#\(id)"
}
