extension CogGraphSnapshot {
  /// The graph as Graphviz DOT text: one node per row (manual states as boxes, automatic
  /// ones as ellipses, async ones dashed, reactions as octagons), labelled with the state's
  /// label and value (cut at 40 characters); one edge per dependency, from the state read to
  /// its reader; a keyed box's rows grouped in a cluster named after the box.
  ///
  /// `dot -Tsvg graph.dot -o graph.svg` renders it (Debian's `graphviz`).
  public var dot: String {
    var out = "digraph cogs {\n  node [fontname=\"Helvetica\"];\n"
    var boxes: [String] = []
    var rowsOfBox: [String: [Node]] = [:]
    for n in nodes {
      if let box = n.box {
        if rowsOfBox[box] == nil { boxes.append(box) }
        rowsOfBox[box, default: []].append(n)
      } else {
        out += "  \(Self.statement(n))\n"
      }
    }
    for (i, box) in boxes.enumerated() {
      out += "  subgraph cluster_\(i) {\n    label=\"\(Self.escaped(box))\";\n"
      for n in rowsOfBox[box] ?? [] { out += "    \(Self.statement(n))\n" }
      out += "  }\n"
    }
    for n in nodes {
      for d in n.dependencies { out += "  n\(d) -> n\(n.id);\n" }
    }
    return out + "}\n"
  }

  /// A node's DOT statement: `n3 [label="total\n= 12", shape=ellipse];`.
  static func statement(_ n: Node) -> String {
    var label = escaped(n.label)
    if let v = n.value {
      let cut = v.count > 40 ? String(v.prefix(39)) + "…" : v
      label += "\\n= " + escaped(cut)
    }
    let shape: String
    switch n.kind {
    case .manual: shape = "shape=box"
    case .automatic: shape = "shape=ellipse"
    case .async: shape = "shape=ellipse, style=dashed"
    case .reaction: shape = "shape=octagon"
    }
    return "n\(n.id) [label=\"\(label)\", \(shape)];"
  }

  /// `s` inside a DOT double-quoted string.
  static func escaped(_ s: String) -> String {
    var out = ""
    for c in s {
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.append(c)
      }
    }
    return out
  }
}
