import Streams
import StreamsTesting
import Testing

@Suite("Marble diagrams")
struct MarblesTests {
    @Test func parsesTheGrammar() throws {
        #expect(try Marbles.parse("-a-|") == [[], [.value("a")], [], [.finished]])
        #expect(try Marbles.parse("'hello'^") == [[.value("hello")], [.failure]])
        #expect(try Marbles.parse("[ab|] ;") == [[.value("a"), .value("b"), .finished], [.cancelled]])
        #expect(try Marbles.parse("1 2") == [[.value("1")], [.value("2")]])
    }

    @Test func rejectsBadDiagrams() {
        #expect(throws: Marbles.SyntaxError.self) { try Marbles.parse("[a") }
        #expect(throws: Marbles.SyntaxError.self) { try Marbles.parse("a]") }
        #expect(throws: Marbles.SyntaxError.self) { try Marbles.parse("'abc") }
        #expect(throws: Marbles.SyntaxError.self) { try Marbles.parse("a+b") }
        #expect(throws: Marbles.SyntaxError.self) { try Marbles.parse("[a[b]]") }
    }

    @Test func rendersWhatItParses() throws {
        for diagram in ["-a-|", "'hello'^", "[ab|];", "--[1;|]"] {
            #expect(Marbles.render(try Marbles.parse(diagram)) == diagram)
        }
    }

    @Test func mismatchAlignsTheDiagramsAndMarksTheFirstDifferingTick() throws {
        let message = try #require(Marbles.mismatch(
            expected: try Marbles.parse("---2---4-|"),
            actual: try Marbles.parse("---2-----[4|]")))
        #expect(message == """
            marble diagrams differ at tick 7:
            expected: ---2---4-|
            actual:   ---2-----[4|]
                             ^
            """)
        #expect(Marbles.mismatch(expected: try Marbles.parse("-a-"), actual: try Marbles.parse("-a")) == nil)
    }

    @Test func aFailingAssertionRecordsAnIssue() {
        expectFailures {
            assertMarbles("-1-2-|", { $0.map { $0 } }, "-1-3-|")
        } matching: { $0.description.contains("differ at tick 3") }
    }

    @Test func operatorCancellationShowsAsSemicolon() {
        assertMarbles("-a-b-|", { $0.tryMap { s -> String in
            if s == "b" { throw MarbleFailure() }
            return s
        } }, "-a-[;^]")
    }
}
