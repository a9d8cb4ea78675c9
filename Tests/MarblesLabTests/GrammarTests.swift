import StreamsTesting
import Testing

@testable import MarblesLab

/// The lab's grammar: diagrams, operator chains, formulas, demands, and the errors that point at
/// the column.
@Suite("Marbles: the grammar and its errors")
struct GrammarTests {
    // MARK: Diagrams

    @Test func diagramsReadAsTheDocsGrammarWithHashForAFailure() throws {
        #expect(
            try LabDiagram.parse("-1-'10'-[ab]-|") == [
                [], [.value("1")], [], [.value("10")], [], [.value("a"), .value("b")], [], [.finished],
            ])
        #expect(try LabDiagram.parse("-a-#") == [[], [.value("a")], [], [.failure]])
        #expect(try LabDiagram.parse("-a-^") == (try LabDiagram.parse("-a-#")))
        #expect(try LabDiagram.parse("  -a- b ") == [[], [.value("a")], [], [.value("b")]])
        #expect(try LabDiagram.parse("-a-|--") == [[], [.value("a")], [], [.finished], [], []])
    }

    @Test(
        "diagram errors point at the column",
        arguments: [
            ("-1-?-|", 4, "unexpected '?'"),
            ("-1-'ab", 4, "unterminated 'text'"),
            ("-[ab", 2, "unterminated '['"),
            ("-a]", 3, "']' without '['"),
            ("-[a-b]", 4, "'-' inside [...]"),
            ("-[a[b]]", 4, "groups do not nest"),
            ("-[]-", 2, "an empty group"),
            ("-a-|-b", 6, "after the end of the stream (column 4)"),
            ("-''-", 2, "an empty value"),
        ])
    func diagramErrors(diagram: String, column: Int, message: String) {
        #expect {
            try LabDiagram.parse(diagram)
        } throws: { error in
            guard let error = error as? LabError else { return false }
            return error.column == column && error.message.contains(message) && error.source == diagram
        }
    }

    @Test func anErrorShowsTheTextWithACaretUnderTheColumn() {
        let error = LabError("unexpected '?'", in: "-1-?-|", at: 4)
        #expect(
            error.description == """
                error: unexpected '?'
                  -1-?-|
                     ^ column 4
                """)
    }

    // MARK: Chains

    @Test func chainsReadIntoStepsWithLabelsAndKeys() throws {
        let steps = try LabChain.parse(
            "map(x*10) | prefix(while: x<3) | debounce(2) | removeDuplicates | flatMap(maxPublishers: .max(1))")
        #expect(
            steps.map(\.key) == [
                "map(_:)", "prefix(while:)", "debounce(_:)", "removeDuplicates", "flatMap(maxPublishers:)",
            ])
        #expect(steps[0].arguments[0].text == "x*10")
        #expect(steps[1].arguments[0].label == "while")
        #expect(steps[4].arguments[0].text == "max(1)")
        #expect(try steps[4].arguments[0].demand() == .max(1))
        #expect(steps[2].column == 34)
    }

    @Test(
        "chain errors point at the column",
        arguments: [
            ("map(x*10", 4, "'(' is not closed"),
            ("map(x*10) |", 12, "an operator is missing after '|'"),
            ("map(x*10) debounce(2)", 11, "expected '|' between two operators"),
            ("map(x*10 | debounce(2))", 10, "'|' inside (...)"),
            ("merge(b,)", 9, "an argument is missing"),
            ("prefix(while:)", 14, "a value is missing after 'while:'"),
            ("(x)", 1, "expected an operator name"),
            ("map(x @ 1)", 7, "unexpected '@'"),
            ("contains(\"a)", 10, "unterminated string"),
        ])
    func chainErrors(chain: String, column: Int, message: String) {
        #expect {
            try LabChain.parse(chain)
        } throws: { error in
            guard let error = error as? LabError else { return false }
            return error.column == column && error.message.contains(message)
        }
    }

    @Test(
        "operator errors name the operator's usage and point at the token",
        arguments: [
            ("filtr(even)", 1, "did you mean filter?"),
            ("filter(x*2)", 8, "is not a predicate"),
            ("filter(y>2)", 8, "unknown name 'y'"),
            ("map(2*3)", 5, "does not use x"),
            ("prefix(2, 3)", 1, "prefix takes 1 argument"),
            ("prefix(until: b)", 1, "prefix is written"),
            ("debounce(two)", 10, "expected a whole number"),
            ("throttle(3, latest: maybe)", 21, "expected true or false"),
            ("merge(c)", 7, "no row named c"),
            ("flatMap(maxPublishers: lots)", 24, "expected a demand"),
            ("output(in: 3...1)", 12, "backwards"),
            ("collect(0)", 9, "at least 1"),
            ("removeDuplicates(x==y)", 1, "removeDuplicates is written removeDuplicates"),
            ("removeDuplicates(by: x)", 22, "is not a comparison of x and y"),
            ("min(by: x<z)", 11, "unknown name 'z' in a formula: the values are x and y"),
            ("zip(b, x+q)", 10, "unknown name 'q'"),
            ("zip(b, 2)", 8, "uses none of the values x and y"),
            ("merge(b, b, b, b, b, b, b, b)", 1, "merge takes 1 to 7 rows"),
            ("autoconnect", 1, "write it right after multicast"),
            ("count(2)", 1, "count is written count"),
            ("buffer(size: 2, whenFull: dropOldest)", 17, "expected 'prefetch:'"),
            ("flatMap(maxPublishers: none)", 24, "room for one row at least"),
            ("debounce(9999999)", 10, "at most 100000"),
        ])
    func operatorErrors(chain: String, column: Int, message: String) {
        #expect {
            try LabRunner.run(
                LabSetup(diagram: "-1-2-|", chain: chain, inputs: chain.contains("(b") ? [("b", "--x|")] : []))
        } throws: { error in
            guard let error = error as? LabError else { return false }
            return error.column == column && error.message.contains(message)
        }
    }

    // MARK: Formulas

    @Test func formulasEvaluateOnNumbersAndTexts() throws {
        func argument(_ text: String) throws -> LabArgument { try LabChain.parse("f(\(text))")[0].arguments[0] }
        #expect(try LabFormula.transform(argument("x*10")).evaluate(x: LabValue("3")) == .integer(30))
        #expect(try LabFormula.transform(argument("\"a\"+x")).evaluate(x: LabValue("3")) == .text("a3"))
        #expect(try LabFormula.transform(argument("(x+1)*2")).evaluate(x: LabValue("3")) == .integer(8))
        #expect(try LabFormula.predicate(argument("even")).test(LabValue("4")))
        #expect(try !LabFormula.predicate(argument("odd")).test(LabValue("4")))
        #expect(try LabFormula.predicate(argument("x>2 && x!=5")).test(LabValue("3")))
        #expect(try LabFormula.predicate(argument("x%3==0")).test(LabValue("9")))
        #expect(try LabFormula.predicate(argument("x==\"a\"")).test(LabValue("a")))
        #expect(try LabFormula.accumulator(argument("+")).evaluate(x: LabValue("2"), acc: LabValue("5")) == .integer(7))
        #expect(
            try LabFormula.accumulator(argument("acc*10+x")).evaluate(x: LabValue("2"), acc: LabValue("5"))
                == .integer(52))
        #expect(throws: LabEvaluationError.self) {
            try LabFormula.transform(argument("x*10")).evaluate(x: LabValue("a"))
        }
        #expect(throws: LabEvaluationError.self) {
            try LabFormula.transform(argument("x/0")).evaluate(x: LabValue("1"))
        }
    }

    @Test func aValueAFormulaDoesNotApplyToIsANoteNotACrash() throws {
        let result = try LabRunner.run(LabSetup(diagram: "-1-a-|", chain: "map(x*10)"))
        #expect(result.outputDiagram == "-'10'-?-|")
        #expect(
            result.notes == [
                "tick 3: map(x*10): 'a' is not a number (* needs numbers) (the value is shown as ?; the try version fails instead)"
            ])
        let failing = try LabRunner.run(LabSetup(diagram: "-1-a-|", chain: "tryMap(x*10)"))
        #expect(failing.outputDiagram == "-'10'-[;^]--")
    }

    // MARK: Demand

    @Test func demandListsReadWithTheirTicks() throws {
        let demands = try LabDemandList.parse("max(1)@0,max(2)@5, unlimited@7")
        #expect(demands.map(\.tick) == [0, 5, 7])
        #expect(demands.map(\.demand) == [.max(1), .max(2), .unlimited])
        #expect(try LabDemandList.parse("unlimited").map(\.demand) == [.unlimited])
        #expect(try LabDemandList.parse(".max(3)").map(\.demand) == [.max(3)])
    }

    @Test(
        "demand errors point at the column",
        arguments: [
            ("max(1)@0,lots@5", 10, "expected a demand"),
            ("max(1)@x", 8, "expected a tick after @"),
            ("max(1)@0,none@3", 10, "asking for none later"),
            ("max(1)@5000", 8, "from 0 to 1000"),
        ])
    func demandErrors(text: String, column: Int, message: String) {
        #expect {
            try LabDemandList.parse(text)
        } throws: { error in
            guard let error = error as? LabError else { return false }
            return error.column == column && error.message.contains(message)
        }
    }
}
