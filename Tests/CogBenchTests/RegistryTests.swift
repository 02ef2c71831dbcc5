import CogCore
import Testing

// The registry answers type indices and shared objects from a lock-free table once it has
// assigned them (issue 13: declaring a manual cog takes no lock); past the table's capacity
// the locked dictionaries answer alone. Either way the answers must be the same ones.

/// A distinct type per nesting level (`[[[Int]]]`…), made at run time.
private func nested<T>(_ type: T.Type, _ depth: Int) -> Any.Type {
  depth == 0 ? type : nested([T].self, depth - 1)
}

private final class Kind1: Sendable {}
private final class Kind2: Sendable {}

@Suite("Registry")
struct RegistryTests {
  @Test(
    "a type keeps its index, and distinct types get distinct indices, past the table's capacity")
  func typeIndicesAreStable() {
    // More types than the lock-free table takes (1,024 entries, filled to three quarters).
    let types = (0..<1_200).map { nested(Int8.self, $0) }
    let first = types.map { Registry.typeIndex(for: $0) }
    #expect(Set(first).count == types.count)
    let again = types.map { Registry.typeIndex(for: $0) }
    #expect(again == first)
  }

  @Test("a shared object is made once per type and kind, and found again")
  func sharedObjectsAreFoundAgain() {
    let types = (0..<900).map { nested(UInt16.self, $0) }
    var made = 0
    let first = types.map { t in
      Registry.shared(for: t) { () -> Kind1 in
        made += 1
        return Kind1()
      }.toOpaque()
    }
    #expect(made == types.count)
    let again = types.map { t in Registry.shared(for: t) { Kind1() }.toOpaque() }
    #expect(again == first)
    // Another kind for the same type is another object.
    let other = Registry.shared(for: types[0]) { Kind2() }.toOpaque()
    #expect(other != first[0])
    #expect(Registry.shared(for: types[0]) { Kind2() }.toOpaque() == other)
  }

  @Test("threads asking at once get the same answers")
  func concurrentAnswersAgree() async {
    let types = (0..<300).map { nested(Int32.self, $0) }
    let answers = await withTaskGroup(of: [Int32].self) { group in
      for _ in 0..<4 {
        group.addTask { types.map { Registry.typeIndex(for: $0) } }
      }
      var all: [[Int32]] = []
      for await a in group { all.append(a) }
      return all
    }
    #expect(answers.count == 4)
    #expect(Set(answers.map { $0.description }).count == 1)
    #expect(Set(answers[0]).count == types.count)
  }
}
