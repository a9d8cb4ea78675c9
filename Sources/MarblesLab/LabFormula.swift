/// A value of a diagram, as the lab's formulas see it: a value that reads as an integer is one.
enum LabValue: Equatable, CustomStringConvertible {
    case integer(Int)
    case text(String)
    case boolean(Bool)

    init(_ text: String) {
        if let number = Int(text) { self = .integer(number) } else { self = .text(text) }
    }

    var description: String {
        switch self {
        case .integer(let number): String(number)
        case .text(let text): text
        case .boolean(let value): String(value)
        }
    }
}

/// A formula that cannot be applied to a value (`x*10` to `a`).
struct LabEvaluationError: Error, CustomStringConvertible {
    let description: String
}

/// The small formulas arguments are written in: a predicate (`even`, `odd`, `x>2`, `x%3==0`), a
/// transform (`x*10`, `x+1`, `"a"+x`), an accumulator (`+`, `acc*x`), a comparison of two values
/// (`x==y`, `x<y`), a transform of several (`x+y`). `x` is the value (the first of several, `y`
/// the second, then `z`, `w`), `acc` the accumulated value of `scan` and `reduce`.
indirect enum LabFormula: CustomStringConvertible {
    case constant(LabValue)
    case variable(String)  // "x" or "acc"
    case unary(String, LabFormula)
    case binary(String, LabFormula, LabFormula)

    var description: String {
        switch self {
        case .constant(.text(let text)): "\"\(text)\""
        case .constant(let value): value.description
        case .variable(let name): name
        case .unary(let op, let operand): op + operand.description
        case .binary(let op, let left, let right): "\(left)\(op)\(right)"
        }
    }

    /// Whether the formula's result is a Boolean (a comparison, `&&`, `||`, `!`).
    var isCondition: Bool {
        switch self {
        case .constant(.boolean): true
        case .unary("!", _): true
        case .binary(let op, _, _): ["<", ">", "<=", ">=", "==", "!=", "&&", "||"].contains(op)
        default: false
        }
    }

    func uses(_ name: String) -> Bool {
        switch self {
        case .constant: false
        case .variable(let variable): variable == name
        case .unary(_, let operand): operand.uses(name)
        case .binary(_, let left, let right): left.uses(name) || right.uses(name)
        }
    }

    // MARK: Reading

    /// Reads a predicate: `even`, `odd`, `true`, `false` or a comparison.
    static func predicate(_ argument: LabArgument) throws(LabError) -> LabFormula {
        switch argument.identifier {
        case "even": return .binary("==", .binary("%", .variable("x"), .constant(.integer(2))), .constant(.integer(0)))
        case "odd": return .binary("!=", .binary("%", .variable("x"), .constant(.integer(2))), .constant(.integer(0)))
        default: break
        }
        let formula = try read(argument, variables: ["x"])
        guard formula.isCondition else {
            throw argument.error(
                "'\(argument.text)' is not a predicate: write even, odd, or a comparison such as x>2 or x%3==0")
        }
        return formula
    }

    /// Reads a transform of `x`: `x*10`, `x+1`, `"a"+x`.
    static func transform(_ argument: LabArgument) throws(LabError) -> LabFormula {
        let formula = try read(argument, variables: ["x"])
        guard formula.uses("x") || argument.tokens.count == 1 else {
            throw argument.error(
                "'\(argument.text)' does not use x, the value: write a transform such as x*10, x+1 or \"a\"+x")
        }
        return formula
    }

    /// Reads an accumulator of `acc` and `x`: `+` (for `acc+x`), `*`, `-`, `max`, `min`, or a formula.
    static func accumulator(_ argument: LabArgument) throws(LabError) -> LabFormula {
        if argument.tokens.count == 1, case .symbol(let op) = argument.tokens[0].kind, ["+", "*", "-"].contains(op) {
            // The shorthand is arithmetic: unary `+` makes `x` a number (`+` of two texts would join them).
            return .binary(op, .unary("+", .variable("acc")), .unary("+", .variable("x")))
        }
        return try read(argument, variables: ["acc", "x"])
    }

    /// The names of the values of a closure that takes several: `x` is the first (`$0`), `y` the
    /// second (`$1`), then `z` and `w`.
    static let valueNames = ["x", "y", "z", "w"]

    /// Reads a comparison of two values, `x` the first and `y` the second: `x==y`, `x<y`, `x%10==y%10`,
    /// or an operator alone for `x OP y` (`<`, `>`, `<=`, `>=`, `==`, `!=`), as `min(by: <)`.
    static func comparison(_ argument: LabArgument) throws(LabError) -> LabFormula {
        let operators = ["<", ">", "<=", ">=", "==", "!="]
        if argument.tokens.count == 1, case .symbol(let op) = argument.tokens[0].kind, operators.contains(op) {
            return .binary(op, .variable("x"), .variable("y"))
        }
        let formula = try read(argument, variables: ["x", "y"])
        guard formula.isCondition else {
            throw argument.error(
                "'\(argument.text)' is not a comparison of x and y: write x==y, x<y, or an operator alone such as <")
        }
        return formula
    }

    /// Reads a transform of `count` values (`x`, `y`, `z`, `w`, in order): `x+y`, `x*10+y`.
    static func combination(_ argument: LabArgument, count: Int) throws(LabError) -> LabFormula {
        let names = Array(valueNames.prefix(count))
        let formula = try read(argument, variables: names)
        guard names.contains(where: formula.uses) else {
            let list = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            throw argument.error("'\(argument.text)' uses none of the values \(list): write a transform such as x+y")
        }
        return formula
    }

    /// Reads the term of `argument` as a formula over `variables`.
    static func read(_ argument: LabArgument, variables: [String]) throws(LabError) -> LabFormula {
        var reader = Reader(tokens: argument.tokens, argument: argument, variables: variables)
        let formula = try reader.or()
        if reader.index < argument.tokens.count {
            let token = argument.tokens[reader.index]
            throw LabError(
                "unexpected '\(token.text)' in the formula '\(argument.text)'", in: argument.source, at: token.column)
        }
        return formula
    }

    private struct Reader {
        let tokens: [LabToken]
        let argument: LabArgument
        let variables: [String]
        var index = 0

        func fail(_ message: String) -> LabError {
            let column =
                index < tokens.count
                ? tokens[index].column : (tokens.last.map { $0.column + $0.text.count } ?? argument.column)
            return LabError(message, in: argument.source, at: column)
        }

        mutating func symbol(_ choices: [String]) -> String? {
            guard index < tokens.count, case .symbol(let op) = tokens[index].kind, choices.contains(op) else {
                return nil
            }
            index += 1
            return op
        }

        mutating func or() throws(LabError) -> LabFormula {
            var left = try and()
            while let op = symbol(["||"]) { left = .binary(op, left, try and()) }
            return left
        }

        mutating func and() throws(LabError) -> LabFormula {
            var left = try comparison()
            while let op = symbol(["&&"]) { left = .binary(op, left, try comparison()) }
            return left
        }

        mutating func comparison() throws(LabError) -> LabFormula {
            let left = try sum()
            if let op = symbol(["<", ">", "<=", ">=", "==", "!="]) { return .binary(op, left, try sum()) }
            return left
        }

        mutating func sum() throws(LabError) -> LabFormula {
            var left = try product()
            while let op = symbol(["+", "-"]) { left = .binary(op, left, try product()) }
            return left
        }

        mutating func product() throws(LabError) -> LabFormula {
            var left = try unary()
            while let op = symbol(["*", "/", "%"]) { left = .binary(op, left, try unary()) }
            return left
        }

        mutating func unary() throws(LabError) -> LabFormula {
            if let op = symbol(["-", "!"]) { return .unary(op, try unary()) }
            return try primary()
        }

        mutating func primary() throws(LabError) -> LabFormula {
            guard index < tokens.count else { throw fail("the formula '\(argument.text)' ends too early") }
            let token = tokens[index]
            index += 1
            switch token.kind {
            case .integer(let value): return .constant(.integer(value))
            case .string(let text): return .constant(.text(text))
            case .identifier("true"): return .constant(.boolean(true))
            case .identifier("false"): return .constant(.boolean(false))
            case .identifier(let name) where variables.contains(name): return .variable(name)
            case .identifier(let name):
                index -= 1
                let known =
                    variables.count == 1
                    ? "the value is \(variables[0])"
                    : "the values are \(variables.dropLast().joined(separator: ", ")) and \(variables.last ?? "")"
                throw fail("unknown name '\(name)' in a formula: \(known) (\"\(name)\" in quotes is a text)")
            case .open:
                let inner = try or()
                guard index < tokens.count, tokens[index].kind == .close else { throw fail("')' expected") }
                index += 1
                return inner
            default:
                index -= 1
                throw fail("unexpected '\(token.text)' in the formula '\(argument.text)'")
            }
        }
    }

    // MARK: Evaluating

    func evaluate(x: LabValue, acc: LabValue? = nil) throws(LabEvaluationError) -> LabValue {
        try evaluate(["x": x, "acc": acc ?? x])
    }

    /// The formula's value, its variables given by name.
    func evaluate(_ values: [String: LabValue]) throws(LabEvaluationError) -> LabValue {
        switch self {
        case .constant(let value): return value
        case .variable(let name):
            guard let value = values[name] else { throw LabEvaluationError(description: "\(name) has no value") }
            return value
        case .unary("-", let operand):
            let value = try operand.evaluate(values)
            guard case .integer(let number) = value else {
                throw LabEvaluationError(description: "'\(value)' is not a number")
            }
            return .integer(-number)
        case .unary("+", let operand):
            let value = try operand.evaluate(values)
            guard case .integer = value else { throw LabEvaluationError(description: "'\(value)' is not a number") }
            return value
        case .unary(_, let operand):
            let value = try operand.evaluate(values)
            guard case .boolean(let flag) = value else {
                throw LabEvaluationError(description: "'\(value)' is not true or false")
            }
            return .boolean(!flag)
        case .binary(let op, let leftFormula, let rightFormula):
            let left = try leftFormula.evaluate(values)
            let right = try rightFormula.evaluate(values)
            return try Self.apply(op, left, right)
        }
    }

    func test(_ x: LabValue) throws(LabEvaluationError) -> Bool {
        try test(["x": x])
    }

    /// Whether the condition holds, its variables given by name.
    func test(_ values: [String: LabValue]) throws(LabEvaluationError) -> Bool {
        let result = try evaluate(values)
        guard case .boolean(let flag) = result else {
            throw LabEvaluationError(description: "\(self) is not true or false")
        }
        return flag
    }

    static func apply(_ op: String, _ left: LabValue, _ right: LabValue) throws(LabEvaluationError) -> LabValue {
        switch (op, left, right) {
        case ("==", _, _): return .boolean(left == right)
        case ("!=", _, _): return .boolean(left != right)
        case ("&&", .boolean(let a), .boolean(let b)): return .boolean(a && b)
        case ("||", .boolean(let a), .boolean(let b)): return .boolean(a || b)
        case ("+", .text, _), ("+", _, .text): return .text(left.description + right.description)
        case (_, .integer(let a), .integer(let b)):
            let result: (Int, Bool)
            switch op {
            case "+": result = a.addingReportingOverflow(b)
            case "-": result = a.subtractingReportingOverflow(b)
            case "*": result = a.multipliedReportingOverflow(by: b)
            case "/", "%":
                guard b != 0 else { throw LabEvaluationError(description: "\(a)\(op)0 divides by zero") }
                result = op == "/" ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
            case "<": return .boolean(a < b)
            case ">": return .boolean(a > b)
            case "<=": return .boolean(a <= b)
            case ">=": return .boolean(a >= b)
            default: throw LabEvaluationError(description: "\(op) does not apply to numbers")
            }
            guard !result.1 else { throw LabEvaluationError(description: "\(a)\(op)\(b) overflows") }
            return .integer(result.0)
        case ("<", .text(let a), .text(let b)): return .boolean(a < b)
        case (">", .text(let a), .text(let b)): return .boolean(a > b)
        case ("<=", .text(let a), .text(let b)): return .boolean(a <= b)
        case (">=", .text(let a), .text(let b)): return .boolean(a >= b)
        default:
            let culprit = if case .integer = left { right } else { left }
            throw LabEvaluationError(description: "'\(culprit)' is not a number (\(op) needs numbers)")
        }
    }
}
