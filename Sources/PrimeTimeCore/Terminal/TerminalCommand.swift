import Foundation

// The terminal front end's commands: one table that is the single source for parsing keys and
// command lines, for the help screen and for `--help`.

/// Something the user asks the terminal front end to do, by a key (interactive mode) or a
/// command (line and script mode).
///
/// A command is the user's intent, before it is checked against the screen: ``TerminalSession``
/// turns it into the app's actions, or into a message when it does not apply where the user is.
public enum TerminalCommand: Equatable, Sendable {
    /// `+` / `inc`: add one to the count.
    case increment
    /// `-` / `dec`: take one from the count.
    case decrement
    /// `p` / `prime`: open "is this prime?" for the count.
    case isThisPrime
    /// `s` / `save`: save the count to the favorite primes ("is this prime?" screen).
    case saveFavorite
    /// `r` / `remove`: remove the count from the favorite primes ("is this prime?" screen).
    case removeFavorite
    /// `n` / `nth`: ask "what is the nth prime?" for the count.
    case nthPrime
    /// `d` / `dismiss`: close what is on top: the nth-prime answer, or "is this prime?".
    case dismiss
    /// `f` / `favorites`: go to the favorite primes.
    case showFavorites
    /// `c` / `counter`: go back to the counter.
    case showCounter
    /// `del N`: delete the favorite prime numbered `N` (from 1, as listed) on the favorites screen.
    case deleteFavorite(number: Int)
    /// `save-file`: write the favorite primes to the favorites file.
    case saveFile
    /// `load`: read the favorite primes from the favorites file, replacing the ones in memory.
    case loadFile
    /// `l` / `log`: turn logging of actions to the log file on or off.
    case toggleLog
    /// `h` / `help`: show the list of keys and commands.
    case help
    /// `q` / `quit`: leave the program.
    case quit
}

/// One row of the command table: how a command is typed, what it does, and where it applies.
public struct TerminalCommandSpec: Sendable {
    /// The single key that runs it in interactive mode (also accepted as a command), if any.
    public let key: Character?
    /// The command's name in line mode (`inc`, `del`, ...).
    public let name: String
    /// The argument's placeholder (`N`), for a command that takes a number.
    public let argument: String?
    /// Where the command applies, as the help shows it ("counter", "is this prime?", "anywhere", ...).
    public let screens: String
    /// What it does, one line.
    public let summary: String
    /// The command, given its argument (ignored by commands without one).
    let make: @Sendable (Int) -> TerminalCommand

    /// How the command is typed, as the help shows it: `+  inc`, `   del N`.
    public var usage: String {
        let keyColumn = key.map { String($0) } ?? " "
        let nameColumn = argument.map { "\(name) \($0)" } ?? name
        return "\(keyColumn)  \(nameColumn)"
    }
}

/// How the user gives commands: by name, a line at a time, or by single keys. Messages tell the
/// user what to do in their mode ("Type \"dismiss\"" or "Press \"d\"").
public enum TerminalMode: Equatable, Sendable {
    /// Line mode (standard input or `--script`): commands are typed by name.
    case line
    /// Interactive mode: single keys, and `:` for a whole command.
    case interactive

    /// How to ask for the command named `name` (and then `next`), to start a sentence: in line
    /// mode `Type "counter", then "prime"`; in interactive mode `Press "c", then "p"`, or, for a
    /// command without a key, `Type ":load"`.
    ///
    /// ```swift
    /// let line = TerminalMode.line.ask("dismiss")            // Type "dismiss"
    /// let keys = TerminalMode.interactive.ask("dismiss")     // Press "d"
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the command to ask for.
    ///   - next: The name of the command to ask for after it, or `nil`.
    /// - Returns: The request, starting with "Type" or "Press".
    public func ask(_ name: String, then next: String? = nil) -> String {
        let names = [name] + (next.map { [$0] } ?? [])
        let keys = names.compactMap { name in TerminalCommands.table.first { $0.name == name }?.key }
        if self == .interactive, keys.count == names.count {
            return "Press " + keys.map { "\"\($0)\"" }.joined(separator: ", then ")
        }
        let prefix = self == .interactive ? ":" : ""
        return "Type " + names.map { "\"\(prefix)\($0)\"" }.joined(separator: ", then ")
    }

    /// What the screen says can be done about what it shows, after it: in line mode the command
    /// (`(dismiss)`), in interactive mode the key (`(press d to dismiss)`).
    ///
    /// - Parameter name: The name of the command.
    /// - Returns: The hint, in parentheses.
    public func hint(_ name: String) -> String {
        guard self == .interactive, let key = TerminalCommands.table.first(where: { $0.name == name })?.key else {
            return "(\(name))"
        }
        return "(press \(key) to \(name))"
    }
}

