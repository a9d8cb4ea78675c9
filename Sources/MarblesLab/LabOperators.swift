import Foundation
import Streams
import StreamsTesting

/// The publisher type every step of a chain takes and makes: the row's value texts.
typealias LabStream = AnyPublisher<String, MarbleFailure>

/// What a step may use besides its upstream: the clock, the other rows, the log.
struct LabContext {
    let scheduler: TestSchedulerOf<DispatchQueue>
    let rows: [String: LabRow]
    let log: LabLog
    /// The `multicast`s of the chain, which the run connects.
    let connections = LabConnections()
    /// The index of the step being built, from 0.
    var stepIndex = 0
    /// The last `multicast` of the chain and its step's index, for an `autoconnect` right after it.
    var multicast: (step: Int, publisher: Publishers.Multicast<LabStream, PassthroughSubject<String, MarbleFailure>>)?
    private(set) var used: Set<String> = []

    init(scheduler: TestSchedulerOf<DispatchQueue>, rows: [String: LabRow], log: LabLog) {
        self.scheduler = scheduler
        self.rows = rows
        self.log = log
    }

    /// The row `argument` names, which must be given with `--input`.
    mutating func row(_ argument: LabArgument) throws(LabError) -> LabStream {
        guard let name = argument.identifier else {
            throw argument.error("'\(argument.text)' is not a row's name: give the row with --input NAME='--a--|'")
        }
        guard let row = rows[name] else {
            let known = rows.keys.sorted()
            throw argument.error(
                "no row named \(name): give it with --input \(name)='--a--|'"
                    + (known.isEmpty ? "" : " (rows given: \(known.joined(separator: ", ")))"))
        }
        used.insert(name)
        return row.eraseToAnyPublisher()
    }

    /// Marks every row as used (the operators whose values name rows: `flatMap`, `switchToLatest`).
    mutating func useAllRows() { used.formUnion(rows.keys) }

    /// The row a value names, for `flatMap` and `switchToLatest`: an empty publisher that never
    /// ends (and a note) when there is none.
    func row(named value: String, by step: String) -> LabStream {
        if let row = rows[value] { return row.eraseToAnyPublisher() }
        log.note(
            "\(step): the value \(value) names no row (give it with --input \(value)='...'); nothing is sent for it")
        return Empty(completeImmediately: false).eraseToAnyPublisher()
    }

    func unusedRows(_ names: [String]) -> [String] { names.filter { !used.contains($0) } }

    /// `ticks` ticks of the diagram, as the scheduler's stride.
    func stride(_ ticks: Int) -> DispatchQueue.SchedulerTimeType.Stride { .seconds(ticks) }
}

/// A value behind the project's lock, to hand to scheduled work (an `AnyPublisher` is not `Sendable`).
final class LabLocked<Value>: @unchecked Sendable {  // `stored` is guarded by `lock`
    private let lock = Lock()
    private let stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }
}

/// The connectable publishers of a chain (`multicast`), which the run connects at `--connect-at`,
/// and their connections, which it cancels at its end.
final class LabConnections: @unchecked Sendable {  // every field is guarded by `lock`
    private let lock = Lock()
    private var connectors: [() -> any Cancellable] = []
    private var live: [any Cancellable] = []

    var isEmpty: Bool { lock.withLock { connectors.isEmpty } }

    func add(_ connector: @escaping () -> any Cancellable) { lock.withLock { connectors.append(connector) } }

    func removeLast() { lock.withLock { _ = connectors.popLast() } }

    /// Calls `connect()` on each.
    func connect() {
        let connectors = lock.withLock { self.connectors }
        let connections = connectors.map { $0() }
        lock.withLock { live += connections }
    }

    /// Cancels every connection.
    func disconnect() {
        let connections = lock.withLock {
            defer { live = [] }
            return live
        }
        for connection in connections { connection.cancel() }
    }
}

/// One operator the lab can run.
struct LabOperator: Sendable {
    enum Category: String, CaseIterable, Sendable {
        case transforming = "Transforming"
        case filtering = "Filtering"
        case reducing = "Reducing and matching"
        case combining = "Combining several rows"
        case failures = "Failures"
        case sharing = "Sharing (several subscribers: --subscribe-at 0,4)"
        case timing = "Timing (one tick = one second)"
        case demand = "Demand"
    }

    /// The registry key: `name`, or `name(label:)` after its first argument's label (`_` for none).
    let key: String
    /// How it is written: `filter(PREDICATE)`.
    let usage: String
    /// What it does, in a few words.
    let summary: String
    let category: Category
    /// A one-shot run that shows it: the input row, other rows, the operator.
    let example: LabExample
    let build: LabBuild

