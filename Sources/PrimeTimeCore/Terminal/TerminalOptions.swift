import Foundation

/// The `PrimeTime` program's command-line options.
public struct TerminalOptions: Equatable, Sendable {
    /// The favorites file's path when `--favorites-file` is not given: `favorite-primes.json` in
    /// the current directory.
    public static let defaultFavoritesPath = "favorite-primes.json"
    /// The log file's path when `--log-file` is not given: `primetime.log` in the current directory.
    public static let defaultLogPath = "primetime.log"
    /// `--help`: print the help and exit.
    public var showHelp = false
    /// `--script "..."`: the commands to run, instead of reading standard input.
    public var script: String?
    /// `--favorites-file PATH`.
    public var favoritesPath = TerminalOptions.defaultFavoritesPath
    /// `--log-file PATH`.
    public var logPath = TerminalOptions.defaultLogPath
    /// The largest `--latency-ms`: ten minutes.
    public static let maximumLatencyMilliseconds = 600_000
    /// `--latency-ms N`: the nth-prime calculator's simulated latency; `nil` for the live app's
    /// (300 to 500 milliseconds).
    public var latencyMilliseconds: Int?
    /// `--test-save-loop` or `--test-add-favorites PRIMES`: a test-only mode (``FavoritesTestMode``).
    /// These options are deliberately left out of `--help`.
    public var testMode: FavoritesTestMode?

    /// The defaults.
    public init() {}

    /// The favorites file, relative paths taken from the current directory.
    public var favoritesFile: URL { URL(fileURLWithPath: favoritesPath) }

    /// The log file, relative paths taken from the current directory.
    public var logFile: URL { URL(fileURLWithPath: logPath) }

    /// The options in `arguments` (without the program's name), or a message saying what is wrong.
    ///
    /// ```swift
    /// let options = TerminalOptions.parse(["--script", "inc; nth", "--latency-ms", "0"])
    /// ```
    ///
    /// - Parameter arguments: The command line's arguments, without the program's name.
    /// - Returns: The options, or the error saying what is wrong.
    public static func parse(_ arguments: [String]) -> Result<TerminalOptions, TerminalOptionsError> {
        var options = TerminalOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            // `--name=value` is the same as `--name value`.
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(TerminalOptionsError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw TerminalOptionsError("\(name) needs a value.") }
                return next
            }
            do throws(TerminalOptionsError) {
                switch name {
                case "-h", "--help":
                    options.showHelp = true
                case "--script":
                    options.script = try value()
                case "--favorites-file":
                    options.favoritesPath = try value()
                    if options.favoritesPath.isEmpty { throw TerminalOptionsError("--favorites-file needs a path.") }
                case "--log-file":
                    options.logPath = try value()
                    if options.logPath.isEmpty { throw TerminalOptionsError("--log-file needs a path.") }
                case "--latency-ms":
                    let text = try value()
                    let maximum = Self.maximumLatencyMilliseconds
                    switch WholeNumber(text) {
                    case let .number(milliseconds) where (0...maximum).contains(milliseconds):
                        options.latencyMilliseconds = milliseconds
                    case .number(1...), .tooLarge:
                        throw TerminalOptionsError(
                            "--latency-ms \(TerminalCommands.shortened(text)) is too large: at most \(maximum) (ten minutes)."
                        )
                    default:
                        throw TerminalOptionsError(
                            "--latency-ms needs a number of milliseconds (0 or more), not \"\(TerminalCommands.shortened(text))\"."
                        )
                    }
                case "--test-save-loop":
                    options.testMode = .saveLoop
                case "--test-add-favorites":
                    let text = try value()
                    let primes = text.split(separator: ",").map { Int(String($0).trimmingWhitespace()) }
                    guard !primes.isEmpty, let primes = primes as? [Int] else {
                        throw TerminalOptionsError(
                            "--test-add-favorites needs comma-separated numbers, not \"\(text)\".")
                    }
                    options.testMode = .addFavorites(primes)
                default:
                    throw TerminalOptionsError("Unknown option \"\(argument)\".")
                }
            } catch {
                return .failure(error)
            }
        }
        return .success(options)
    }

    /// The commands of a `--script`: separated by `;` or line ends.
    ///
    /// ```swift
    /// let lines = TerminalOptions.scriptLines("inc; inc\nprime")   // ["inc", "inc", "prime"]
    /// ```
    ///
    /// - Parameter script: The text of the `--script` option.
    /// - Returns: The commands, trimmed, without empty ones.
    public static func scriptLines(_ script: String) -> [String] {
        script.split(whereSeparator: { $0 == ";" || $0 == "\n" || $0 == "\r\n" })
            .map { String($0).trimmingWhitespace() }
            .filter { !$0.isEmpty }
    }
}

/// What is wrong with the command line; the program prints it with a pointer to `--help` and
/// exits with status 2.
public struct TerminalOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message, one sentence.
    public let message: String

    /// An error saying `message`.
    ///
    /// - Parameter message: What is wrong with the arguments.
    public init(_ message: String) {
        self.message = message
    }

    /// The message and how to get help.
    public var description: String { "PrimeTime: \(message) Try \"PrimeTime --help\"." }
}
