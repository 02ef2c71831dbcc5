import Cog
import Testing

@MainActor
@Suite("Inspect")
struct InspectTests {
  /// source → doubled → show (a reaction); source → times[2], times[3] (a keyed box).
  func smallGraph() -> (Cogs, CogReaction) {
    let source = Cog(1, label: "source")
    let doubled = Cog(label: "doubled") { c in c[source] * 2 }
    let times = CogBox(label: "times") { (k: Int, c) -> Int in c[source] * k }
    let cogs = Cogs()
    let show = cogs.react("show") { c in _ = c[doubled] }
    _ = cogs[times[2]]
    _ = cogs[times[3]]
    cogs.turn("to 5") { w in w[source] = 5 }
    return (cogs, show)
  }

  @Test("the graph as data: labels, kinds, lifetimes, flags, values, versions, both edges")
  func data() throws {
    let (cogs, _) = smallGraph()
    let g = cogs.inspect()
    #expect(g.nodes.map(\.label) == ["show", "doubled", "source", "times[2]", "times[3]"])
    let source = try #require(g.node(labeled: "source"))
    let doubled = try #require(g.node(labeled: "doubled"))
    let show = try #require(g.node(labeled: "show"))
    let two = try #require(g.node(labeled: "times[2]"))
    #expect(source.kind == .manual && source.value == "5" && source.lifetime == .context)
    #expect(doubled.kind == .automatic && doubled.value == "10" && doubled.box == nil)
    #expect(show.kind == .reaction && show.value == nil && show.lifetime == nil)
    #expect(two.box == "times" && two.value == "2", "times[2] was not read since the turn")
    #expect(two.flags == [.hasValue, .dirty])
    #expect(doubled.flags == [.hasValue])
    #expect(doubled.version == source.version + 1, "each change bumps the revision")
    #expect(g.revision == doubled.version)
    #expect(doubled.dependencies == [source.id] && show.dependencies == [doubled.id])
    #expect(Set(source.subscribers) == [doubled.id, two.id, g.node(labeled: "times[3]")!.id])
  }

  @Test("the graph as DOT: a node per row, an edge per dependency, a cluster per keyed box")
  func dot() {
    let (cogs, _) = smallGraph()
    #expect(
      cogs.inspect().dot == """
        digraph cogs {
          node [fontname="Helvetica"];
          n0 [label="show", shape=octagon];
          n1 [label="doubled\\n= 10", shape=ellipse];
          n2 [label="source\\n= 5", shape=box];
          subgraph cluster_0 {
            label="times";
            n3 [label="times[2]\\n= 2", shape=ellipse];
            n4 [label="times[3]\\n= 3", shape=ellipse];
          }
          n1 -> n0;
          n2 -> n1;
          n2 -> n3;
          n2 -> n4;
        }

        """)
  }

  @Test("DOT escapes quotes and backslashes in labels and values, and cuts long values")
  func escaping() {
    let text = Cog(
      "say \"hi\" \\ " + String(repeating: "x", count: 50), label: "a \"quoted\" label")
    let cogs = Cogs()
    _ = cogs[text]
    let dot = cogs.inspect().dot
    #expect(
      dot.contains(
        #"n0 [label="a \"quoted\" label\n= say \"hi\" \\ xxxxxxxxxxxxxxxxxxxxxxxxxxxx…", shape=box];"#
      ))
  }

  struct Plain { var x = 1 }
  struct Shown: CustomStringConvertible { var description: String { "shown" } }
  struct Streamed: TextOutputStreamable, CustomStringConvertible {
    func write<T: TextOutputStream>(to target: inout T) { target.write("streamed") }
    var description: String { "described" }
  }
  final class Base: CustomStringConvertible { var description: String { "base" } }
  final class Debug: CustomDebugStringConvertible { var debugDescription: String { "debug" } }

  /// The inspected description of a manual cog holding `value`, and `String(describing:)`'s.
  func described<T>(_ value: T) -> (inspected: String?, expected: String) {
    let cogs = Cogs()
    let c = Cog(value, label: "v", equals: nil)
    _ = cogs[c]
    return (cogs.inspect().node(labeled: "v")?.value, String(describing: value))
  }

  @Test("values are described as String(describing:) describes them, for every kind of type")
  func valueDescriptions() throws {
    let all = [
      described(42), described("a \"b\""), described(Int?.some(3)), described(Int?.none),
      described([1, 2]), described(["k": 1]), described(Plain()), described(Shown()),
      described(Streamed()), described(Base()), described(Debug()), described(Int.self),
    ]
    for (inspected, expected) in all { #expect(inspected == expected) }
    #expect(described(Streamed()).inspected == "streamed")
    #expect(
      Cog(1).label.hasPrefix("Cog<Int>#")
        && Cog([Int?]()).label.hasPrefix("Cog<Array<Optional<Int>>>#"))
  }
}
