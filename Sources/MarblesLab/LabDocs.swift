import Foundation
import StreamsTesting

/// The docs' own marble diagrams, read from the package's sources: the ```text block after the
/// `<!-- marble NAME ... -->` annotation (Scripts/extract-marbles reads the same blocks).
enum LabDocs {
    /// The package's root: three folders up from this file (Sources/MarblesLab/LabDocs.swift).
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// A doc diagram: where it is, its annotation's options, and its block.
    struct Diagram {
        let file: String
        let name: String
        let options: [String]
        let text: String

        var block: MarbleBlock { MarbleBlock(text) }

        /// The output row (the option `row=N`, else the row labelled `output`, else the last) and
        /// the input rows right before it, back to the previous output row (`inputs=N`: the first N).
        func rows() -> (inputs: [MarbleBlock.Row], output: MarbleBlock.Row)? {
            let rows = block.diagramRows
            var outputIndex = rows.firstIndex { $0.label == "output" } ?? rows.count - 1
            if let row = options.first(where: { $0.hasPrefix("row=") }).flatMap({ Int($0.dropFirst(4)) }) {
                outputIndex = row - 1
            }
            guard rows.indices.contains(outputIndex) else { return nil }
            if let count = options.first(where: { $0.hasPrefix("inputs=") }).flatMap({ Int($0.dropFirst(7)) }) {
                return (Array(rows.prefix(count)), rows[outputIndex])
            }
            var inputs: [MarbleBlock.Row] = []
            for candidate in rows[..<outputIndex].reversed() {
                if candidate.label == "output" {
                    if inputs.isEmpty { continue } else { break }
                }
                inputs.insert(candidate, at: 0)
            }
            return (inputs, rows[outputIndex])
        }
    }

    /// The one-shot command line that runs `chain` on a doc diagram's own rows: the row labelled
    /// `upstream` (else the first input row) is the upstream, the others are named by their
    /// labels, and the annotation's `demand=N` and `demand=N@T` become `--demand`.
    static func arguments(_ diagram: Diagram, chain: String) -> [String]? {
        guard let (inputs, _) = diagram.rows(), !inputs.isEmpty else { return nil }
        let block = diagram.block
        let main = inputs.first { $0.label == "upstream" } ?? inputs[0]
        guard let mainDiagram = try? block.resolvedDiagram(of: main) else { return nil }
        var arguments = [chain, mainDiagram]
        for row in inputs where row != main {
            guard let label = row.label, let rowDiagram = try? block.resolvedDiagram(of: row) else { return nil }
            arguments.append("--input=\(label)=\(rowDiagram)")
        }
        let demands = diagram.options.filter { $0.hasPrefix("demand=") }.map { option -> String in
            let value = option.dropFirst("demand=".count)
            let parts = value.split(separator: "@")
            return "max(\(parts[0]))" + (parts.count == 2 ? "@\(parts[1])" : "@0")
        }
        if !demands.isEmpty { arguments += ["--demand", demands.joined(separator: ",")] }
        return arguments
    }

    /// The doc diagram named `name`, or `nil` when the sources are not where they were built.
    static func diagram(named name: String) -> Diagram? {
        let sources = root.appendingPathComponent("Sources/Streams")
        guard let files = FileManager.default.enumerator(atPath: sources.path) else { return nil }
        let annotation = "<!-- marble \(name)"
        for case let path as String in files where path.hasSuffix(".swift") {
            guard let contents = try? String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8),
                contents.contains(annotation + " ") || contents.contains(annotation + ":")
            else { continue }
            let lines = contents.components(separatedBy: "\n").map { line -> String in
                let trimmed = line.drop { $0 == " " }
                guard trimmed.hasPrefix("///") else { return "" }
                let text = trimmed.dropFirst(3)
                return String(text.first == " " ? text.dropFirst() : text)
            }
            guard
                let start = lines.firstIndex(where: { $0.hasPrefix(annotation + " ") || $0.hasPrefix(annotation + ":") }
                )
            else { continue }
            let spec = lines[start].dropFirst(annotation.count)
            let options = spec.prefix { $0 != ":" }.split(separator: " ").map(String.init)
            guard let open = lines[start...].firstIndex(of: "```text"),
                let close = lines[(open + 1)...].firstIndex(of: "```")
            else { continue }
            return Diagram(
                file: "Sources/Streams/" + path, name: name, options: options,
                text: lines[(open + 1)..<close].joined(separator: "\n"))
        }
        return nil
    }
}