    var name: String { key.split(separator: "(").first.map(String.init) ?? key }
}

/// A run that shows an operator: the docs' own diagram where it has one.
struct LabExample: Sendable {
    let diagram: String
    let inputs: [(name: String, diagram: String)]
    let chain: String
    /// What the subscriber asks for (`--demand`), when not unlimited.
    let demand: String?
    /// The doc diagram this example is (the `<!-- marble NAME ... -->` annotation's name), if any.
    let docMarble: String?
    /// More options for the command line: `--cold`, `--subscribe-at 0,4`.
    let options: [String]

    init(
        _ diagram: String, _ chain: String, inputs: [(name: String, diagram: String)] = [], demand: String? = nil,
        options: [String] = [], doc docMarble: String? = nil
    ) {
        self.diagram = diagram
        self.chain = chain
        self.inputs = inputs
        self.demand = demand
        self.options = options
        self.docMarble = docMarble
    }

    /// The example's command line, for `Marbles`.
    var arguments: [String] {
        [chain, diagram] + inputs.map { "--input=\($0.name)=\($0.diagram)" } + (demand.map { ["--demand", $0] } ?? [])
            + options
    }
}

// MARK: - Reading arguments

extension LabStep {
    /// The step's arguments, checked against `labels` (in order; `nil` for none); the last
    /// `optional` of them may be left out.
    func arguments(_ labels: [String?], optional: Int = 0, usage: String) throws(LabError) -> [LabArgument?] {
        let required = labels.count - optional
        guard arguments.count >= required, arguments.count <= labels.count else {
            let count = labels.count == required ? "\(required)" : "\(required) to \(labels.count)"
            throw error(
                "\(name) takes \(count) argument\(labels.count == 1 ? "" : "s"), \(arguments.count) given: \(usage)")
        }
        for (argument, label) in zip(arguments, labels) where argument.label != label {
            let expected = label.map { "'\($0):'" } ?? "no label"
            throw LabError("expected \(expected) here: \(usage)", in: source, at: argument.column)
        }
        return labels.indices.map { $0 < arguments.count ? arguments[$0] : nil }
    }

    /// A step with no arguments (parentheses allowed: `collect()`).
    func noArguments(usage: String) throws(LabError) {
        guard arguments.isEmpty else { throw arguments[0].error("\(name) takes no arguments: \(usage)") }
    }
}

extension LabArgument {
    /// The most an argument may be: a number of ticks or values the lab can run (and a tick
    /// count that cannot overflow the scheduler's nanoseconds).
    static let largest = 100_000

    func integer(atLeast minimum: Int = 0) throws(LabError) -> Int {
        var sign = 1
        var tokens = self.tokens[...]
        if tokens.count == 2, tokens.first?.kind == .symbol("-") {
            sign = -1
            tokens = tokens.dropFirst()
        }
        guard tokens.count == 1, case .integer(let value) = tokens.first!.kind else {
            throw error("expected a whole number, found '\(text)'")
        }
        guard sign * value >= minimum else {
            throw error("expected a number of at least \(minimum), found \(sign * value)")
        }
        guard sign * value <= Self.largest else {
            throw error("expected a number of at most \(Self.largest), found \(sign * value)")
        }
        return sign * value
    }

    /// A value: a number, a word, or a "string".
    func value() throws(LabError) -> String {
        guard tokens.count == 1 else {
            if let number = try? integer(atLeast: .min) { return String(number) }
            throw error("expected a value (a number, a letter, or \"text\"), found '\(text)'")
        }
        switch tokens[0].kind {
        case .integer(let value): return String(value)
        case .string(let text): return text
        case .identifier(let word): return word
        default: throw error("expected a value (a number, a letter, or \"text\"), found '\(text)'")
        }
    }

    func boolean() throws(LabError) -> Bool {
        switch identifier {
        case "true": true
        case "false": false
        default: throw error("expected true or false, found '\(text)'")
        }
    }

    /// `max(N)`, `N`, `unlimited` or `none`.
    func demand() throws(LabError) -> Subscribers.Demand {
        try LabDemand.read(tokens, text: text, error: error)
    }

    func word(_ choices: [String]) throws(LabError) -> String {
        guard let word = identifier, choices.contains(word) else {
            throw error("expected \(choices.joined(separator: " or ")), found '\(text)'")
        }
        return word
    }
}

enum LabDemand {
    static func read(_ tokens: [LabToken], text: String, error: (String) -> LabError) throws(LabError)
        -> Subscribers.Demand
    {
        let kinds = tokens.map(\.kind)
        if kinds == [.identifier("unlimited")] { return .unlimited }
        if kinds == [.identifier("none")] { return .none }
        if kinds.count == 1, case .integer(let count) = kinds[0] { return .max(count) }
        if kinds.count == 4, kinds[0] == .identifier("max"), kinds[1] == .open, kinds[3] == .close,
            case .integer(let count) = kinds[2]
        {
            return .max(count)
        }
        throw error("expected a demand: max(1), 1, unlimited or none; found '\(text)'")
    }
}

