/// The raw-Observation baseline: what a Swift user builds with `@Observable` alone, the way
/// swift/Benchmarks/baselines.md describes it on the 6.3.1 runtime.
///
/// - A source is an `@Observable` object with one stored property (`ObservedCell`), so every
///   write goes through its `ObservationRegistrar` (`withMutation`: two pthread mutex locks on
///   Linux, and key-path hashing once anything observes the object).
/// - A derived value is a plain closure re-run on every read (`ObservedDerived`), the way a
///   computed property of an `@Observable` model behaves: Observation has no memoization, so
///   its reads are tracked by whoever reads the derived value.
/// - An effect (`ObservedEffect`) runs its body inside `withObservationTracking`; the one-shot
///   `onChange` only queues it, and the owner re-runs it (re-arming the tracking) when its
///   batch ends.
///
/// Differences from `swift/SEMANTICS.md` that follow from Observation itself:
/// - derived bodies run on every read, so their run counts are "one per read", not "one per
///   change";
/// - there is no equality cutoff between a derived value and its readers: an effect re-runs
///   when any source it reached (through derived values too) changed, even if the derived
///   value it read is equal;
/// - a write applies at once (there are no turns); writers compare with the cell's equality
///   first (`ObservedCell.set`), since the `@Observable` setter of a generic property notifies
///   even when the value is equal.
public enum ObservationBaseline {}
