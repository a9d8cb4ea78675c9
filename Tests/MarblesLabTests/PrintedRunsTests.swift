import Foundation
@testable import MarblesLab
import Testing

/// The runs README.md and the article *Explore with Marbles* print: each `$ swift run Marbles ...`
/// of a ```` ```console ```` block is run again, and its output compared with the lines after it.
@Suite("Marbles: the runs the docs print")
struct PrintedRunsTests {
    struct PrintedRun: CustomStringConvertible {
        let file: String
        let command: String
        let output: String
        var description: String { "\(file): \(command)" }
    }

    static let files = ["README.md", "Sources/Streams/Streams.docc/ExploreWithMarbles.md"]

    static var runs: [PrintedRun] {
        var runs: [PrintedRun] = []
        for file in files {
            guard let text = try? String(contentsOf: LabDocs.root.appendingPathComponent(file), encoding: .utf8) else { continue }
            var inBlock = false
            var command: String?
            var output: [String] = []
            func finish() {
                if let command { runs.append(PrintedRun(file: file, command: command, output: output.joined(separator: "\n"))) }
                command = nil
                output = []
            }
            for line in text.components(separatedBy: "\n") {
                if !inBlock {
                    inBlock = line == "```console"
                    continue
                }
                if line == "```" {
                    finish()
                    inBlock = false
                } else if line.hasPrefix("$ swift run Marbles") {
                    finish()
                    command = line
                } else if command != nil {
                    output.append(line)
                }
            }
        }
        return runs
    }

    /// Splits a command line as a POSIX shell does for words, '...' and "..." (no variables).
    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    @Test func theDocsPrintRuns() {
        #expect(Self.runs.filter { $0.file == "README.md" }.count >= 2)
        #expect(Self.runs.filter { $0.file != "README.md" }.count >= 10)
    }

    @Test("each printed run prints the same today", arguments: runs)
    func printedRun(_ run: PrintedRun) {
        let arguments = Array(Self.words(run.command).dropFirst(4))  // "$ swift run Marbles"
        guard !arguments.contains("--svg") else { return }  // writes a file; the picture test covers it
        var output = "", errors = ""
        let status = MarblesCommand.run(arguments, readLine: { nil }, write: { output += $0 }, writeError: { errors += $0 })
        #expect(status == 0, "\(errors)")
        #expect(output.trimmingCharacters(in: .newlines) == run.output.trimmingCharacters(in: .newlines),
                "\(run.file) prints for \(run.command):\n\(run.output)\n\nit prints today:\n\(output)")
    }
}
