import StreamsTesting
import Testing

@testable import MarblesLab

/// Closures that take two values or more (`removeDuplicates(by: x==y)`, `min(by: x<y)`,
/// `zip(b, x+y)`), and `merge` of every arity the library has: printed exactly as the one-shot
/// form prints them, and the errors that point at the token.
@Suite("Marbles: closures of several values, and merge of up to eight rows")
struct SeveralValuesTests {
    static func oneShot(_ arguments: String...) -> OperatorCoverageTests.OneShot {
        OperatorCoverageTests.oneShot(arguments)
    }

    @Test func removeDuplicatesByComparesTheValuePassedOnBeforeWithTheNewOne() {
        let run = Self.oneShot("removeDuplicates(by: x%2==y%2)", "-1-3-2-4-5-|")
        #expect(run.status == 0)
        #expect(
            run.output == """
                upstream: -1-3-2-4-5-|
                          removeDuplicates(by: x%2==y%2)
                output:   -1---2---5-|

                """)
        // An operator alone is `x OP y`, as Swift's `removeDuplicates(by: ==)`.
        #expect(Self.oneShot("removeDuplicates(by: ==)", "-1-1-2-2-1-|").output.contains("output:   -1---2---1-|"))
    }

    @Test func minAndMaxByOrderByTheComparison() {
        let run = Self.oneShot("min(by: x%10<y%10)", "-'25'-'13'-'41'-|")
        #expect(run.status == 0)
        #expect(
            run.output == """
                upstream: -a-b-c-|
                          min(by: x%10<y%10)
                output:   -------[c|]   (a = 25, b = 13, c = 41)

                """)
        #expect(Self.oneShot("max(by: x%10<y%10)", "-'25'-'13'-'41'-|").output.contains("output:   -------[a|]"))
        #expect(Self.oneShot("max(by: <)", "-3-1-2-|").output.contains("output:   -------[3|]"))
        #expect(Self.oneShot("min(by: >)", "-3-1-2-|").output.contains("output:   -------[3|]"))
    }

    @Test func theTryVersionsFailWhereTheComparisonDoesNotApply() {
        #expect(Self.oneShot("tryMin(by: x<y)", "-1-2-x-3-|").output.contains("output:   -----[;^]----"))
        #expect(
            Self.oneShot("tryRemoveDuplicates(by: x-y==0)", "-1-1-2-x-3-|").output.contains("output:   -1---2-[;^]----")
        )
        let note = Self.oneShot("removeDuplicates(by: x<y)", "-1-a-|")
        #expect(note.output.contains("note: tick 3: removeDuplicates(by:): 'a' is not a number (< needs numbers)"))
    }

    @Test func zipAndCombineLatestWithATransformOfEveryRowsValue() {
        let zip = Self.oneShot("zip(b, x+y)", "-1-2-3-|", "--input", "b=---4-5--|")
        #expect(zip.status == 0)
        #expect(
            zip.output == """
                upstream: -1-2-3-|
                b:        ---4-5--|
                          zip(b, x+y)
                output:   ---5-7--|

                """)
        let latest = Self.oneShot(
            "combineLatest(b, c, x*y+z)", "-1---2---|", "--input", "b=---3---4-|", "--input", "c=--5------|")
        #expect(
            latest.output == """
                upstream: -1---2---|
                b:        ---3---4-|
                c:        --5------|
                          combineLatest(b, c, x*y+z)
                output:   ---8-a-d-|   (a = 11, d = 13)

                """)
    }

    @Test func aFormulaIsTheLastArgumentAndARowNameIsNot() throws {
        #expect(LabOperators.key(of: try LabChain.parse("zip(b, x+y)")[0]) == "zip(_:transform:)")
        #expect(LabOperators.key(of: try LabChain.parse("zip(b, x)")[0]) == "zip(_:transform:)")
        #expect(LabOperators.key(of: try LabChain.parse("zip(b, c)")[0]) == "zip(_:)")
        #expect(LabOperators.key(of: try LabChain.parse("combineLatest(b)")[0]) == "combineLatest(_:)")
        func argument(_ text: String) throws -> LabArgument { try LabChain.parse("f(\(text))")[0].arguments[0] }
        #expect(try LabFormula.comparison(argument("<")).test(LabFormula.values(["1", "2"])))
        #expect(
            try LabFormula.combination(argument("x+y+z"), count: 3).evaluate(LabFormula.values(["1", "a", "2"]))
                == .text("1a2"))
        #expect(throws: LabEvaluationError.self) {
            try LabFormula.comparison(argument("x<y")).test(LabFormula.values(["1", "a"]))
        }
    }

    @Test(
        "errors in a formula of several values point at the token, exit status 2",
        arguments: [
            ("zip(b, x+q)", 10, "unknown name 'q' in a formula: the values are x and y"),
            ("zip(b, c, x+y+w)", 15, "unknown name 'w' in a formula: the values are x, y and z"),
            ("combineLatest(b, 7)", 18, "uses none of the values x and y"),
            ("removeDuplicates(by: x+1)", 22, "is not a comparison of x and y"),
            ("max(by: x<)", 11, "ends too early"),
            ("min(by x<y)", 1, "min is written min or min(by: COMPARISON)"),
        ])
    func formulaErrors(chain: String, column: Int, message: String) {
        let run = OperatorCoverageTests.oneShot([chain, "-1-2-|", "--input", "b=--3|", "--input", "c=-4|"])
        #expect(run.status == 2)
        #expect(run.output == "")
        #expect(run.errors.hasPrefix("error: ") && run.errors.contains(message), "\(run.errors)")
        let caret = String(repeating: " ", count: column - 1) + "^ column \(column)"
        #expect(run.errors.hasSuffix("  \(chain)\n  \(caret)\n"), "\(run.errors)")
    }

    @Test func mergeTakesEveryArityTheLibraryHas() {
        let four = Self.oneShot(
            "merge(b, c, d, e)", "-1-----|", "--input", "b=--2----|", "--input", "c=---3---|", "--input", "d=----4--|",
            "--input", "e=-----5-|")
        #expect(four.status == 0)
        #expect(
            four.output == """
                upstream: -1-----|
                b:        --2----|
                c:        ---3---|
                d:        ----4--|
                e:        -----5-|
                          merge(b, c, d, e)
                output:   -12345-|

                """)
        let names = ["b", "c", "d", "e", "f", "g", "h"]
        for count in 1...LabOperators.mergeArity {
            let rows = names.prefix(count).enumerated().map {
                "--input=\($1)=" + String(repeating: "-", count: $0 + 2) + "\($0 + 2)|"
            }
            let run = OperatorCoverageTests.oneShot(
                ["merge(with: \(names.prefix(count).joined(separator: ", ")))", "-1|"] + rows)
            #expect(run.status == 0, "\(run.errors)")
            let expected = "-" + (1...(count + 1)).map(String.init).joined() + "|"
            #expect(run.output.contains("output:   \(expected)"), "\(run.output)")
        }
        let eight = OperatorCoverageTests.oneShot(
            ["merge(b, c, d, e, f, g, h, b)", "-1|"] + names.map { "--input=\($0)=-|" })
        #expect(eight.status == 2)
        #expect(eight.errors.contains("merge takes 1 to 7 rows"))
    }
}
