/// The operator text the learner types: a chain of steps separated by `|`, each a name and
/// optional arguments, `map(x*10) | debounce(2) | removeDuplicates`.
///
/// Grammar (read by hand, one token at a time):
///
/// ```console
/// chain    := step ('|' step)*
/// step     := NAME ['(' [argument (',' argument)*] ')']
/// argument := [LABEL ':'] term
/// term     := an integer, a "string", a row name, a range (1...2), a predicate (even, odd, x>2,
///             x%3==0), a transform (x*10, x+1, "a"+x), an accumulator (+, acc*x), a comparison
///             of two values (x==y, x<y, or an operator alone: <), a transform of several values
///             (x+y, x*y+z), max(1), unlimited
/// ```
///
/// In a formula of a closure that takes several values, `x` is the first (`$0`), `y` the second
/// (`$1`), then `z` and `w` (``LabFormula/valueNames``).
struct LabToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case integer(Int)
        case string(String)
        case symbol(String)  // * + - / % < > <= >= == != ... ..< ! && ||
        case open, close, comma, colon, pipe
    }
    let kind: Kind
    /// The 1-based column of the token's first character.
    let column: Int
    /// The token as written.
    let text: String
}

enum LabLexer {
    static let symbols = ["...", "..<", "<=", ">=", "==", "!=", "&&", "||", "*", "+", "-", "/", "%", "<", ">", "!"]

    static func tokens(_ source: String) throws(LabError) -> [LabToken] {
        let characters = Array(source)
        var tokens: [LabToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character == " " || character == "\t" {
                index += 1
                continue
            }
            if character.isLetter || character == "_" {
                var end = index
                while end < characters.count,
                    characters[end].isLetter || characters[end].isNumber || characters[end] == "_"
                {
                    end += 1
                }
                let word = String(characters[index..<end])
                tokens.append(LabToken(kind: .identifier(word), column: column, text: word))
                index = end
                continue
            }
            if character.isNumber, character.isASCII {
                var end = index
                while end < characters.count, characters[end].isNumber, characters[end].isASCII { end += 1 }
                let digits = String(characters[index..<end])
                guard let value = Int(digits) else {
                    throw LabError("the number \(digits) is too large", in: source, at: column)
                }
                tokens.append(LabToken(kind: .integer(value), column: column, text: digits))
                index = end
                continue
            }
            if character == "\"" || character == "'" {
                guard let end = characters[(index + 1)...].firstIndex(of: character) else {
                    throw LabError("unterminated string: it ends with \(character)", in: source, at: column)
                }
                let text = String(characters[(index + 1)..<end])
                tokens.append(LabToken(kind: .string(text), column: column, text: String(characters[index...end])))
                index = end + 1
                continue
            }
            let simple: LabToken.Kind? =
                switch character {
                case "(": .open
                case ")": .close
                case ",": .comma
                case ":": .colon
                case "|" where !(index + 1 < characters.count && characters[index + 1] == "|"): .pipe
                default: nil
                }
            if let simple {
                tokens.append(LabToken(kind: simple, column: column, text: String(character)))
                index += 1
                continue
            }
            // A leading dot (`.max(1)`, `.seconds(2)`, `.dropOldest`) is Swift's spelling: accepted and dropped.
            if character == ".", index + 1 < characters.count, characters[index + 1].isLetter {
                index += 1
                continue
            }
            let rest = String(characters[index...])
            guard let symbol = symbols.first(where: { rest.hasPrefix($0) }) else {
                throw LabError("unexpected '\(character)'", in: source, at: column)
            }
            tokens.append(LabToken(kind: .symbol(symbol), column: column, text: symbol))
            index += symbol.count
        }
        return tokens
    }
}

/// One argument of a step: `label: term`.
struct LabArgument {
    let label: String?
    /// The term's tokens (never empty).
    let tokens: [LabToken]
    /// The column of the argument's first character (its label's, if any).
    let column: Int
    /// The whole operator text, for error messages.
    let source: String

    /// The term as written (its tokens, spaced as typed).
    var text: String {
        guard let first = tokens.first, let last = tokens.last else { return "" }
        let characters = Array(source)
        return String(characters[(first.column - 1)..<min(last.column - 1 + last.text.count, characters.count)])
    }

