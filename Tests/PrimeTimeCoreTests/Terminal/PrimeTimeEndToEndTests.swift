import Foundation
import PrimeTimeCore
import Testing

/// Runs the built `PrimeTime` executable (``PrimeTimeExecutable``) in line mode and checks its
/// output, exit status and the favorites file.
@Suite("PrimeTime end to end", .timeLimit(.minutes(1)))
struct PrimeTimeEndToEndTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        /// The output's lines (without the empty one after the last line end).
        var lines: [String] {
            var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// Runs PrimeTime with `arguments` (and standard input from `input`, not a terminal).
    func run(_ arguments: [String], input: String = "") throws -> Run {
        let executable = try #require(PrimeTimeExecutable.url, "PrimeTime not found next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                   errors: String(decoding: errors, as: UTF8.self))
    }

    @Test func aScriptSavesFavoritesAndAnswersTheNthPrime() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        let log = directory.appendingPathComponent("primetime.log")
        let result = try run([
            "--favorites-file", favorites.path, "--log-file", log.path, "--latency-ms", "0",
            "--script", "inc; inc; prime; save; dismiss; + ; +; +; prime; save; d; nth; d; log; favorites",
        ])
        #expect(result.status == 0)
        #expect(result.errors == "")
        let lines = result.lines
        #expect(lines.prefix(3) == ["== Counter ==", "Count: 0", "Favorites: 0 | Log: off"])
        #expect(lines.contains("2 is prime, and a favorite.  (remove)"))
        #expect(lines.contains("The 5th prime is 11.  (dismiss)"))
        #expect(Array(lines.suffix(8)) == [
            "> favorites", "== Favorite primes ==", "1. 2", "2. 5", "Activity:", "  + 2 added", "  + 5 added",
            "Favorites: 2 | Log: on",
        ])
        // The missing file started empty, then every change was autosaved.
        #expect(try String(contentsOf: favorites, encoding: .utf8) == "[2,5]")
        // Logging was on for "log" and "favorites": the log has them, flushed before exit.
        let logText = try String(contentsOf: log, encoding: .utf8)
        #expect(logText.contains("loggingToggled"))
        #expect(logText.contains("screenSelected"))
    }

    @Test func commandsFromStandardInputAndAnExistingFile() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        try Data("[3,7]".utf8).write(to: favorites)
        let result = try run(["--favorites-file", favorites.path, "--latency-ms", "0"],
                             input: "favorites\ndel 1\nxyz\ncounter\n")
        #expect(result.status == 1)  // "xyz" was unknown; the other commands ran.
        #expect(result.lines.contains("! Unknown command \"xyz\". Type \"help\" for the list."))
        #expect(result.lines.contains("1. 7"))
        #expect(try String(contentsOf: favorites, encoding: .utf8) == "[7]")
    }

    @Test func aCorruptFileIsReportedAndLeftByteForByteUntouched() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        let corrupt = Data("[2, 3, oops".utf8)
        try corrupt.write(to: favorites)
        let result = try run(["--favorites-file", favorites.path, "--latency-ms", "0",
                              "--script", "inc; inc; prime; save; dismiss; favorites"])
        #expect(result.status == 0)
        #expect(result.lines.contains { $0.hasPrefix("Message: The favorites file \(favorites.path) is not valid JSON") })
        // The favorite saved in memory is listed, the message stays until dismissed, nothing was written.
        let shown = Array(result.lines.suffix(6))
        #expect(shown.count == 6)
        #expect(Array(shown.prefix(4)) == ["== Favorite primes ==", "1. 2", "Activity:", "  + 2 added"])
        #expect(shown.dropFirst(4).first?.hasPrefix("Message: The favorites file") == true)
        #expect(shown.last == "Favorites: 1 | Log: off")
        #expect(try Data(contentsOf: favorites) == corrupt)

        // Saving explicitly overwrites it.
        let saved = try run(["--favorites-file", favorites.path, "--script", "favorites; save-file"])
        #expect(saved.status == 0)
        #expect(try String(contentsOf: favorites, encoding: .utf8) == "[]")
    }

    @Test func aCorruptFileIsCopiedAsideAndTheMessageSaysWhere() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        let corrupt = Data([0x5B, 0x32, 0xFF, 0xFE, 0x5D])  // "[2", invalid UTF-8, "]"
        try corrupt.write(to: favorites)
        let result = try run(["--favorites-file", favorites.path, "--script", "favorites; save-file"])
        #expect(result.status == 0)
        #expect(result.lines.contains { $0.hasPrefix("Message: The favorites file \(favorites.path) is not valid JSON")
            && $0.contains("A copy is kept at \(favorites.path).corrupt.") })
        // The explicit save replaced the file; the copy has the old bytes.
        #expect(try String(contentsOf: favorites, encoding: .utf8) == "[]")
        #expect(try Data(contentsOf: URL(fileURLWithPath: favorites.path + ".corrupt")) == corrupt)
    }

    @Test func aWriteFailureIsShownAndKeepsTheFavoritesInMemory() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A file inside a directory that does not exist cannot be written.
        let favorites = directory.appendingPathComponent("missing/favorites.json")
        let result = try run(["--favorites-file", favorites.path, "--script", "inc; inc; prime; save; dismiss; favorites"])
        #expect(result.status == 0)
        #expect(result.lines.contains { $0.hasPrefix("Message: Could not save the favorites to \(favorites.path)")
            && $0.contains("Create the folder (or choose another file with --favorites-file), then save again.") })
        #expect(result.lines.suffix(7).contains("1. 2"))
    }

    @Test func helpDocumentsEverythingAndExitsZero() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        #expect(result.output == TerminalHelp.text)
        for spec in TerminalCommands.table { #expect(result.output.contains(spec.usage)) }
        for option in ["--favorites-file", "--log-file", "--latency-ms", "--script", "favorite-primes.json"] {
            #expect(result.output.contains(option))
        }
    }

    @Test func aBadOptionExitsTwoWithAMessage() throws {
        let result = try run(["--frobnicate"])
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.errors == "PrimeTime: Unknown option \"--frobnicate\". Try \"PrimeTime --help\".\n")
    }
}
