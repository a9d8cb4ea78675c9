import Foundation
import Streams
import StreamsTesting

/// The `Marbles` executable: a lab where a learner types a marble diagram and an operator and sees
/// what the real operator does on virtual time, demand and cancellation included.
///
/// ```console
/// $ swift run Marbles 'filter(even)' '-1-2-3-4-|'
/// ```
///
/// Without arguments it reads commands from its input (see ``MarblesCommand/helpText``).
public enum MarblesCommand {
    /// Runs the command line `arguments` (without the program's name).
    ///
    /// - Parameters:
    ///   - arguments: The arguments, as `CommandLine.arguments.dropFirst()`.
    ///   - readLine: Reads the next line of input for the interactive mode; `nil` at its end.
    ///   - write: Writes text to the standard output (it ends its lines itself).
    ///   - writeError: Writes text to the standard error (it ends its lines itself).
    ///   - prompts: Whether the interactive mode writes a prompt before each line it reads (when
    ///     its input is a terminal).
    /// - Returns: The exit status: 0 on success, 2 for a diagram, an operator or an option it
    ///   cannot read.
    public static func run(
        _ arguments: [String],
        readLine: () -> String?,
        write: (String) -> Void,
        writeError: (String) -> Void,
        prompts: Bool = false
    ) -> Int32 {
        if arguments.isEmpty {
            return withoutActuallyEscaping(write) { write in
                var session = LabSession(write: write)
                session.prompts = prompts
                return session.run(readLine: readLine)
            }
        }
        do throws(LabError) {
            let options = try LabOptions.parse(arguments)
            switch options.mode {
            case .help:
                write(helpText + "\n")
            case .list:
                write(listText + "\n")
            case .example(let name):
                write(try exampleText(name) + "\n")
            case .run(let setup):
                let result = try LabRunner.run(setup)
                write(show(result) + "\n")
                if let file = options.svgFile {
                    let svg = MarbleSVG.render(
                        MarbleBlock(LabRender.text(result, forPicture: true)), title: setup.chain)
                    do {
                        try svg.write(toFile: file, atomically: true, encoding: .utf8)
                    } catch {
                        throw LabError("cannot write \(file): \(error.localizedDescription)")
                    }
                }
            }
            return 0
        } catch {
            writeError(error.description + "\n")
            return 2
        }
    }

    /// The rows, the operator and the key under them, as the one-shot form prints them.
    static func show(_ result: LabResult) -> String {
        let footer = LabRender.footer(result)
        return LabRender.text(result) + (footer.isEmpty ? "" : "\n\n" + footer)
    }

