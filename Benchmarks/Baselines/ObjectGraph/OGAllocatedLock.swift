#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stand-in for `OSAllocatedUnfairLock<Void>`: a heap-allocated pthread mutex, as in the
/// Linux port of swift-state-graph. One per edge, so an edge costs two allocations (the edge
/// and this lock) plus the mutex storage.
public final class OGAllocatedLock: @unchecked Sendable {
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  public func withLock<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
