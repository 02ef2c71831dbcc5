/// swift-state-graph's `withMainActor`: where `Task.immediate` is available (it is on Linux)
/// the body runs in a new immediate task on the main actor. Called on the main actor, as every
/// benchmark write is, the task starts and finishes inline, before this returns; the cost is
/// the task's creation, start and teardown, once per stored write notification and once per
/// computed dirtying.
@inline(never)
func ogWithMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
  Task.immediate { @MainActor in body() }
}