/// What a line of input (or a key) means.
public enum ParsedInput: Equatable, Sendable {
    /// A command to run.
    case command(TerminalCommand)
    /// Nothing: an empty line or a comment (`# ...`).
    case nothing
    /// Input that is not a command: the message to show. Nothing changes.
    case invalid(message: String)
}

/// The command table and the parser built on it.
public enum TerminalCommands {
    /// Every command, in the order the help lists them.
    public static let table: [TerminalCommandSpec] = [
        TerminalCommandSpec(
            key: "+", name: "inc", argument: nil, screens: "counter",
            summary: "Add one to the count.", make: { _ in .increment }),
        TerminalCommandSpec(
            key: "-", name: "dec", argument: nil, screens: "counter",
            summary: "Take one from the count.", make: { _ in .decrement }),
        TerminalCommandSpec(
            key: "p", name: "prime", argument: nil, screens: "counter",
            summary: "Is this prime? Opens a screen about the count.", make: { _ in .isThisPrime }),
        TerminalCommandSpec(
            key: "s", name: "save", argument: nil, screens: "is this prime?",
            summary: "Save the count to the favorite primes.", make: { _ in .saveFavorite }),
        TerminalCommandSpec(
            key: "r", name: "remove", argument: nil, screens: "is this prime?",
            summary: "Remove the count from the favorite primes.", make: { _ in .removeFavorite }),
        TerminalCommandSpec(
            key: "n", name: "nth", argument: nil, screens: "counter",
            summary: "What is the nth prime? (n = the count; answers after a moment)",
            make: { _ in .nthPrime }),
        TerminalCommandSpec(
            key: "d", name: "dismiss", argument: nil, screens: "answer, is this prime?",
            summary: "Close the nth-prime answer or the is-this-prime screen.", make: { _ in .dismiss }),
        TerminalCommandSpec(
            key: "f", name: "favorites", argument: nil, screens: "counter",
            summary: "Go to the favorite primes.", make: { _ in .showFavorites }),
        TerminalCommandSpec(
            key: "c", name: "counter", argument: nil, screens: "favorites",
            summary: "Go back to the counter.", make: { _ in .showCounter }),
        TerminalCommandSpec(
            key: nil, name: "del", argument: "N", screens: "favorites",
            summary: "Delete favorite number N (as numbered in the list).",
            make: { .deleteFavorite(number: $0) }),
        TerminalCommandSpec(
            key: nil, name: "save-file", argument: nil, screens: "favorites",
            summary: "Write the favorite primes to the favorites file.", make: { _ in .saveFile }),
        TerminalCommandSpec(
            key: nil, name: "load", argument: nil, screens: "favorites",
            summary: "Read the favorites file (keeping favorites not saved yet).", make: { _ in .loadFile }),
        TerminalCommandSpec(
            key: "l", name: "log", argument: nil, screens: "anywhere",
            summary: "Turn logging of every action to the log file on or off.", make: { _ in .toggleLog }),
        TerminalCommandSpec(
            key: "h", name: "help", argument: nil, screens: "anywhere",
            summary: "List the keys and commands.", make: { _ in .help }),
        TerminalCommandSpec(
            key: "q", name: "quit", argument: nil, screens: "anywhere",
            summary: "Quit.", make: { _ in .quit }),
    ]

    /// The message for input that is not a command.
    ///
    /// - Parameters:
    ///   - input: The line the user typed.
    ///   - mode: The front end it was typed in, for the wording.
    /// - Returns: The message to show.
    public static func unknownMessage(_ input: String, mode: TerminalMode = .line) -> String {
        "Unknown command \"\(shortened(input))\". \(mode.ask("help")) for the list."
    }

