import ComposableArchitecture
import Foundation
import Testing

@Suite("Diff")
struct DiffTests {
    struct User: Hashable { var id = 1; var name = "Blob" }
    enum Inner: Hashable { case a, b(Int) }
    enum Action { case tap, load(User), move(from: Int, to: Int), set(Int), nested(Inner), pair(Int, String), wrapped(Int?) }
    struct Empty {}

    // MARK: Rendering: structs, optionals, strings

    @Test func structsOneLinePerPropertyWithTrailingCommas() {
        struct State { var count = 1; var name: String? = "Blob"; var missing: Int? = nil; var user = User(); var flag = true }
        #expect(Diff.render(State()) == """
            State(
              count: 1,
              name: "Blob",
              missing: nil,
              user: User(
                id: 1,
                name: "Blob",
              ),
              flag: true,
            )
            """)
    }

    @Test func emptyStructAndScalars() {
        #expect(Diff.render(Empty()) == "Empty()")
        #expect(Diff.render(42) == "42")
        #expect(Diff.render(1.5) == "1.5")
        #expect(Diff.render(false) == "false")
        #expect(Diff.render(Int?.none) == "nil")
        #expect(Diff.render(Int?.some(3)) == "3")
    }

    @Test func stringsAreQuotedAndEscaped() {
        #expect(Diff.render("Bl\"ob\n") == #""Bl\"ob\n""#)
        #expect(Diff.render("sub"[...]) == #""sub""#)
        #expect(Diff.render(Character("c")) == #""c""#)
    }

    // MARK: Rendering: enums

    @Test func enumsWithoutPayload() {
        #expect(Diff.render(Action.tap) == "Action.tap")
    }

    @Test func enumPayloadsFitOnOneLineWhenEveryPartDoes() {
        #expect(Diff.render(Action.set(3)) == "Action.set(3)")
        #expect(Diff.render(Action.move(from: 1, to: 2)) == "Action.move(from: 1, to: 2)")
        #expect(Diff.render(Action.pair(1, "s")) == #"Action.pair(1, "s")"#)
        #expect(Diff.render(Action.nested(.b(2))) == "Action.nested(Inner.b(2))")
        #expect(Diff.render(Action.wrapped(nil)) == "Action.wrapped(nil)")
    }

    @Test func enumPayloadsThatDoNotFitGoOnePartPerLine() {
        #expect(Diff.render(Action.load(User())) == """
            Action.load(
              User(
                id: 1,
                name: "Blob",
              ),
            )
            """)
    }

    // MARK: Rendering: collections and tuples

    @Test func arraysOneElementPerLine() {
        #expect(Diff.render([1, 2]) == """
            [
              1,
              2,
            ]
            """)
        #expect(Diff.render([Int]()) == "[]")
        #expect(Diff.render([[1], []]) == """
            [
              [
                1,
              ],
              [],
            ]
            """)
    }

    @Test func dictionariesSortedByTheKeysRendering() {
        #expect(Diff.render(["b": 2, "a": 1, "c": 3]) == """
            [
              "a": 1,
              "b": 2,
              "c": 3,
            ]
            """)
        #expect(Diff.render([10: "x", 9: "y"]) == """
            [
              10: "x",
              9: "y",
            ]
            """)
        #expect(Diff.render([String: Int]()) == "[:]")
    }

    @Test func setsSortedByTheElementsRendering() {
        #expect(Diff.render(Set([3, 1, 2])) == """
            Set([
              1,
              2,
              3,
            ])
            """)
        #expect(Diff.render(Set<Int>()) == "Set([])")
    }

    @Test func tuplesWithAndWithoutLabels() {
        #expect(Diff.render((1, label: "x")) == """
            (
              1,
              label: "x",
            )
            """)
    }

    // MARK: Rendering: classes, cycles, depth

    final class Node {
        var value = 1
        var next: Node?
    }

    class Base { var a = 1 }
    final class Sub: Base { var b = "x" }

    @Test func classesWithInheritedPropertiesFirst() {
        #expect(Diff.render(Sub()) == """
            Sub(
              a: 1,
              b: "x",
            )
            """)
    }

    @Test func cyclesAreCutWhereAnInstanceMeetsItself() {
        let node = Node()
        node.next = node
        #expect(Diff.render(node) == """
            Node(
              value: 1,
              next: Node(<cycle>),
            )
            """)
    }

    @Test func theSameInstanceTwiceWithoutACycleIsWrittenTwice() {
        struct Pair { var left: Node; var right: Node }
        let node = Node()
        #expect(Diff.render(Pair(left: node, right: node)) == """
            Pair(
              left: Node(
                value: 1,
                next: nil,
              ),
              right: Node(
                value: 1,
                next: nil,
              ),
            )
            """)
    }

    @Test func nestingDeeperThanMaxDepthIsCutOff() {
        #expect(Diff.render([[[1]]], maxDepth: 2) == """
            [
              [
                […],
              ],
            ]
            """)
        #expect(Diff.render(User(), maxDepth: 0) == "User(…)")
        #expect(Diff.render(Action.load(User()), maxDepth: 1) == "Action.load(User(…))")
    }

    @Test func aLongIndirectChainStopsAtMaxDepth() {
        indirect enum List { case end, node(Int, List) }
        var list = List.end
        for n in 0..<1_000 { list = .node(n, list) }
        let lines = Diff.render(list, maxDepth: 3).split(separator: "\n")
        #expect(lines.count < 20)
        #expect(lines.contains { $0.contains("…") })
    }

    // MARK: Rendering: Foundation and AnyHashable

    @Test func foundationValuesByTheirDescription() {
        struct Values { var uuid: UUID; var url: URL; var date: Date; var data: Data; var decimal: Decimal }
        let values = Values(uuid: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
                            url: URL(string: "https://example.com/a")!,
                            date: Date(timeIntervalSince1970: 0), data: Data([1, 2, 3]), decimal: Decimal(string: "1.5")!)
        #expect(Diff.render(values) == """
            Values(
              uuid: UUID(00000000-0000-0000-0000-000000000001),
              url: URL(https://example.com/a),
              date: Date(1970-01-01 00:00:00 +0000),
              data: Data(3 bytes),
              decimal: 1.5,
            )
            """)
    }

    @Test func anyHashableShowsTheValueItHolds() {
        #expect(Diff.render(AnyHashable(5)) == "5")
        #expect(Diff.render([AnyHashable("a")]) == """
            [
              "a",
            ]
            """)
    }

    // MARK: Rendering on one line (messages)

    @Test func inlineWritesEveryGroupOnOneLine() {
        struct State { var count = 1; var tags = ["a"]; var user = User(); var note = "two\nlines" }
        #expect(Diff.inline(State()) == #"State(count: 1, tags: ["a"], user: User(id: 1, name: "Blob"), note: "two\nlines")"#)
        #expect(Diff.inline(Action.load(User())) == #"Action.load(User(id: 1, name: "Blob"))"#)
        #expect(Diff.inline(["k": Set([2, 1])]) == #"["k": Set([1, 2])]"#)
    }

    // MARK: Line diff

    @Test func equalLinesHaveNoDiff() {
        #expect(Diff.compareLines(["a", "b"], ["a", "b"]) == nil)
        #expect(Diff.compare([1, 2], [1, 2]) == nil)
    }

    @Test func changedLineIsRemovedThenAdded() {
        #expect(Diff.compareLines(["a", "b"], ["a", "c"]) == """
              a
            - b
            + c
            """)
    }

    @Test func insertionsAndDeletionsKeepTheLongestCommonSubsequence() {
        #expect(Diff.compareLines(["a", "b", "c", "d"], ["b", "c", "e", "d", "f"]) == """
            - a
              b
              c
            + e
              d
            + f
            """)
    }

    @Test func betweenTwoUnchangedLinesRemovedComeBeforeAdded() {
        #expect(Diff.compareLines(["x", "a", "b", "y"], ["x", "c", "d", "y"]) == """
              x
            - a
            - b
            + c
            + d
              y
            """)
        #expect(Diff.compareLines(["a", "1", "b", "2"], ["c", "1", "d", "2"]) == """
            - a
            + c
              1
            - b
            + d
              2
            """)
    }

    @Test func emptySides() {
        #expect(Diff.compareLines([], ["a"]) == "+ a")
        #expect(Diff.compareLines(["a"], []) == "- a")
    }

    @Test func longUnchangedRunsAreCollapsedKeepingContext() {
        let old = (1...20).map { "line \($0)" }
        var new = old
        new[9] = "changed"
        #expect(Diff.compareLines(old, new, context: 2) == """
              … (7 unchanged lines)
              line 8
              line 9
            - line 10
            + changed
              line 11
              line 12
              … (8 unchanged lines)
            """)
    }

    @Test func aRunBetweenTwoChangesKeepsContextOnBothSides() {
        let old = (1...12).map { "\($0)" }
        var new = old
        new[0] = "first"
        new[11] = "last"
        #expect(Diff.compareLines(old, new, context: 1) == """
            - 1
            + first
              2
              … (8 unchanged lines)
              11
            - 12
            + last
            """)
    }

    @Test func runsTooShortToSaveALineAreKept() {
        // context 1 on both sides of a 3-line run: collapsing one line would not save any.
        #expect(Diff.compareLines(["a", "1", "2", "3", "b"], ["A", "1", "2", "3", "B"], context: 1) == """
            - a
            + A
              1
              2
              3
            - b
            + B
            """)
    }

    @Test func contextZeroShowsOnlyTheChanges() {
        #expect(Diff.compareLines(["a", "b", "c", "d", "e"], ["a", "b", "X", "d", "e"], context: 0) == """
              … (2 unchanged lines)
            - c
            + X
              … (2 unchanged lines)
            """)
    }

    @Test func theCollapsedLineIsIndentedLikeTheFirstLineItStandsFor() {
        let old = ["root(", "  a: 1,", "  b: [", "    1,", "    2,", "    3,", "  ],", ")"]
        var new = old
        new[1] = "  a: 2,"
        #expect(Diff.compareLines(old, new, context: 1) == """
              root(
            -   a: 1,
            +   a: 2,
                b: [
                  … (5 unchanged lines)
            """)
    }

    @Test func veryLargeDiffsFallBackToRemovedThenAdded() {
        let old = (0..<2_001).map { "old \($0)" }
        let new = (0..<2_001).map { "new \($0)" }
        let lines = Diff.compareLines(["same"] + old, ["same"] + new, context: 1)!.split(separator: "\n")
        #expect(lines.count == 4_003)
        #expect(lines[0] == "  same")
        #expect(lines[1] == "- old 0")
        #expect(lines[2_002] == "+ new 0")
        #expect(lines.last == "+ new 2000")
    }

    // MARK: Comparing values

    @Test func docExampleOfDiff() {
        struct AppState { var count = 1; var favorites: [Int] = [2, 3]; var name: String? = "Blob" }
        #expect(Diff.render(AppState()) == """
            AppState(
              count: 1,
              favorites: [
                2,
                3,
              ],
              name: "Blob",
            )
            """)
        var new = AppState()
        new.count = 2
        #expect(Diff.compare(AppState(), new) == """
              AppState(
            -   count: 1,
            +   count: 2,
                favorites: [
                  2,
                  3,
                … (3 unchanged lines)
            """)
    }

    @Test func docExampleOfCompare() {
        #expect(Diff.compare([1, 2, 3], [1, 3, 4]) == """
              [
                1,
            -   2,
                3,
            +   4,
              ]
            """)
    }

    @Test func appendingToAnArrayChangesOneLine() {
        struct State { var items = ["a", "b"] }
        var new = State()
        new.items.append("c")
        #expect(Diff.compare(State(), new) == """
              State(
                items: [
                  "a",
                  "b",
            +     "c",
                ],
              )
            """)
    }

    @Test func enumCaseChangeInsideAStruct() {
        struct State { var action = Action.tap; var user: User? = nil }
        var new = State()
        new.action = .set(2)
        new.user = User(id: 7)
        #expect(Diff.compare(State(), new) == """
              State(
            -   action: Action.tap,
            -   user: nil,
            +   action: Action.set(2),
            +   user: User(
            +     id: 7,
            +     name: "Blob",
            +   ),
              )
            """)
    }
}
