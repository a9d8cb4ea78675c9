import ComposableArchitecture
import Foundation
import PrimeTimeCore
import Streams
import Testing
import StreamsTesting

/// Bad input never crashes the terminal front end: random lines, keys and command lines (random
/// bytes, invalid UTF-8, huge numbers, control characters, very long input) through the command
/// parser, interactive mode's key input and a running session. Seeded (printed, and in every
/// failure message; `PRIMETIME_FUZZ_SEED` repeats a run) and bounded.
@Suite("Terminal input fuzzing")
struct TerminalInputFuzzTests {
    /// A line of input: a command name with odd arguments, or any mix of awkward text.
    static func randomLine(_ random: inout SplitMix64) -> String {
        if random.int(0...2) == 0 {
            let spec = random.pick(TerminalCommands.table)
            let name = random.int(0...1) == 0 ? spec.name.uppercased() : spec.name
            let arguments = (0..<random.int(0...3)).map { _ in random.awkwardNumber() }
            return ([name] + arguments).joined(separator: random.pick([" ", "\t", "  "]))
        }
        return (0..<random.int(1...5)).map { _ in random.awkwardText() }.joined()
    }

    @Test func theCommandParserAnswersEveryLine() async {
        // A long synchronous loop: on a dedicated thread, so that it does not starve the tests
        // that wait for tasks meanwhile (see `onDedicatedThread`).
        await onDedicatedThread {
            let seed = fuzzSeed("theCommandParserAnswersEveryLine")
            var random = SplitMix64(seed: seed)
            for index in 0..<5_000 {
                let line = Self.randomLine(&random)
                let parsed = TerminalCommands.parse(line)
                #expect(TerminalCommands.parse(line) == parsed, "seed \(seed), case \(index)")
                switch parsed {
                case .nothing:
                    let trimmed = line.trimmingCharacters(in: [" ", "\t", "\r", "\n"])
                    #expect(trimmed.isEmpty || trimmed.hasPrefix("#"), "seed \(seed), case \(index): \(line.debugDescription)")
                case let .invalid(message):
                    #expect(!message.isEmpty, "seed \(seed), case \(index)")
                case let .command(.deleteFavorite(number)):
                    // The number is exactly the argument given.
                    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    #expect(words.count == 2 && Int(words[1].trimmingCharacters(in: ["\r", "\n"])) == number,
                            "seed \(seed), case \(index): \(line.debugDescription)")
                case .command:
                    break
                }
            }
        }
    }

    @Test func theCommandLineParserAnswersEveryArgumentList() async {
        // A long synchronous loop: on a dedicated thread, so that it does not starve the tests
        // that wait for tasks meanwhile (see `onDedicatedThread`).
        await onDedicatedThread {
            let seed = fuzzSeed("theCommandLineParserAnswersEveryArgumentList")
            var random = SplitMix64(seed: seed)
            let options = ["--script", "--favorites-file", "--log-file", "--latency-ms", "--help", "-h",
                           "--test-add-favorites", "--latency-ms=", "--favorites-file=", "--", "-"]
            for index in 0..<3_000 {
                let arguments = (0..<random.int(0...5)).map { _ in
                    random.int(0...1) == 0 ? random.pick(options) : random.awkwardText()
                }
                switch TerminalOptions.parse(arguments) {
                case let .failure(error):
                    #expect(error.description.hasPrefix("PrimeTime: "), "seed \(seed), case \(index): \(arguments)")
                case let .success(parsed):
                    #expect(!parsed.favoritesPath.isEmpty && !parsed.logPath.isEmpty, "seed \(seed), case \(index)")
                    #expect((parsed.latencyMilliseconds ?? 0) >= 0, "seed \(seed), case \(index)")
                }
            }
        }
    }

    /// Random bytes, as a raw-mode terminal delivers them, through interactive mode's key input
    /// into a running app: nothing crashes, and the state stays sound.
    @MainActor
    @Test func interactiveKeysNeverBreakTheApp() async {
        let seed = fuzzSeed("interactiveKeysNeverBreakTheApp")
        var random = SplitMix64(seed: seed)
        let file = FileStub()
        let environment = AppEnvironment(
            nthPrime: { Effect(value: Primes.nth($0)) },
            mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
            favoritesFile: file.client,
            now: { Date(timeIntervalSince1970: 0) },
            log: { _ in })
        // Small counts, so that "is this prime?" and "save" find primes to save.
        let keys: [[UInt8]] = ["+", "-", "p", "s", "r", "n", "d", "f", "c", "l", "h", "q", ":", "\r", "\u{1B}", "\u{7F}",
                               "\u{4}", ":del 1\r", ":del 99999999999999999999\r", ":save-file\r", ":load\r"].map { Array($0.utf8) }
        for run in 0..<40 {
            let session = TerminalSession(environment: environment)
            for task in session.launch() { await task.finish() }
            var input = TerminalKeyInput()
            for _ in 0..<100 {
                let bytes = random.int(0...2) == 0 ? random.bytes(random.int(0...8)) : random.pick(keys)
                for parsed in input.receive(bytes) {
                    for task in session.run(parsed).tasks { await task.finish() }
                }
                _ = session.lines()
            }
            let favorites = session.store.state.favoritePrimes
            #expect(favorites.allSatisfy(Primes.isPrime), "seed \(seed), run \(run): \(favorites)")
            #expect(Set(favorites).count == favorites.count, "seed \(seed), run \(run): \(favorites)")
        }
    }
}
