import Foundation
import StreamsTesting
import Testing

@testable import MarblesLab

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
        var output = ""
        var errors = ""
        let status = MarblesCommand.run(
            arguments, readLine: { nil }, write: { output += $0 }, writeError: { errors += $0 })
        return OneShot(status: status, output: output, errors: errors)
    }

    /// The ticks of the printed `output:` row (`subscriber N:` with several subscribers), its legend applied.
    static func outputTicks(_ printed: String, label: String? = nil) throws -> [[Marbles.Event]] {
        let lines = printed.split(separator: "\n")
        let label = label ?? (lines.contains { $0.hasPrefix("output:") } ? "output:" : "subscriber 1:")
        let line = try #require(lines.first { $0.hasPrefix(label) }, "no \(label) row in:\n\(printed)")
        // The rows start where the first row's diagram does; a late subscriber's row is blank
        // before it subscribes (no event there).
        let width = lines.first.map { first in
            let label = first.prefix { $0 != ":" }.count + 1
            return label + first.dropFirst(label).prefix { $0 == " " }.count
        }
        var diagram = String(line.dropFirst(width ?? label.count))
        let blanks = diagram.prefix { $0 == " " }.count
        diagram = String(repeating: "-", count: blanks) + diagram.dropFirst(blanks)
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

    @Test("each operator's example runs in the one-shot form", arguments: LabOperators.all.map(\.key))
    func runs(_ key: String) throws {
        let item = try #require(LabOperators.byKey[key])
        let run = Self.oneShot(item.example.arguments)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors == "")
        #expect(!run.output.contains("note:"), "\(run.output)")
        _ = try Self.outputTicks(run.output)
    }

    /// The doc diagrams the lab can show: the operators' examples, and the variants of a few.
    static let docDiagrams: [(doc: String, chain: String)] =
        LabOperators.all.compactMap { item in item.example.docMarble.map { ($0, item.example.chain) } } + [
            ("throttle-first", "throttle(3)"),
            ("append-publisher", "append(publisher)"),
            ("prepend-publisher", "prepend(publisher)"),
            ("merge-sameType", "merge(with: other)"),
            ("flatMap-upstreamFails", "flatMap"),
            ("flatMap-innerFails", "flatMap"),
            ("switchToLatest-upstreamFails", "switchToLatest"),
            ("prepend-sequence", "prepend(1, 2)"),
            ("append-sequence", "append(3, 4)"),
            ("zip3-transform", "zip(b, c, x+y+z)"),
            ("zip4-transform", "zip(b, c, d, x+y+z+w)"),
            ("combineLatest3-transform", "combineLatest(b, c, x+y+z)"),
            ("combineLatest4-transform", "combineLatest(b, c, d, x+y+z+w)"),
            ("merge3", "merge(with: b, c)"),
            ("merge4", "merge(with: b, c, d)"),
            ("merge5", "merge(with: b, c, d, e)"),
            ("merge6", "merge(with: b, c, d, e, f)"),
            ("merge7", "merge(with: b, c, d, e, f, g)"),
            ("merge8", "merge(with: b, c, d, e, f, g, h)"),
        ]

    @Test("the one-shot form gives the doc diagram's output", arguments: docDiagrams.map { "\($0.doc): \($0.chain)" })
    func matchesTheDocs(_ entry: String) throws {
        let name = String(entry.prefix { $0 != ":" })
        let chain = String(entry.dropFirst(name.count + 2))
        let doc = try #require(LabDocs.diagram(named: name), "no doc diagram marble-\(name)")
        let (_, output) = try #require(doc.rows())
        let arguments = try #require(LabDocs.arguments(doc, chain: chain))
        let run = Self.oneShot(arguments)
        #expect(run.status == 0, "\(run.errors)")
        let expected = try doc.block.ticks(of: output)
        let actual = try Self.outputTicks(run.output)
        #expect(
            Self.trimmed(actual) == Self.trimmed(expected),
            "\(name) (\(doc.file)):\n\(doc.text)\n\nswift run Marbles \(arguments.map(MarblesCommand.shellQuoted).joined(separator: " ")):\n\(run.output)"
        )
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
