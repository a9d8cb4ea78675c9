import PrimeTimeCore
import Testing

@Suite("Terminal commands and options")
struct TerminalCommandTests {
    // MARK: - Parsing commands

    @Test(arguments: [
        ("+", TerminalCommand.increment), ("inc", .increment), ("-", .decrement), ("dec", .decrement),
        ("p", .isThisPrime), ("prime", .isThisPrime), ("s", .saveFavorite), ("save", .saveFavorite),
        ("r", .removeFavorite), ("remove", .removeFavorite), ("n", .nthPrime), ("nth", .nthPrime),
        ("d", .dismiss), ("dismiss", .dismiss), ("f", .showFavorites), ("favorites", .showFavorites),
        ("c", .showCounter), ("counter", .showCounter), ("del 2", .deleteFavorite(number: 2)),
        ("save-file", .saveFile), ("load", .loadFile), ("l", .toggleLog), ("log", .toggleLog),
        ("h", .help), ("help", .help), ("q", .quit), ("quit", .quit),
    ])
    func everyKeyAndNameParses(input: String, command: TerminalCommand) {
        #expect(TerminalCommands.parse(input) == .command(command))
    }

    @Test func caseAndSurroundingSpacesDoNotMatter() {
        #expect(TerminalCommands.parse("  INC \t") == .command(.increment))
        #expect(TerminalCommands.parse("Del   3") == .command(.deleteFavorite(number: 3)))
    }

    @Test func emptyLinesAndCommentsAreNothing() {
        #expect(TerminalCommands.parse("") == .nothing)
        #expect(TerminalCommands.parse("   ") == .nothing)
        #expect(TerminalCommands.parse("# a comment") == .nothing)
    }

    @Test func unknownCommandsGetAMessage() {
        #expect(TerminalCommands.parse("xyz")
                == .invalid(message: "Unknown command \"xyz\". Type \"help\" for the list."))
        #expect(TerminalCommands.parse("incc")
                == .invalid(message: "Unknown command \"incc\". Type \"help\" for the list."))
    }

    @Test func argumentsAreChecked() {
        #expect(TerminalCommands.parse("inc 2")
                == .invalid(message: "\"inc\" takes no argument. Type \"help\" for the list."))
        let usage = ParsedInput.invalid(message: "Usage: del N (a number, as listed). Type \"help\" for the list.")
        #expect(TerminalCommands.parse("del") == usage)
        #expect(TerminalCommands.parse("del two") == usage)
        #expect(TerminalCommands.parse("del 1 2") == usage)
    }

    @Test func keysParseOnlyForCommandsWithAKey() {
        #expect(TerminalCommands.parse(key: "+") == .command(.increment))
        #expect(TerminalCommands.parse(key: "N") == .command(.nthPrime))
        #expect(TerminalCommands.parse(key: "x") == .invalid(message: "Unknown key \"x\". Press \"h\" for help."))
        #expect(TerminalCommands.parse(key: "\u{7}") == .invalid(message: "Unknown key \"\\u{7}\". Press \"h\" for help."))
    }

    /// Each command starts an entry of its own (a long summary continues on the lines under it,
    /// to fit 80 columns: see TerminalLayoutTests).
    @Test func theHelpListsEveryCommandOnce() {
        let help = TerminalCommands.helpLines
        let entries = help.filter { !$0.hasPrefix("      ") }
        #expect(entries.count == TerminalCommands.table.count)
        for (line, spec) in zip(entries, TerminalCommands.table) {
            #expect(line.hasPrefix("  \(spec.usage)"))
            #expect(line.contains(spec.summary.split(separator: " ").prefix(2).joined(separator: " ")))
        }
        #expect(help[0].hasPrefix("  +  inc"))
        #expect(TerminalHelp.lines.contains(where: { $0.contains("del N") }))
    }

    /// Issue 24: `del 99999999999999999999` said "Usage: del N (a number, as listed)", as if no
    /// number had been typed.
    @Test func numbersTooLargeSaySo() throws {
        #expect(TerminalCommands.parse("del 99999999999999999999")
                == .invalid(message: "There is no favorite number 99999999999999999999: the number is too large."))
        #expect(TerminalCommands.parse("del -99999999999999999999")
                == .invalid(message: "There is no favorite number -99999999999999999999: favorites are numbered from 1."))
        let huge = String(repeating: "9", count: 2_000)
        #expect(TerminalCommands.parse("del \(huge)")
                == .invalid(message: "There is no favorite number \(String(repeating: "9", count: 39))…: the number is too large."))
        #expect(TerminalCommands.parse("del 9223372036854775807") == .command(.deleteFavorite(number: .max)))
        #expect(TerminalOptions.parse(["--latency-ms", "99999999999999999999"]) == .failure(TerminalOptionsError(
            "--latency-ms 99999999999999999999 is too large: at most 600000 (ten minutes).")))
        #expect(TerminalOptions.parse(["--latency-ms", "600001"]) == .failure(TerminalOptionsError(
            "--latency-ms 600001 is too large: at most 600000 (ten minutes).")))
        #expect(try TerminalOptions.parse(["--latency-ms", "600000"]).get().latencyMilliseconds == 600_000)
    }

    // MARK: - Options

    @Test func defaultOptions() throws {
        let options = try TerminalOptions.parse([]).get()
        #expect(options == TerminalOptions())
        #expect(options.favoritesFile.lastPathComponent == "favorite-primes.json")
        #expect(options.logFile.lastPathComponent == "primetime.log")
    }

    @Test func everyOption() throws {
        let options = try TerminalOptions.parse([
            "--favorites-file", "/tmp/f.json", "--log-file=/tmp/l.log", "--latency-ms", "0",
            "--script", "inc; nth", "--help",
        ]).get()
        #expect(options.favoritesFile.path == "/tmp/f.json")
        #expect(options.logFile.path == "/tmp/l.log")
        #expect(options.latencyMilliseconds == 0)
        #expect(options.script == "inc; nth")
        #expect(options.showHelp)
    }

    @Test func badOptionsSayWhatIsWrong() {
        #expect(TerminalOptions.parse(["--frobnicate"]) == .failure(TerminalOptionsError("Unknown option \"--frobnicate\".")))
        #expect(TerminalOptions.parse(["--script"]) == .failure(TerminalOptionsError("--script needs a value.")))
        #expect(TerminalOptions.parse(["--latency-ms", "-1"])
                == .failure(TerminalOptionsError("--latency-ms needs a number of milliseconds (0 or more), not \"-1\".")))
        #expect(TerminalOptionsError("x").description == "PrimeTime: x Try \"PrimeTime --help\".")
    }

    @Test func theTestOnlyOptionsParseButAreNotInTheHelp() throws {
        #expect(try TerminalOptions.parse(["--test-save-loop"]).get().testMode == .saveLoop)
        #expect(try TerminalOptions.parse(["--test-add-favorites", "2, 3,5"]).get().testMode == .addFavorites([2, 3, 5]))
        #expect(TerminalOptions.parse(["--test-add-favorites", "2,x"])
                == .failure(TerminalOptionsError("--test-add-favorites needs comma-separated numbers, not \"2,x\".")))
        #expect(try TerminalOptions.parse([]).get().testMode == nil)
        #expect(!TerminalHelp.text.contains("--test-"))
    }

    @Test func scriptLinesSplitOnSemicolonsAndLineEnds() {
        #expect(TerminalOptions.scriptLines("inc; inc\nprime ;; \r\nsave") == ["inc", "inc", "prime", "save"])
        #expect(TerminalOptions.scriptLines("") == [])
    }
}
