import CogCore
import CogEdgePool
import CogTypedKey

extension Cogs {
  /// UI reads: what a SwiftUI view's `body` (or any code running under Observation tracking:
  /// `withObservationTracking`, `Observations`) reads.
  ///
  /// ```swift
  /// struct CounterView: View {
  ///   let cogs: Cogs
  ///   var body: some View { Text("count: \(cogs.ui[countCog])") }
  /// }
  /// ```
  ///
  /// The first UI read of a state makes its Observation boundary (one `ObservationRegistrar`,
  /// only for states the UI reads); every UI read registers access on it. After each turn, the
  /// boundary's observers are told once if the state's value changed, and not at all if it
  /// did not (an equal result changes nothing). Boundaries, and the states they watch, stay
  /// with the context (SwiftUI does not say when a view stops observing): a view torn down
  /// and made again reads through the same boundary.
  @inlinable public var ui: CogUIReads { CogUIReads(cogs: self) }
}

/// UI reads of one context (see `Cogs.ui`).
@MainActor @frozen
public struct CogUIReads {
  @usableFromInline let cogs: Cogs

  @inlinable init(cogs: Cogs) { self.cogs = cogs }

  /// The current value of `cog`, observed: the running Observation tracking is told when it
  /// changes.
  @inlinable public subscript<T>(cog: Cog<T>) -> T { cogs.graph.uiRead(cog) }

  /// The current value of the keyed state `ref`, observed.
  @inlinable public subscript<K, T>(ref: CogRef<K, T>) -> T { cogs.graph.uiRead(ref.name) }
}
