import Cog
import CogCore

#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// What a `cog*` system's storage costs per row and per edge, read from the structures the
/// core and its edge store report (`RowColumns.bytesPerRow`, `EdgeStore.reservedBytes`),
/// measured on the layout's own store type (the record's "Bytes per row and per edge").
///
/// Capacities, not allocator state: `reservedBytes` is computed from the store's column
/// capacities, so the figures are exact and the same on every machine. Differences between
/// two sizes cancel what a store reserves whatever its size (the first edge block), and the
/// sizes are chosen so that every doubling column ends exactly full (powers of two from the
/// stores' initial 64 edges): no capacity slack is in the figures.
package struct StorageFigures: Codable, Equatable, Sendable {
  /// The core's row columns per row slot (flags, revisions, indices, behaviour reference, …;
  /// the same for every layout).
  package var rowColumnBytes: Int
  /// The edge store's storage per row slot, edges excluded: list heads and, for layouts that
  /// keep the first dependencies inline, the row's record with its inline edge slots.
  package var edgeStoreRowBytes: Int
  /// Edge store bytes per added edge when every dependent row reads 2 dependencies.
  package var bytesPerEdgeAt2: Double
  /// The same with 4 dependencies per dependent row (past an inline layout's slots).
  package var bytesPerEdgeAt4: Double

  /// Bytes per row excluding values and edges: the core's columns and the store's row part.
  package var bytesPerRow: Int { rowColumnBytes + edgeStoreRowBytes }

  package init(
    rowColumnBytes: Int, edgeStoreRowBytes: Int, bytesPerEdgeAt2: Double, bytesPerEdgeAt4: Double
  ) {
    self.rowColumnBytes = rowColumnBytes
    self.edgeStoreRowBytes = edgeStoreRowBytes
    self.bytesPerEdgeAt2 = bytesPerEdgeAt2
    self.bytesPerEdgeAt4 = bytesPerEdgeAt4
  }
}

@MainActor
package enum StorageProbe {
  /// Rows reserved for the edge measurements: 8,192 source rows, each read by one dependent.
  static let sources = 8192

  package static func figures<Edges: EdgeStore>(_: Edges.Type) -> StorageFigures {
    // Per row: a store of 2n rows against one of n, no edges.
    let n = 4096
    let rowPart = (reserved(Edges.self, rows: 2 * n) - reserved(Edges.self, rows: n)) / n
    // Per edge: 8,192 edges against 4,096 on the same rows (each source row read once).
    func perEdge(_ deps: Int) -> Double {
      let small = reserved(Edges.self, rows: 2 * sources, edges: 4096, depsPerRow: deps)
      let large = reserved(Edges.self, rows: 2 * sources, edges: 8192, depsPerRow: deps)
      return Double(large - small) / 4096
    }
    return StorageFigures(
      rowColumnBytes: RowColumns<Edges>.bytesPerRow, edgeStoreRowBytes: rowPart,
      bytesPerEdgeAt2: perEdge(2), bytesPerEdgeAt4: perEdge(4))
  }

  /// `reservedBytes` of a store with `rows` rows whose rows from `sources` on each read
  /// `depsPerRow` distinct source rows, `edges` edges in all.
  static func reserved<Edges: EdgeStore>(
    _: Edges.Type, rows: Int, edges: Int = 0, depsPerRow: Int = 1
  ) -> Int {
    var store = Edges(reservingRows: rows)
    store.ensureRows(rows)
    var orphaned = OrphanQueue(capacity: 16)
    var source = 0
    for k in 0..<(edges / depsPerRow) {
      let sub = Slot(sources + k)
      var run = store.beginRun(sub)
      for _ in 0..<depsPerRow {
        store.track(Slot(source), version: 0, sub: sub, &run)
        source += 1
      }
      store.endRun(run, sub: sub, orphaned: &orphaned)
    }
    let bytes = store.reservedBytes
    store.free()
    orphaned.free()
    return bytes
  }
}

extension StorageProbe {
  /// The bytes of `cog`'s descriptor objects for an `Int` state: a manual `Cog`, and an
  /// automatic one with its behavior object (its body's closure context excluded: it depends
  /// on the captures). Instance sizes from the class metadata, as the runtime allocates them.
  package static func cogDescriptorBytes() -> (manual: Int, automatic: Int) {
    let source = Cog(0)
    let automatic = Cog { c in c[source] }
    return (
      instanceSize(of: source),
      instanceSize(of: automatic) + instanceSize(of: automatic.state.details!)
    )
  }

  /// The instance size the Swift runtime allocates for `object`'s class: on platforms without
  /// Objective-C interoperation the class metadata holds it at byte 24 (`TargetClassMetadata`:
  /// kind, superclass, flags, instance address point, instance size).
  package static func instanceSize(of object: AnyObject) -> Int {
    #if canImport(ObjectiveC)
      return class_getInstanceSize(type(of: object))
    #else
      // Safety: class metadata outlives the process's use of it; the field is a UInt32.
      let metadata = unsafeBitCast(type(of: object) as AnyClass, to: UnsafeRawPointer.self)
      return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
    #endif
  }
}

extension StorageProbe {
  /// Issue 23's memory scale: `n` manual sources and `n` automatic cogs each reading one
  /// source, every computed read once in one context (so each has its row and its edge), as an
  /// app would hold them (the descriptors in two arrays). `measure` runs four times, with
  /// everything built so far still alive: before, after the sources, after the computeds,
  /// and after the reads (so the phases split descriptors from the context's share).
  @MainActor package static func statesAtScale<T>(_ n: Int, measure: () throws -> T) rethrows
    -> ScalePhases<T>
  {
    let before = try measure()
    let sources = (0..<n).map { Cog($0) }
    let afterSources = try measure()
    let computeds = sources.map { s in Cog { c in c[s] &+ 1 } }
    let afterComputeds = try measure()
    let cogs = Cogs()
    var sum = 0
    for c in computeds { sum &+= cogs[c] }
    let after = try measure()
    // Everything stays alive until after the last reading.
    withExtendedLifetime((sources, computeds, cogs, sum)) {}
    return ScalePhases(
      before: before, afterSources: afterSources, afterComputeds: afterComputeds, after: after)
  }

  /// What `statesAtScale` measured at each phase.
  package struct ScalePhases<T> {
    package var before: T
    package var afterSources: T
    package var afterComputeds: T
    package var after: T
  }
}
