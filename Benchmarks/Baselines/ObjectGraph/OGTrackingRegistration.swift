/// One running tracking group (swift-state-graph's `TrackingRegistration`, what
/// `withGraphTracking` re-runs): while its body runs it is the current registration (the second
/// thread-local, `OGThreadLocal.currentRegistration`), and every node the body reads records it
/// in its `trackingRegistrations` set. A node that is written or turns potentially dirty fires
/// the registrations in its set. Here an `OGEffect` owns one, and a firing schedules it.
/// Registrations stay in the sets of nodes the group no longer reads (a firing then schedules
/// an effect that is not dirty, which runs nothing).
public final class OGTrackingRegistration: Hashable, @unchecked Sendable {
  public weak var effect: OGEffect?

  init(effect: OGEffect) {
    self.effect = effect
  }

  /// A node this registration read turned potentially dirty or was written.
  func fire() { effect?.registrationFired() }

  public static func == (a: OGTrackingRegistration, b: OGTrackingRegistration) -> Bool {
    a === b
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
