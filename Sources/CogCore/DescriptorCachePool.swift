import Synchronization

/// Where keyed boxes' caches (`DescriptorCache`) live: carved from chunks of 256 and recycled,
/// so that declaring a box allocates its own object and nothing else (a cache of its own cost
/// a `malloc` and a `free` per descriptor). Keyless descriptors no longer take one: their
/// cache is a `KeylessCache` in their object (no lock per declaration). Boxes are declared and freed on any thread, hence the lock;
/// it is taken once per declaration and once per `deinit`, never during graph work. Chunks
/// are kept for the process: the pool holds as many caches as were ever alive at once.
@usableFromInline
enum DescriptorCachePool {
  private struct State {
    /// The last cache given back (as an address; 0: none). A free cache's memory holds the
    /// address of the one given back before it: a list through the caches themselves, so
    /// that taking and giving touch no array (its uniqueness and bounds checks were a fifth
    /// of `take` on sbench/createSignals).
    var free: UInt = 0
    /// The next unused cache of the current chunk, and how many are left in it.
    var next: UInt = 0
    var left = 0
  }

  private static let chunk = 256
  private static let state = Mutex(State())

  /// A fresh cache (empty: no context).
  @usableFromInline package static func take() -> UnsafeMutablePointer<DescriptorCache> {
    let address = state.withLock { s -> UInt in
      if s.free != 0 {
        let a = s.free
        s.free = UnsafeMutableRawPointer(bitPattern: a).unsafelyUnwrapped.load(as: UInt.self)
        return a
      }
      if s.left == 0 {
        let p = UnsafeMutablePointer<DescriptorCache>.allocate(capacity: chunk)
        s.next = UInt(bitPattern: p)
        s.left = chunk
      }
      let a = s.next
      s.next += UInt(MemoryLayout<DescriptorCache>.stride)
      s.left -= 1
      return a
    }
    let p = UnsafeMutablePointer<DescriptorCache>(bitPattern: address).unsafelyUnwrapped
    p.initialize(to: DescriptorCache())
    return p
  }

  /// Gives back a cache `take` made (its descriptor's `deinit`).
  @usableFromInline package static func give(_ p: UnsafeMutablePointer<DescriptorCache>) {
    p.deinitialize(count: 1)
    let raw = UnsafeMutableRawPointer(p)
    state.withLock { s in
      raw.storeBytes(of: s.free, as: UInt.self)
      s.free = UInt(bitPattern: raw)
    }
  }
}
