import Synchronization

/// Process-wide ids for descriptors and value types.
///
/// Descriptors are usually global `let`s, initialized lazily on whatever thread first touches
/// them, so id assignment is the one place the runtime synchronizes. It runs once per
/// descriptor and once per value type, never during graph work.
@usableFromInline
package enum Registry {
  private static let nextContext = Atomic<Int>(1)

  /// A fresh context serial: identifies a graph in descriptor caches. Never reused, unlike the
  /// graph's address, which a later graph may get. Within `Int32` (`KeylessCache` stores it
  /// in 32 bits): a process that makes 2³¹ contexts stops here rather than confuse them.
  @usableFromInline package static func makeContextSerial() -> Int {
    let serial = nextContext.add(1, ordering: .relaxed).oldValue
    if serial > Int(Int32.max) { contextSerialsExhausted() }
    return serial
  }

  @inline(never)
  private static func contextSerialsExhausted() -> Never {
    fatalError("Cog: more than \(Int32.max) contexts made in one process")
  }
  private static let typeIndices = Mutex<[ObjectIdentifier: Int32]>([:])

  private static let nextDescriptor = Atomic<Int32>(0)

  /// A fresh descriptor id: dense, starting at 0, so contexts index columns with it. A process
  /// that declares 2³¹ descriptors stops here with a message (a checked `add` trapped with
  /// "arithmetic overflow" and nothing of Cog's). A wrapping add is one locked `xadd`, where
  /// the checked one was a compare-and-swap loop; a negative result is the wrap. (A
  /// per-thread batch of ids, with no atomic operation a declaration, cost 8 instructions more
  /// and measured no faster: impl/perf-notes.md, "Stop 47".)
  @usableFromInline package static func makeDescriptorID() -> Int32 {
    let id = nextDescriptor.wrappingAdd(1, ordering: .relaxed).oldValue
    if _slowPath(id < 0) { descriptorIDsExhausted() }
    return id
  }

  @inline(never)
  static func descriptorIDsExhausted() -> Never {
    fatalError(
      "Cog: more than \(Int32.max) descriptors (cogs, boxes, families, async cogs) declared in "
        + "one process; declare long-lived descriptors once (a `static let`) rather than per use")
  }

  /// Moves the next descriptor id to `first` (tests of the ids' limit; only forward).
  package static func skipDescriptorIDs(to first: Int32) {
    var now = nextDescriptor.load(ordering: .relaxed)
    while now >= 0 && now < first {
      let (exchanged, original) = nextDescriptor.compareExchange(
        expected: now, desired: first, ordering: .relaxed)
      if exchanged { return }
      now = original
    }
  }

  private struct SharedKey: Hashable {
    var type: ObjectIdentifier
    var kind: ObjectIdentifier
  }
  private static let sharedByType = Mutex<[SharedKey: AnyObject]>([:])

  /// One immutable object of class `T` per value type, made by `make` on the first request
  /// and shared by every later one: the `==` equality of manual cogs, so that declaring a
  /// state does not allocate one per descriptor. Found without a lock once made
  /// (`TypeTable`). Returned unretained: the registry keeps the objects for the process, so a
  /// descriptor may hold one without a reference of its own (returning it retained cost a
  /// retain per declaration).
  // Lifetime: `sharedByType` keeps every object for the process, so the result needs no retain.
  @usableFromInline package static func shared<T: AnyObject & Sendable>(
    for type: Any.Type, _ make: () -> T
  ) -> Unmanaged<T> {
    let key = TypeTable.key(type, ObjectIdentifier(T.self))
    if let found = sharedTable.find(key) {
      // Safety: the word under this key (which includes `T`) is a `T` that `sharedByType` keeps.
      return Unmanaged<T>.fromOpaque(UnsafeRawPointer(bitPattern: found).unsafelyUnwrapped)
    }
    return sharedSlow(key, make)
  }

  @inline(never)
  // Lifetime: `sharedByType` keeps every object for the process, so the result needs no retain.
  private static func sharedSlow<T: AnyObject & Sendable>(
    _ key: TypeTable.Key, _ make: () -> T
  ) -> Unmanaged<T> {
    sharedByType.withLock { table in
      let dictionaryKey = SharedKey(type: key.type, kind: key.kind.unsafelyUnwrapped)
      if let existing = table[dictionaryKey] {
        // Safety: the dictionary key includes `T`'s identifier, so the entry was made as a `T`.
        return Unmanaged.passUnretained(unsafeDowncast(existing, to: T.self))
      }
      let made = make()
      table[dictionaryKey] = made
      // Lifetime: the dictionary keeps `made` alive, so the table may hold it unretained.
      sharedTable.insert(key, UInt(bitPattern: Unmanaged.passUnretained(made).toOpaque()))
      return Unmanaged.passUnretained(made)
    }
  }

  /// The dense index of a value type; contexts keep one typed column per index. Found
  /// without a lock once assigned (`TypeTable`).
  @usableFromInline package static func typeIndex(for type: Any.Type) -> Int32 {
    let key = TypeTable.key(type, nil)
    if let i = typeTable.find(key) { return Int32(truncatingIfNeeded: i) }
    return typeIndexSlow(key)
  }

  @inline(never)
  private static func typeIndexSlow(_ key: TypeTable.Key) -> Int32 {
    typeIndices.withLock { table in
      if let i = table[key.type] { return i }
      let i = Int32(table.count)
      table[key.type] = i
      typeTable.insert(key, UInt(i))
      return i
    }
  }

  private static let typeTable = TypeTable()
  private static let sharedTable = TypeTable()
}