    /// `--list`: every operator, by category.
    static var listText: String {
        var lines: [String] = [
            "Operators (\(LabOperators.all.count)); each runs the real Streams operator on virtual time:"
        ]
        for category in LabOperator.Category.allCases {
            lines.append("")
            lines.append(category.rawValue + ":")
            for item in LabOperators.all where item.category == category {
                lines.append("  " + item.usage.padding(44) + " " + item.summary)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `--example NAME` and `:example NAME`: the operator's doc diagram, then the same rows run here.
    static func exampleText(_ name: String) throws(LabError) -> String {
        let found = LabOperators.byKey[name].map { [$0] } ?? LabOperators.named(name)
        guard !found.isEmpty else {
            var message = "unknown operator '\(name)'"
            if let near = LabOperators.nearest(name) { message += ": did you mean \(near)?" }
            throw LabError(message)
        }
        var parts: [String] = []
        for item in found {
            var arguments = item.example.arguments
            var header = "\(item.usage): \(item.summary)"
            if let docName = item.example.docMarble, let doc = LabDocs.diagram(named: docName),
                let docArguments = LabDocs.arguments(doc, chain: item.example.chain)
            {
                header += "\n\nThe docs' diagram (marble-\(docName), \(doc.file)):\n\n" + doc.text
                arguments = docArguments + item.example.options
            }
            guard case .run(let setup) = try LabOptions.parse(arguments).mode else { continue }
            let command = (["swift run Marbles"] + arguments.map(shellQuoted)).joined(separator: " ")
            parts.append(header + "\n\nRun here (\(command)):\n\n" + show(try LabRunner.run(setup)))
        }
        return parts.joined(separator: "\n\n")
    }

    static func shellQuoted(_ text: String) -> String {
        if LabOptions.names.contains(text) { return text }
        if text.allSatisfy({ $0.isLetter || $0.isNumber || "-_=.,@/".contains($0) }) && !text.hasPrefix("-") {
            return text
        }
        if text.hasPrefix("--"), let equals = text.firstIndex(of: "="),
            LabOptions.names.contains(String(text[..<equals]))
        {
            return String(text[...equals]) + shellQuoted(String(text[text.index(after: equals)...]))
        }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `--help`: the usage and the grammar.
    public static let helpText = """
        Marbles: type a marble diagram and an operator; see what the real Streams operator does,
        on virtual time (one character = one tick = one second), demand and cancellation included.

        USAGE
          swift run Marbles OPERATOR DIAGRAM [--input NAME=DIAGRAM ...] [--demand DEMANDS]
                                             [--cancel-at TICK] [--subscribe-at TICKS]
                                             [--connect-at TICK] [--cold | --cold=ROWS] [--svg FILE]
          swift run Marbles --list             every operator it can run
          swift run Marbles --example NAME     an operator's own doc diagram, run here
          swift run Marbles --help             this text
          swift run Marbles                    the interactive lab (:help there)

        EXAMPLES
          swift run Marbles 'filter(even)' '-1-2-3-4-|'
          swift run Marbles 'zip(b)' '-1-2-3-|' --input b='---a-b--|'
          swift run Marbles 'map(x*10) | debounce(2) | removeDuplicates' '-1-2---3-3---|'
          swift run Marbles 'flatMap(maxPublishers: 1)' '-ab-------|' --input a='--1-2|' --input b='--7---8|' --demand unlimited
          swift run Marbles 'buffer(size: 2)' '-1-2-3-4-|' --demand 'max(1)@0,max(1)@6' --cancel-at 8
          swift run Marbles 'zip(b, x+y)' '-1-2-3-|' --input b='---4-5--|'
          swift run Marbles 'share' '-1-2-3-4-|' --subscribe-at 0,4
          swift run Marbles 'retry(2)' '-1-2-#' --cold

        DIAGRAMS (the docs' grammar)
          -        a tick in which nothing happens
          a 7      a value: one letter or digit
          'text'   a longer value
          |        finished
          ^ or #   failed
          [ab|]    several events in one tick, in order
          spaces are ignored
          A row is hot: it sends its events at their ticks to whoever is subscribed then, and a
          value goes only to a subscription that asked for one (else it shows as dropped). A row
          that has ended sends its end at once to a later subscriber.
          A cold row (--cold) plays its diagram again for each subscription, from the tick of that
          subscription, as a Deferred publisher does: retry then starts it over.

        OPERATORS
          A chain of operators separated by |: map(x*10) | debounce(2) | removeDuplicates
          Arguments: numbers (ticks, counts), values (7, a, "text"), rows (b: see --input; merge
          takes up to 7 besides the upstream, zip and combineLatest up to 3),
          predicates (even, odd, x>2, x%3==0, x!=1 && x<5), transforms (x*10, x+1, "a"+x),
          accumulators (+, *, acc*10+x), comparisons of two values (x==y, x<y, x%2==y%2, or an
          operator alone: <, ==), transforms of several rows' values (zip(b, x+y),
          combineLatest(b, c, x*y+z)), demands (max(1), unlimited).
          In formulas x is the value; a value that reads as a whole number is a number. Where a
          closure takes several values, x is the first ($0), y the second ($1), then z and w:
          removeDuplicates(by: x==y) (x the value passed on before, y the new one),
          min(by: x<y) (x comes before y), zip(b, c, x+y+z) (x the upstream's, y b's, z c's).

        OPTIONS
          --input NAME=DIAGRAM   another row, named for the operator: merge(b), zip(b), catch(b);
                                 for flatMap and switchToLatest, each upstream value names a row
          --demand DEMANDS       what the subscriber asks for, and when: unlimited (the default),
                                 none, max(1), or a list such as max(1)@0,max(2)@5
          --cancel-at TICK       the subscriber cancels at TICK (with several, every one; or
                                 one tick each: --cancel-at 5,7)
          --subscribe-at TICKS   several subscribers, one per tick listed (0,4): one output row
                                 each, "subscriber N", blank before it subscribes (at its tick,
                                 before that tick's events), and what it missed: the values the
                                 others got before it and it never did; for share and multicast
          --connect-at TICK      when the lab calls connect() on a multicast (default 0, after
                                 the subscribers of that tick); multicast | autoconnect connects
                                 with the first subscriber instead
          --cold                 every row is cold: each subscription plays it from its start
          --cold=ROWS            only these rows are cold (--cold=upstream,b)
          With --demand or --cancel-at, the output shows the demand rows: what you asked for,
          what the operator asked of each row (1 = .max(1), ∞ = .unlimited), and ; where a
          cancel went (with several subscribers, a row's cancel shows in "asked of ROW" only);
          for a cold row, or one subscribed more than once, "subscribed to ROW" counts its
          subscriptions (2 = the second).
          --svg FILE             also writes the picture the docs use (an SVG file)

        Exit status: 0, or 2 for a diagram, an operator or an option it cannot read (the
        message points at the column).
        """
}

/// The command line, read.
struct LabOptions {
    enum Mode {
        case help, list
        case example(String)
        case run(LabSetup)
    }
    var mode: Mode
    var svgFile: String?

    static let names = [
        "--help", "--list", "--example", "--input", "--demand", "--cancel-at", "--subscribe-at", "--connect-at",
        "--cold", "--svg",
    ]

    /// The most subscribers `--subscribe-at` attaches.
    static let mostSubscribers = 9

    /// Whether `argument` is an option: a known one (`--input`, `--input=b=...`), or `--` and a
    /// word of two letters or more that cannot be a diagram (`--a-|` is one).
    static func looksLikeOption(_ argument: String) -> Bool {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        if names.contains(name) { return true }
        guard argument.hasPrefix("--") else { return false }
        let word = name.dropFirst(2)
        return word.count >= 2 && word.prefix(2).allSatisfy(\.isLetter) && word.allSatisfy { $0.isLetter || $0 == "-" }
            && !argument.contains { "|'[#^".contains($0) }
    }

    static func parse(_ arguments: [String]) throws(LabError) -> LabOptions {
        var positional: [String] = []
        var inputs: [(name: String, diagram: String)] = []
        var demand: [(tick: Int, demand: Subscribers.Demand)]?
        var cancelAt: Int?
        var cancelEach: [Int]?
        var subscribeAt: [Int]?
        var connectAt: Int?
        var allRowsCold = false
        var coldRows: Set<String> = []
        var svgFile: String?
        var index = 0
        func value(for option: String, inline: String?) throws(LabError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw LabError("\(option) needs a value (--help shows them)") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            // An option is `--` and a letter; a diagram may start with `--` too (`--a-|`).
            let isOption = argument == "-h" || LabOptions.looksLikeOption(argument)
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let option = isOption ? parts[0] : ""
            let inline = isOption && parts.count == 2 ? parts[1] : nil
            switch option {
            case "--help", "-h": return LabOptions(mode: .help)
            case "--list": return LabOptions(mode: .list)
            case "--example": return LabOptions(mode: .example(try value(for: option, inline: inline)))
            case "--input":
                let text = try value(for: option, inline: inline)
                guard let equals = text.firstIndex(of: "=") else {
                    throw LabError("--input \(text): write NAME=DIAGRAM, as --input b='--x---y|'")
                }
                inputs.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
            case "--demand": demand = try LabDemandList.parse(try value(for: option, inline: inline))
            case "--cancel-at":
                let text = try value(for: option, inline: inline)
                if text.contains(",") {
                    cancelEach = try LabTickList.parse(text, option: option)
                } else {
                    guard let tick = Int(text), (0...LabRunner.longest).contains(tick) else {
                        throw LabError(
                            "--cancel-at \(text): expected a tick, a whole number from 0 to \(LabRunner.longest)")
                    }
                    cancelAt = tick
                }
            case "--subscribe-at":
                let text = try value(for: option, inline: inline)
                let ticks = try LabTickList.parse(text, option: option)
                guard ticks.count <= mostSubscribers else {
                    throw LabError("--subscribe-at: at most \(mostSubscribers) subscribers, \(ticks.count) given")
                }
                subscribeAt = ticks
            case "--connect-at":
                let text = try value(for: option, inline: inline)
                guard let tick = Int(text), (0...LabRunner.longest).contains(tick) else {
                    throw LabError(
                        "--connect-at \(text): expected a tick, a whole number from 0 to \(LabRunner.longest)")
                }
                connectAt = tick
            case "--cold":
                // `--cold` alone: every row; `--cold=upstream,b`: those rows (never the next argument,
                // which is a diagram or an operator).
                if let inline {
                    for name in inline.split(separator: ",", omittingEmptySubsequences: false) {
                        let name = name.trimmingCharacters(in: .whitespaces)
                        guard !name.isEmpty else { throw LabError("--cold=\(inline): a row's name is missing") }
                        coldRows.insert(name)
                    }
                } else if argument.hasSuffix("=") {
                    throw LabError("--cold=: a row's name is missing (--cold alone makes every row cold)")
                } else {
                    allRowsCold = true
                }
            case "--svg": svgFile = try value(for: option, inline: inline)
            default:
                if isOption { throw LabError("unknown option \(option) (--help shows them)") }
                positional.append(argument)
            }
            index += 1
        }
        guard positional.count == 2 else {
            throw LabError(
                positional.count < 2
                    ? "expected an operator and a diagram: swift run Marbles 'filter(even)' '-1-2-3-4-|' (--help)"
                    : "expected an operator and a diagram, got \(positional.count) arguments: quote each one")
        }
        var setup = LabSetup(diagram: positional[1], chain: positional[0], inputs: inputs)
        // The operator first, as --help writes it; the diagram first is understood too.
        if (try? LabChain.parse(positional[0])) == nil, (try? LabChain.parse(positional[1])) != nil {
            setup.diagram = positional[0]
            setup.chain = positional[1]
        }
        if let demand { setup.demand = demand }
        setup.cancelAt = cancelAt
        setup.cancelEach = cancelEach
        if let subscribeAt { setup.subscribeAt = subscribeAt }
        setup.connectAt = connectAt
        setup.allRowsCold = allRowsCold
        setup.coldRows = coldRows
        setup.showsDemand = demand != nil || cancelAt != nil || cancelEach != nil
        return LabOptions(mode: .run(setup), svgFile: svgFile)
    }
}

/// `--subscribe-at`: a list of ticks, such as `0,4`.
enum LabTickList {
    static func parse(_ text: String, option: String) throws(LabError) -> [Int] {
        var ticks: [Int] = []
        var offset = 0
        for item in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            defer { offset += item.count + 1 }
            let column = offset + 1 + item.prefix { $0 == " " }.count
            guard let tick = Int(item.trimmingCharacters(in: .whitespaces)), (0...LabRunner.longest).contains(tick)
            else {
                throw LabError(
                    "\(option): expected a tick, a whole number from 0 to \(LabRunner.longest); found '\(item)'",
                    in: text, at: column)
            }
            ticks.append(tick)
        }
        return ticks
    }
}

/// `--demand`: `unlimited`, `none`, or a list such as `max(1)@0,max(2)@5` (`@0` may be left out).
enum LabDemandList {
    static func parse(_ text: String) throws(LabError) -> [(tick: Int, demand: Subscribers.Demand)] {
        var result: [(tick: Int, demand: Subscribers.Demand)] = []
        var offset = 0
        for item in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            defer { offset += item.count + 1 }
            let pieces = item.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let demandText = pieces[0]
            let tokens: [LabToken]
            do {
                tokens = try LabLexer.tokens(demandText)
            } catch {
                throw LabError("--demand: \(error.message)", in: text, at: offset + (error.column ?? 1))
            }
            let column = offset + 1 + (demandText.prefix { $0 == " " }.count)
            let demand = try LabDemand.read(tokens, text: demandText.trimmingCharacters(in: .whitespaces)) { message in
                LabError("--demand: " + message, in: text, at: column)
            }
            var tick = 0
            if pieces.count == 2 {
                guard let value = Int(pieces[1].trimmingCharacters(in: .whitespaces)),
                    (0...LabRunner.longest).contains(value)
                else {
                    throw LabError(
                        "--demand: expected a tick after @, a whole number from 0 to \(LabRunner.longest)",
                        in: text, at: offset + demandText.count + 2)
                }
                tick = value
            }
            if tick > 0, demand == .none {
                throw LabError("--demand: asking for none later is not a request (S9)", in: text, at: column)
            }
            result.append((tick, demand))
        }
        return result
    }
}