    func error(_ message: String) -> LabError { LabError(message, in: source, at: tokens.first?.column ?? column) }

    /// A single identifier, or `nil`.
    var identifier: String? {
        if tokens.count == 1, case .identifier(let name) = tokens[0].kind { return name }
        return nil
    }
}

/// One step of a chain: `name(arguments)`.
struct LabStep {
    let name: String
    let arguments: [LabArgument]
    /// The column of the name.
    let column: Int
    /// Whether it was written with parentheses.
    let hasParentheses: Bool
    /// The whole operator text, for error messages.
    let source: String

    /// The registry key: `name`, or `name(label:)` with the first argument's label (`_` if none).
    var key: String {
        guard let first = arguments.first else { return name }
        return "\(name)(\(first.label ?? "_"):)"
    }

    func error(_ message: String) -> LabError { LabError(message, in: source, at: column) }

    /// The argument labelled `label`, if any.
    func argument(_ label: String) -> LabArgument? { arguments.first { $0.label == label } }
}

enum LabChain {
    /// Reads `source` into its steps.
    static func parse(_ source: String) throws(LabError) -> [LabStep] {
        let tokens = try LabLexer.tokens(source)
        guard !tokens.isEmpty else {
            throw LabError("no operator: type one, such as filter(even) (:list names them all)")
        }
        var steps: [LabStep] = []
        var index = 0
        func end() -> Int { source.count + 1 }
        while true {
            guard index < tokens.count else {
                throw LabError("an operator is missing after '|'", in: source, at: end())
            }
            guard case .identifier(let name) = tokens[index].kind else {
                throw LabError(
                    "expected an operator name, found '\(tokens[index].text)'", in: source, at: tokens[index].column)
            }
            let column = tokens[index].column
            index += 1
            var arguments: [LabArgument] = []
            var hasParentheses = false
            if index < tokens.count, tokens[index].kind == .open {
                hasParentheses = true
                let open = tokens[index]
                index += 1
                var depth = 0
                var current: [LabToken] = []
                func finishArgument(at token: LabToken) throws(LabError) {
                    guard !current.isEmpty else {
                        throw LabError("an argument is missing", in: source, at: token.column)
                    }
                    var label: String?
                    var term = current
                    if current.count >= 2, case .identifier(let name) = current[0].kind, current[1].kind == .colon {
                        label = name
                        term = Array(current.dropFirst(2))
                        guard !term.isEmpty else {
                            throw LabError("a value is missing after '\(name):'", in: source, at: current[1].column + 1)
                        }
                    }
                    if let colon = term.first(where: { $0.kind == .colon }) {
                        throw LabError(
                            "unexpected ':' (a label is a name before the value: prefix(while: x<3))", in: source,
                            at: colon.column)
                    }
                    arguments.append(LabArgument(label: label, tokens: term, column: current[0].column, source: source))
                    current = []
                }
                var closed = false
                while index < tokens.count {
                    let token = tokens[index]
                    index += 1
                    switch token.kind {
                    case .open:
                        depth += 1
                        current.append(token)
                    case .close where depth > 0:
                        depth -= 1
                        current.append(token)
                    case .close:
                        if !current.isEmpty || !arguments.isEmpty { try finishArgument(at: token) }
                        closed = true
                    case .comma where depth == 0:
                        try finishArgument(at: token)
                    case .pipe:
                        throw LabError(
                            "'|' inside (...): close the parenthesis opened at column \(open.column) first", in: source,
                            at: token.column)
                    default:
                        current.append(token)
                    }
                    if closed { break }
                }
                guard closed else {
                    throw LabError("'(' is not closed: add ')'", in: source, at: open.column)
                }
            }
            steps.append(
                LabStep(
                    name: name, arguments: arguments, column: column, hasParentheses: hasParentheses, source: source))
            guard index < tokens.count else { break }
            guard tokens[index].kind == .pipe else {
                throw LabError(
                    "expected '|' between two operators, found '\(tokens[index].text)'", in: source,
                    at: tokens[index].column)
            }
            index += 1
        }
        return steps
    }
}