    /// `text`, cut to 40 characters for a message.
    static func shortened(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(39)) + "…"
    }

    /// What a line means: a command's key or name, then its argument if it takes one. Case and
    /// surrounding spaces do not matter; an empty line or one starting with `#` is nothing.
    ///
    /// ```swift
    /// let increment = TerminalCommands.parse("inc")   // .command(.increment)
    /// let plus = TerminalCommands.parse("+")          // .command(.increment)
    /// let delete = TerminalCommands.parse("del 2")    // .command(.deleteFavorite(number: 2))
    /// let unknown = TerminalCommands.parse("xyz")     // .invalid(message: "Unknown command \"xyz\". ...")
    /// let huge = TerminalCommands.parse("del 99999999999999999999")
    /// // .invalid(message: "There is no favorite number 99999999999999999999: the number is too large.")
    /// ```
    ///
    /// The messages tell the user what to do in their `mode` (the command typed after `:` in
    /// interactive mode says "Press \"h\" for the list.").
    ///
    /// - Parameters:
    ///   - line: The line the user typed.
    ///   - mode: The front end it was typed in, for the wording of the messages.
    /// - Returns: The command and its argument, nothing, or why the line is invalid.
    public static func parse(_ line: String, mode: TerminalMode = .line) -> ParsedInput {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .nothing }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let word = words[0].lowercased()
        guard let spec = table.first(where: { $0.name == word || $0.key.map(String.init) == word }) else {
            return .invalid(message: unknownMessage(trimmed, mode: mode))
        }
        let arguments = words.dropFirst()
        guard let placeholder = spec.argument else {
            if arguments.isEmpty { return .command(spec.make(0)) }
            return .invalid(message: "\"\(spec.name)\" takes no argument. \(mode.ask("help")) for the list.")
        }
        guard arguments.count == 1, let argument = arguments.first else {
            return .invalid(
                message: "Usage: \(spec.name) \(placeholder) (a number, as listed). \(mode.ask("help")) for the list.")
        }
        switch WholeNumber(argument) {
        case let .number(number):
            return .command(spec.make(number))
        case .tooLarge:
            return .invalid(message: "There is no favorite number \(shortened(argument)): the number is too large.")
        case .tooSmall:
            return .invalid(
                message: "There is no favorite number \(shortened(argument)): favorites are numbered from 1.")
        case .notANumber:
            return .invalid(
                message: "Usage: \(spec.name) \(placeholder) (a number, as listed). \(mode.ask("help")) for the list.")
        }
    }

    /// What a key pressed in interactive mode means; only commands with a key have one.
    ///
    /// - Parameter key: The key pressed.
    /// - Returns: The command of that key, or why there is none.
    public static func parse(key: Character) -> ParsedInput {
        let lowered = Character(key.lowercased())
        guard let spec = table.first(where: { $0.key == lowered && $0.argument == nil }) else {
            let shown =
                key.isLetter || key.isNumber || key.isPunctuation || key.isSymbol
                ? String(key) : key.unicodeScalars.map { "\\u{\(String($0.value, radix: 16))}" }.joined()
            return .invalid(message: "Unknown key \"\(shown)\". Press \"h\" for help.")
        }
        return .command(spec.make(0))
    }

    /// The list of keys and commands, as `--help` and line mode's `help` show it: laid out for
    /// 80 columns (``helpLines(width:)``).
    public static var helpLines: [String] { helpLines(width: TerminalSize.standard.width) }

    /// The list of keys and commands in lines of at most `width` characters: a command per
    /// entry, its usage, where it applies, and what it does, the summary wrapped at spaces
    /// under itself. Narrower than the columns need (about 66 characters), each summary goes
    /// under its command instead.
    ///
    /// ```swift
    /// let lines = TerminalCommands.helpLines(width: 80)
    /// // "  +  inc        [counter]                 Add one to the count.", ...
    /// ```
    ///
    /// - Parameter width: The longest a line may be, in characters.
    /// - Returns: The lines of the list.
    public static func helpLines(width: Int) -> [String] {
        let usageWidth = table.map(\.usage.count).max() ?? 0
        let screensWidth = (table.map(\.screens.count).max() ?? 0) + 2
        let summaryColumn = 2 + usageWidth + 2 + screensWidth + 2
        let summaryWidth = width - summaryColumn
        return table.flatMap { spec in
            let usage = spec.usage.padding(toLength: usageWidth, withPad: " ", startingAt: 0)
            let screens = "[\(spec.screens)]"
            if summaryWidth >= 24 {
                let columns =
                    "  \(usage)  " + screens.padding(toLength: screensWidth, withPad: " ", startingAt: 0) + "  "
                return TerminalLayout.wrap(columns + spec.summary, width: width, indent: summaryColumn)
            }
            return TerminalLayout.wrap("  \(spec.usage)  \(screens)", width: width, indent: 4)
                + TerminalLayout.wrap("      " + spec.summary, width: width, indent: 6)
        }
    }
}

/// A whole number typed by the user, which may not fit in an `Int`.
enum WholeNumber: Equatable {
    /// It fits.
    case number(Int)
    /// Digits (after an optional `+`) for a number larger than `Int.max`.
    case tooLarge
    /// `-` and digits for a number smaller than `Int.min`.
    case tooSmall
    /// Not a whole number at all.
    case notANumber

    /// What `text` is: `Int(text)` when it fits, else whether it is a whole number out of range.
    init(_ text: String) {
        if let number = Int(text) {
            self = .number(number)
            return
        }
        var digits = Substring(text)
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            self = .notANumber
            return
        }
        self = negative ? .tooSmall : .tooLarge
    }
}

extension String {
    /// The string without spaces, tabs and line ends at either end.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let start = firstIndex(where: { !isSpace($0) }),
            let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
