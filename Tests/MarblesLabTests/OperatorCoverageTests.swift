import Foundation
@testable import MarblesLab
import StreamsTesting
import Testing

/// Every operator of `--list`, run through the one-shot form (as `swift run Marbles` runs it), and
/// compared with the operator's own doc diagram where it has one.
@Suite("Marbles: every operator of --list")
struct OperatorCoverageTests {
    struct OneShot {
        var status: Int32
        var output: String
        var errors: String
    }

    static func oneShot(_ arguments: [String]) -> OneShot {
        var output = "", errors = ""
        let status = MarblesCommand.run(arguments, readLine: { nil }, write: { output += $0 }, writeError: { errors += $0 })
        return OneShot(status: status, output: output, errors: errors)
    }

    /// The ticks of the printed `output:` row, its legend applied.
    static func outputTicks(_ printed: String) throws -> [[Marbles.Event]] {
        let line = try #require(printed.split(separator: "\n").first { $0.hasPrefix("output:") }, "no output row in:\n\(printed)")
        var diagram = String(line.dropFirst("output:".count))
        var comment = ""
        if let range = diagram.range(of: "   (") {
            comment = String(diagram[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
            diagram = String(diagram[..<range.lowerBound])
        }
        let block = MarbleBlock("output: " + diagram.filter { $0 != " " } + "   " + comment)
        let row = try #require(block.diagramRows.first)
        return try block.ticks(of: row)
    }

    static func trimmed(_ ticks: [[Marbles.Event]]) -> [[Marbles.Event]] {
        Array(ticks.reversed().drop(while: \.isEmpty).reversed())
    }

    static func arguments(_ example: LabExample, diagram: String? = nil, inputs: [(name: String, diagram: String)]? = nil) -> [String] {
        [example.chain, diagram ?? example.diagram] + (inputs ?? example.inputs).map { "--input=\($0.name)=\($0.diagram)" }
    }

    @Test("each operator's example runs in the one-shot form", arguments: LabOperators.all.map(\.key))
    func runs(_ key: String) throws {
        let item = try #require(LabOperators.byKey[key])
        let run = Self.oneShot(Self.arguments(item.example))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors == "")
        #expect(!run.output.contains("note:"), "\(run.output)")
        _ = try Self.outputTicks(run.output)
    }

    @Test("the one-shot form gives the doc diagram's output",
          arguments: LabOperators.all.filter { $0.example.docMarble != nil }.map(\.key))
    func matchesTheDocs(_ key: String) throws {
        let item = try #require(LabOperators.byKey[key])
        let name = try #require(item.example.docMarble)
        let doc = try #require(LabDocs.diagram(named: name), "no doc diagram marble-\(name)")
        let (inputs, output) = try #require(doc.rows())
        let block = doc.block
        let main = try block.resolvedDiagram(of: try #require(inputs.first))
        let others = try inputs.dropFirst().map { (name: $0.label ?? "", diagram: try block.resolvedDiagram(of: $0)) }
        // The doc's own rows are the example's rows: the example shows the docs' diagram.
        #expect(main == (try block.resolvedDiagram(of: inputs[0])))
        let run = Self.oneShot(Self.arguments(item.example, diagram: main, inputs: others))
        #expect(run.status == 0, "\(run.errors)")
        let expected = try block.ticks(of: output)
        let actual = try Self.outputTicks(run.output)
        #expect(Self.trimmed(actual) == Self.trimmed(expected),
                "\(name) (\(doc.file)):\n\(doc.text)\n\nthe lab printed:\n\(run.output)")
    }

    @Test func listNamesEveryOperator() {
        let run = Self.oneShot(["--list"])
        #expect(run.status == 0)
        for item in LabOperators.all {
            #expect(run.output.contains("  " + item.usage + " "), "\(item.usage) is not in --list")
        }
        #expect(Set(LabOperators.all.map(\.key)).count == LabOperators.all.count)
    }
}
