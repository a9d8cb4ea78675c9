import Foundation
import StreamsTesting
import Testing

@testable import MarblesLab

/// The interactive lab, driven line by line, and the built `Marbles` executable driven through
/// a pipe.
@Suite("Marbles: the interactive lab", .timeLimit(.minutes(1)))
struct InteractiveTests {
    /// The `Marbles` executable in the build products directory, next to the tests.
    static var executable: URL? {
        var candidates: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let path = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            candidates += [
                runner.deletingLastPathComponent(), runner.deletingLastPathComponent().deletingLastPathComponent(),
            ]
        }
        return candidates.map { $0.appendingPathComponent("Marbles") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the executable with `arguments`, its standard input a pipe that carries `input`.
    static func run(_ arguments: [String], input: String = "") throws -> Run {
        let url: URL = try #require(Self.executable, "Marbles not found next to the tests")
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errors, as: UTF8.self))
    }

    @Test func theREPLThroughAPipe() throws {
        let run = try Self.run(
            [],
            input: """
                -1-2-3-4-|
                filter(even)
                :input b=---a-b-|
                zip(b)
                :demand max(1)@0,max(1)@4
                map(x*10)
                filter(
                :example removeDuplicates
                :nonsense
                :quit
                map(x+1)

                """)
        #expect(run.status == 0)
        #expect(run.errors == "")
        let output = run.output
        #expect(output.contains("upstream: -1-2-3-4-|   (now type an operator, such as filter(even))"))
        #expect(
            output.contains(
                """
                upstream: -1-2-3-4-|
                          filter(even)
                output:   ---2---4-|
                """))
        #expect(output.contains("output:   ---c-d-[;|]--   (c = (1, a), d = (2, b))"))
        #expect(output.contains("you asked:         1---1-----"))
        #expect(output.contains("asked of upstream: 1---1-----"))
        #expect(output.contains("error: '(' is not closed: add ')'"))
        #expect(output.contains("The docs' diagram (marble-removeDuplicates"))
        #expect(output.contains("error: unknown command :nonsense (:help lists them)"))
        #expect(!output.contains("map(x+1)"), "after :quit nothing runs")
    }

    @Test func theREPLRunsColdRowsAndSeveralSubscribersThroughAPipe() throws {
        let run = try Self.run(
            [],
            input: """
                -1-2-#
                :cold
                retry(2)
                :cold off
                -1-2-3-4-|
                :subscribe-at 0,4
                share
                :subscribe-at 0,x

                """)
        #expect(run.status == 0)
        #expect(
            run.output.contains(
                """
                upstream (cold): -1-2-^
                                 retry(2)
                output:          -1-2--1-2--1-2-^
                """))
        #expect(run.output.contains("every row is hot"))
        #expect(run.output.contains("subscriber 2:     -3-4-|   (subscribes at tick 4; missed 1, 2)"))
        #expect(run.output.contains("error: :subscribe-at: expected a tick, a whole number from 0 to 1000; found 'x'"))
    }

    @Test func theOneShotFormAndItsExitStatus() throws {
        let run = try Self.run(["filter(even)", "-1-2-3-4-|"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                upstream: -1-2-3-4-|
                          filter(even)
                output:   ---2---4-|

                """)
        let bad = try Self.run(["filter(even)", "-1-2-?-|"])
        #expect(bad.status == 2)
        #expect(bad.output == "")
        #expect(
            bad.errors == """
                error: in the diagram: unexpected '?' in the diagram (a value is a letter or a digit; 'text' is a longer one)
                  -1-2-?-|
                       ^ column 6

                """)
        let unknown = try Self.run(["--frobnicate", "x"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("unknown option --frobnicate"))
    }

    @Test func theSessionKeepsItsRowsAndSettings() {
        var written = ""
        var session = LabSession { written += $0 }
        let step1 = session.handle(":input b=--x|")
        #expect(step1)
        let step2 = session.handle(":cancel-at 3")
        #expect(step2)
        #expect(session.setup.inputs.map(\.name) == ["b"])
        #expect(session.setup.cancelAt == 3)
        let step3 = session.handle(":cancel-at off")
        #expect(step3)
        #expect(session.setup.cancelAt == nil)
        let step4 = session.handle(":inputs")
        #expect(step4)
        #expect(session.setup.inputs.isEmpty)
        let step5 = session.handle(":quit")
        #expect(!step5)
        #expect(session.looksLikeOperator("first"))
        #expect(session.looksLikeOperator("map(x*10) | debounce(2)"))
        #expect(!session.looksLikeOperator("-a-b-|"))
        #expect(!session.looksLikeOperator("abc"))
    }
}

/// `--svg FILE`: the picture the docs use, drawn by `MarbleSVG` from the same rows.
@Suite("Marbles: pictures")
struct PictureTests {
    @Test func svgWritesTheDocsPictureOfTheRows() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: file) }
        var output = ""
        var errors = ""
        let status = MarblesCommand.run(
            ["map(x*10)", "-1-2-|", "--demand", "max(1)@0,unlimited@3", "--svg", file.path],
            readLine: { nil }, write: { output += $0 }, writeError: { errors += $0 })
        #expect(status == 0, "\(errors)")
        let svg = try String(contentsOf: file, encoding: .utf8)
        let rows = """
            upstream:          -1-2-|
                               map(x*10)
            output:            -a-b-|   (a = 10, b = 20)
            you asked:         1--'∞'--
            asked of upstream: 1--'∞'--
            """
        #expect(svg == MarbleSVG.render(MarbleBlock(rows), title: "map(x*10)"))
        #expect(svg.hasPrefix("<svg"))
        #expect(output.contains("you asked:         1--∞--"))
    }
}