/// What the registry has already answered, readable without a lock: an insert-only open
/// addressing table from a type (and a kind, for `Registry.shared`) to a word. Declaring a
/// descriptor asked two locked dictionaries (a hash of the type, a lock and an unlock each),
/// most of what declaring a manual cog cost.
///
/// Inserts happen under the registry's lock (one writer), into empty entries only, and stop
/// at three quarters full (then the locked dictionaries answer alone). An entry's word and
/// second key are stored before its first key, which is stored with release ordering; a
/// reader loads the first key with acquire ordering, so an entry it sees is complete, and an
/// entry never changes once written.
private struct TypeTable: ~Copyable {
  struct Key {
    var type: ObjectIdentifier
    var kind: ObjectIdentifier?
    var first: UInt { UInt(bitPattern: type) }
    var second: UInt { kind.map { UInt(bitPattern: $0) } ?? 0 }
  }
  static func key(_ type: Any.Type, _ kind: ObjectIdentifier?) -> Key {
    Key(type: ObjectIdentifier(type), kind: kind)
  }

  /// The entries (the arrays' count below: a literal there, so keep them equal).
  static let capacity = 1024
  /// Type metadata addresses: never 0, which marks an empty entry.
  let firsts: InlineArray<1024, Atomic<UInt>> = InlineArray { _ in Atomic(0) }
  let seconds: InlineArray<1024, Atomic<UInt>> = InlineArray { _ in Atomic(0) }
  let words: InlineArray<1024, Atomic<UInt>> = InlineArray { _ in Atomic(0) }
  let count = Atomic<Int>(0)

  private static func start(_ key: Key) -> Int {
    // Metadata addresses are pointer-aligned, so the lowest bits say little (entries whose
    // starts collide probe on); the kind is mixed in for `shared`'s entries.
    Int(truncatingIfNeeded: ((key.first >> 4) &+ (key.second >> 4) &* 31)) & (capacity - 1)
  }

  @inline(__always)
  func find(_ key: Key) -> UInt? {
    let first = key.first
    let second = key.second
    var i = Self.start(key)
    while true {
      let f = firsts[i].load(ordering: .acquiring)
      if f == 0 { return nil }
      if f == first && seconds[i].load(ordering: .relaxed) == second {
        return words[i].load(ordering: .relaxed)
      }
      i = (i + 1) & (Self.capacity - 1)
    }
  }

  /// Under the registry's lock.
  func insert(_ key: Key, _ word: UInt) {
    let n = count.load(ordering: .relaxed)
    if n >= Self.capacity / 4 * 3 { return }
    var i = Self.start(key)
    while firsts[i].load(ordering: .relaxed) != 0 { i = (i + 1) & (Self.capacity - 1) }
    words[i].store(word, ordering: .relaxed)
    seconds[i].store(key.second, ordering: .relaxed)
    firsts[i].store(key.first, ordering: .releasing)
    count.store(n + 1, ordering: .relaxed)
  }
}
