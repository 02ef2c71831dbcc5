import CogCore
import CogEdgePool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a reaction's body sees: tracked reads, untracked reads, and `turn` to schedule writes
/// (they run as later turns, first in first out, after the current flush).
@MainActor @frozen
public struct CogReactionContext {
  @usableFromInline let cogs: Unmanaged<Cogs>
  @usableFromInline let graph: Unmanaged<CogGraph>
  @usableFromInline let slot: Slot

  @inlinable init(cogs: Cogs, slot: Slot) {
    self.cogs = Unmanaged.passUnretained(cogs)
    self.graph = Unmanaged.passUnretained(cogs.graph)
    self.slot = slot
  }

  @inlinable public subscript<T>(cog: Cog<T>) -> T {
    withGuaranteed(graph) { $0.value(of: cog, tracked: true) }
  }
  @inlinable public subscript<T>(ref: CogRef<T>) -> T {
    withGuaranteed(graph) { $0.value(of: ref, tracked: true).0 }
  }
  @inlinable public func peek<T>(_ cog: Cog<T>) -> T {
    withGuaranteed(graph) { $0.value(of: cog, tracked: false) }
  }
  @inlinable public func peek<T>(_ ref: CogRef<T>) -> T {
    withGuaranteed(graph) { $0.value(of: ref, tracked: false).0 }
  }

  /// Schedules a turn that runs after the current flush (FIFO with other scheduled turns).
  public func turn(_ name: StaticString, _ body: @escaping (CogWriter) -> Void) {
    let cogs = cogs.takeUnretainedValue()
    cogs.schedule(name, by: cogs.graph.ref(slot), body)
  }
}

/// A registered reaction. Cancelling releases its row, its edges and its body; cancelling
/// twice, or after the context is gone, is harmless.
@MainActor
public final class CogReaction {
  weak var cogs: Cogs?
  let ref: SlotRef
  public private(set) var isCancelled = false

  init(cogs: Cogs, ref: SlotRef) {
    self.cogs = cogs
    self.ref = ref
  }

  public func cancel() {
    if isCancelled { return }
    isCancelled = true
    guard let cogs else { return }
    cogs.graph.checkLive(ref)
    cogs.graph.release(ref.slot)
    cogs.graph.collect()
  }
}

/// Keeps a state's row alive until `end()`.
@MainActor
public final class CogLease {
  weak var cogs: Cogs?
  let ref: SlotRef
  public private(set) var isEnded = false

  init(cogs: Cogs, ref: SlotRef) {
    self.cogs = cogs
    self.ref = ref
  }

  public func end() {
    if isEnded { return }
    isEnded = true
    guard let cogs else { return }
    cogs.graph.checkLive(ref)
    cogs.graph.removeLease(ref.slot)
    cogs.graph.collect()
  }
}

enum FileHandleShim {
  static func writeStandardError(_ s: String) {
    var s = s
    s.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
  }
}