// MARK: - Values

/// Values as the operators' closures see them.
enum LabValues {
    /// Numbers in order, then texts in order.
    static func ascending(_ a: String, _ b: String) -> Bool {
        switch (Int(a), Int(b)) {
        case let (x?, y?): x < y
        case (_?, nil): true
        case (nil, _?): false
        case (nil, nil): a < b
        }
    }

    /// For the values of a publisher that sends none (`ignoreOutput`).
    static func never(_ value: Never) -> String {}

    static func tuple(_ values: String...) -> String { "(" + values.joined(separator: ", ") + ")" }

    static func array(_ values: [String]) -> String { "[" + values.joined(separator: ", ") + "]" }
}

extension LabFormula {
    /// Applies the transform in an operator that cannot fail: a value it does not apply to becomes
    /// `?`, with a note.
    func transforming(_ value: String, in step: String, log: LabLog) -> String {
        do throws(LabEvaluationError) {
            return try evaluate(x: LabValue(value)).description
        } catch {
            log.note("\(step): \(error.description) (the value is shown as ?; the try version fails instead)")
            return "?"
        }
    }

    /// Tests the predicate in an operator that cannot fail: a value it does not apply to fails
    /// the test, with a note.
    func testing(_ value: String, in step: String, log: LabLog) -> Bool {
        do throws(LabEvaluationError) {
            return try test(LabValue(value))
        } catch {
            log.note("\(step): \(error.description) (counted as false; the try version fails instead)")
            return false
        }
    }

    func accumulating(_ acc: String, _ value: String, in step: String, log: LabLog) -> String {
        do throws(LabEvaluationError) {
            return try evaluate(x: LabValue(value), acc: LabValue(acc)).description
        } catch {
            log.note("\(step): \(error.description) (the result is shown as ?; the try version fails instead)")
            return "?"
        }
    }
}

extension LabFormula {
    /// The variables of a closure's values: `x` for the first, `y` for the second, and so on.
    static func values(_ values: [String]) -> [String: LabValue] {
        Dictionary(uniqueKeysWithValues: zip(valueNames, values.map(LabValue.init)))
    }

    /// Applies a transform of several values (`zip(b, x+y)`) in an operator that cannot fail: a
    /// value it does not apply to becomes `?`, with a note.
    func combining(_ values: [String], in step: String, log: LabLog) -> String {
        do throws(LabEvaluationError) {
            return try evaluate(Self.values(values)).description
        } catch {
            log.note("\(step): \(error.description) (the value is shown as ?)")
            return "?"
        }
    }

    /// Tests a comparison of two values (`removeDuplicates(by: x==y)`) in an operator that cannot
    /// fail: values it does not apply to fail the test, with a note.
    func comparing(_ first: String, _ second: String, in step: String, log: LabLog) -> Bool {
        do throws(LabEvaluationError) {
            return try test(Self.values([first, second]))
        } catch {
            log.note("\(step): \(error.description) (counted as false; the try version fails instead)")
            return false
        }
    }

    func throwingCompare(_ first: String, _ second: String) throws -> Bool {
        do throws(LabEvaluationError) { return try test(Self.values([first, second])) } catch {
            throw LabFormulaFailure()
        }
    }
}

/// The error the `try` operators fail with when a formula does not apply.
struct LabFormulaFailure: Error {}

extension LabFormula {
    func throwingTransform(_ value: String) throws -> String {
        do throws(LabEvaluationError) { return try evaluate(x: LabValue(value)).description } catch {
            throw LabFormulaFailure()
        }
    }

    func throwingTest(_ value: String) throws -> Bool {
        do throws(LabEvaluationError) { return try test(LabValue(value)) } catch { throw LabFormulaFailure() }
    }

    func throwingAccumulate(_ acc: String, _ value: String) throws -> String {
        do throws(LabEvaluationError) {
            return try evaluate(x: LabValue(value), acc: LabValue(acc)).description
        } catch {
            throw LabFormulaFailure()
        }
    }
}

extension Publisher where Output == String {
    /// The step's publisher, as the chain's type (a `try` operator's failure becomes `^`).
    func lab() -> LabStream {
        mapError { _ in MarbleFailure() }.eraseToAnyPublisher()
    }
}

extension Publisher where Output == String, Failure == MarbleFailure {
    func lab() -> LabStream { eraseToAnyPublisher() }
}
