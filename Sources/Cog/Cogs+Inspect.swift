import CogCore
import CogEdgePool

extension Cogs {
  /// This context's graph as data (see `CogGraphSnapshot`; its `dot` renders it). Reads no
  /// state and runs no body: automatic states show the value and flags they have now.
  public func inspect() -> CogGraphSnapshot {
    var nodes: [CogGraphSnapshot.Node] = []
    for i in 0..<graph.rows.count {
      let s = Slot(i)
      let f = graph.rows.flags[s]
      if f.contains(.released) { continue }
      nodes.append(node(s, f))
    }
    return CogGraphSnapshot(nodes: nodes, revision: graph.revision)
  }

  /// Row `s` with flags `f` as a snapshot's node.
  func node(_ s: Slot, _ f: StateFlags) -> CogGraphSnapshot.Node {
    let rows = graph.rows
    let id = rows.descriptor[s]
    let kind: CogGraphSnapshot.Kind =
      f.contains(.reaction)
      ? .reaction : f.contains(.async) ? .async : f.contains(.computed) ? .automatic : .manual
    var flags = Set<CogGraphSnapshot.Flag>()
    let pairs: [(StateFlags, CogGraphSnapshot.Flag)] = [
      (.dirty, .dirty), (.pending, .pending), (.observed, .observed), (.exported, .exported),
      (.cached, .cached),
    ]
    for (bit, flag) in pairs where f.contains(bit) { flags.insert(flag) }
    if f.contains(.hasValue) && kind != .reaction { flags.insert(.hasValue) }
    if f.contains(.leased) { flags.insert(.leased) }
    let value = graph.describeValue(s)  // nil for a reaction (no value column)
    var lifetime: CogLifetime? = nil
    if kind != .reaction {
      lifetime = CogLifetime(rows.lifetime[s], cachePolicy: graph.cachePolicy(ofRow: s))
    }
    let isKeyed = graph.maps.keyIndexes[DescriptorKey(id)] != nil
    return CogGraphSnapshot.Node(
      id: Int(s.raw), label: graph.describe(s), kind: kind, lifetime: lifetime, flags: flags,
      value: value, version: kind == .reaction ? 0 : rows.changedAt[s],
      box: isKeyed ? graph.owner(ofRow: s)?.label ?? "box#\(id)" : nil,
      dependencies: dependencies(of: s), subscribers: subscribers(of: s))
  }

  /// The rows `s` read in its last run, in order.
  func dependencies(of s: Slot) -> [Int] {
    var out: [Int] = []
    var p = graph.edges.firstDep(of: s)
    while !p.isNone {
      out.append(Int(graph.edges.dep(of: s, at: p).raw))
      p = graph.edges.nextDep(of: s, after: p)
    }
    return out
  }

  /// The rows that read `s` in their last run.
  func subscribers(of s: Slot) -> [Int] {
    var out: [Int] = []
    var p = graph.edges.firstSub(of: s)
    while !p.isNone {
      out.append(Int(graph.edges.sub(of: s, at: p).raw))
      p = graph.edges.nextSub(of: s, after: p)
    }
    return out
  }
}
