import Streams
import Testing

/// A marble diagram as a doc comment writes it, read so that it can be run as a test and drawn.
///
/// A block is lines of text. A line `label: diagram` (not indented) followed by an optional
/// comment is a *row*: `label` is everything before the first `:` (followed by a space) that leaves a
/// valid ``Marbles`` diagram after it, the diagram is the next run of non-space characters, and
/// the rest of the line is a comment. Any other line (the indented operator between the rows,
/// a blank line) is an *operator line*, shown but not run.
///
/// <!-- marble marbleBlock-legend: $0.ints.map { $0 * 10 } -->
/// ```text
/// upstream: -1-2-3-|
///           map { $0 * 10 }
/// output:   -a-b-c-|      (a = 10, b = 20, c = 30)
/// ```
///
/// A comment may carry a *legend*: `(a = 10, b = 20)` (entries separated by `,` or `;`, each a
/// one-character key, ` = `, and the value's text; surrounding `"` are dropped). In every row of
/// the block a one-character value that is a legend key stands for the legend's value, so the
/// diagram above expects the values `10`, `20` and `30`.
///
/// ## Running a block: the annotation
///
/// A marble diagram is a fenced code block whose info string is exactly `text`: in a doc
/// comment of a `.swift` file in `Sources`, in `Docs/*.md`, or in a catalog's article
/// (`Sources/<Module>/<Module>.docc/*.md`, `Docs/*.docc/*.md`). No other block is read, so text that is not a
/// diagram (a screen, a file format) goes in a block with another info string (`console`,
/// `html`), and every `text` block must be run or say why not.
///
/// `Scripts/extract-marbles` turns every such block into tests in
/// `Tests/StreamsTests/Testing/DocMarbles.generated.swift` (blocks of
/// `Sources/ComposableArchitecture` and `Sources/StreamsFoundation` into a `DocMarbles.generated.swift`
/// of their own test target, which can import them) and draws it with ``MarbleSVG`` (into the
/// `Resources` folder of the `Streams` and `ComposableArchitecture` catalogs). The annotation is
/// an HTML comment (DocC does not show it) on the lines right before the block's opening fence:
///
/// ```html
/// <!-- marble NAME [OPTION ...]: EXPRESSION -->
/// <!-- marble skip: REASON -->
/// ```
///
/// (A fenced block whose info string is `swift` is an example, which `Scripts/extract-examples`
/// compiles in the tests; its annotations, `<!-- example ... -->`, are described in that
/// script's docstring.)
///
/// - `NAME` names the test and the picture (`marble-NAME.svg`); unique in the package.
/// - `EXPRESSION` is Swift code for the publisher whose output the block shows. `$0` is the
///   input: a `TestPublisher<String, MarbleFailure>` driven by the one input row, or, when the
///   expression uses `$0[`, an array of them, one per input row in order. Input values arrive
///   as their text (`"1"`), so an operator on numbers starts with `.map { Int($0)! }`.
/// - The output row is the row labelled `output`, else the last row; `row=N` picks the `N`th row
///   (counting rows only, from 1). The input rows are the rows right before it, back to the
///   previous row labelled `output`, leaving out rows labelled `output`; `inputs=N` makes them
///   the first `N` rows instead. `many` passes them as an array even if there is one (an
///   expression with `name[0]`-style subscripts gets the array without it).
/// - `scheduler`: the block runs on virtual time; `scheduler` (a `DispatchQueue.test`) is in
///   scope and one tick is one second.
/// - `source`: the expression is the publisher itself, with no input.
/// - `demand=N`: the subscriber asks for `.max(N)` once (unlimited by default; `demand=0` asks
///   for nothing); `demand=N@T` asks for `.max(N)` more at tick `T` (may be repeated).
/// - `subscribe=T`: the subscriber subscribes at tick `T` instead of 0 (a second subscriber that
///   comes later: `share`, `Future`, `Deferred`). The expression is still made at tick 0.
/// - `cold` (with `scheduler`): `$0` is an array of ``ColdMarbles``, one per input row: each
///   plays its row from the moment it is subscribed, not from tick 0 (a row that starts when a
///   `concatenate` gets to it). Spaces that align such a row are ignored, like all spaces.
/// - `async` (with `scheduler`, one input row or `source`): for a diagram whose events come from
///   work that ends in real time — a task on the cooperative pool, a run loop, URLSession's
///   delegate queue. The test is `async`; the output is received on `scheduler`, and at each
///   tick where the output row shows events the driver awaits them (up to 30 seconds of real
///   time, never blocking a thread) before it moves the clock on; then it compares the row
///   exactly, as the other drivers do (``checkAsync(on:source:row:inputs:demand:later:subscribeAt:timeout:isolation:sourceLocation:)``).
///   Work in the expression that must end at a tick awaits ``TestScheduler/waitForTick(_:)``,
///   made in a capture list (at tick 0). The driver cannot see an event that comes after it
///   has moved past the tick the row shows it at: such an event shows in a later tick (or,
///   after the last, not at all), so the work of a diagram should wait for its tick.
/// - `skip` marks a block that cannot be run, with the reason.
///
/// Diagrams that are not one operator between rows use small harnesses in the expression:
/// ``TestScheduler/atTick(_:_:)`` runs outside work (a promise, a callback) at a tick;
/// ``recordingCalls(of:_:)`` makes a subscriber's calls (`sink`'s closures, `assign`'s property
/// sets) the output row; with `async`, `recordingAwait(_:)` makes what an `await` returns (or
/// throws) the output row (`Future.value`), ``recordingLoop(over:)`` what a `for await`
/// loop runs its body with, and ``TestScheduler/turningRunLoop(first:every:_:)`` turns a run
/// loop of a thread of its own once at set ticks (a Foundation `Timer`, which then fires once
/// per turn; a row of `Date`s names them with `namedInOrder()`). The test
/// targets add their own: `driving(_:by:_:)` (an input row that
/// sets a property or calls a method: `@Published`, `ObservableObject`), `legendValue(_:as:)`
/// (the struct a legend entry names), `runEffects(_:_:)` in ComposableArchitectureTests (each
/// action of the input row starts an effect, in one store's cancellation identifiers, as the
/// store starts a reducer's effects), `notifications(posting:)` in StreamsFoundationTests (a
/// center of its own posting the input row).
///
/// Several annotations may precede one block (one per output row). A block with none fails the
/// currency test, as does a generated file or a picture that is not what the sources make now.
public struct MarbleBlock: Sendable, Equatable {
    /// One line of a block.
    public struct Row: Sendable, Equatable {
        /// The label before `:`, or `nil` for an operator line.
        public let label: String?
        /// The diagram as written, or `nil` for an operator line.
        public let diagram: String?
        /// The comment after the diagram, or the whole text of an operator line.
        public let comment: String
    }

    /// The block's lines, in order.
    public let rows: [Row]
    /// The values one-character placeholders stand for, from the comments.
    public let legend: [String: String]

    /// Reads a block's text.
    ///
    /// - Parameter text: The block's lines: rows and operator lines.
    public init(_ text: String) {
        var rows: [Row] = []
        var legend: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let row = Self.readRow(String(line))
            rows.append(row)
            if row.diagram != nil {
                for (key, value) in Self.readLegend(row.comment) { legend[key] = value }
            }
        }
        while let last = rows.last, last.label == nil, last.comment.allSatisfy(\.isWhitespace) {
            rows.removeLast()
        }
        self.rows = rows
        self.legend = legend
    }

    /// The rows that carry a diagram.
    public var diagramRows: [Row] { rows.filter { $0.diagram != nil } }

    /// A row's diagram with its legend placeholders replaced by their values.
    ///
    /// - Parameter row: A row of this block.
    /// - Returns: The row's events, one list per tick.
    public func ticks(of row: Row) throws -> [[Marbles.Event]] {
        try Marbles.parse(row.diagram ?? "").map { tick in
            tick.map { event in
                if case .value(let text) = event, let value = legend[text] { return .value(value) }
                return event
            }
        }
    }

    /// A row's diagram with its legend applied, in the grammar `assertMarbles`
    /// reads.
    ///
    /// - Parameter row: A row of this block.
    /// - Returns: The row's diagram with the legend's values in place of their keys.
    public func resolvedDiagram(of row: Row) throws -> String {
        Marbles.render(try ticks(of: row))
    }

    static func readRow(_ line: String) -> Row {
        let characters = Array(line)
        var index = characters.first?.isWhitespace == true ? characters.count : 0
        while index < characters.count {
            defer { index += 1 }
            guard characters[index] == ":", index + 1 < characters.count, characters[index + 1] == " " else { continue }
            let label = String(characters[..<index]).trimmingSpaces()
            guard !label.isEmpty else { continue }
            var start = index + 1
            while start < characters.count, characters[start] == " " { start += 1 }
            var end = start
            var quoted = false
            while end < characters.count, quoted || characters[end] != " " {
                if characters[end] == "'" { quoted.toggle() }
                end += 1
            }
            guard end > start else { continue }
            let diagram = String(characters[start..<end])
            guard (try? Marbles.parse(diagram)) != nil else { continue }
            return Row(label: label, diagram: diagram, comment: String(characters[end...]).trimmingSpaces())
        }
        return Row(label: nil, diagram: nil, comment: line.trimmingSpaces())
    }

    static func readLegend(_ comment: String) -> [(String, String)] {
        guard comment.hasPrefix("("), comment.hasSuffix(")") else { return [] }
        var parts: [String] = []
        var part = ""
        var depth = 0
        var quoted = false
        for character in comment.dropFirst().dropLast() {
            if character == "\"" { quoted.toggle() }
            if !quoted {
                if character == "(" || character == "[" || character == "{" { depth += 1 }
                if character == ")" || character == "]" || character == "}" { depth -= 1 }
                if depth == 0 && (character == "," || character == ";") {
                    parts.append(part)
                    part = ""
                    continue
                }
            }
            part.append(character)
        }
        parts.append(part)
        return parts.compactMap { part in
            let sides = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard sides.count == 2, sides[0].count == 1, let key = sides[0].first, key.isLetter || key.isNumber,
                !sides[1].isEmpty
            else { return nil }
            var value = sides[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return (sides[0], value)
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice = slice.dropFirst() }
        while slice.last?.isWhitespace == true { slice = slice.dropLast() }
        return String(slice)
    }
}

// MARK: - Running a block

extension MarbleBlock {
    /// The output row: the `row`th row (from 1), else the row labelled `output`, else the last.
    func outputIndex(_ row: Int?) -> Int? {
        let diagramRows = self.diagramRows
        if let row { return row >= 1 && row <= diagramRows.count ? row - 1 : nil }
        return diagramRows.firstIndex { $0.label == "output" } ?? (diagramRows.isEmpty ? nil : diagramRows.count - 1)
    }

    /// The input rows and the output row's diagram, with the legend applied. The input rows
    /// are the first `inputs` rows if given, else the rows right before the output row up to
    /// the previous row labelled `output`, leaving out rows labelled `output`.
    func resolve(row: Int?, inputs: Int?, sourceLocation: SourceLocation) -> (inputs: [String], output: String)? {
        guard let outputIndex = outputIndex(row) else {
            TestFailures.record(
                "marble block has no row \(row.map(String.init) ?? "to compare with")", sourceLocation: sourceLocation)
            return nil
        }
        let diagramRows = self.diagramRows
        var inputRows: [Row] = []
        if let inputs {
            inputRows = Array(diagramRows.prefix(inputs))
        } else {
            for candidate in diagramRows[..<outputIndex].reversed() {
                if candidate.label == "output" {
                    if inputRows.isEmpty { continue } else { break }
                }
                inputRows.insert(candidate, at: 0)
            }
        }
        do {
            return (try inputRows.map(resolvedDiagram(of:)), try resolvedDiagram(of: diagramRows[outputIndex]))
        } catch {
            TestFailures.record("marble block: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    func singleInput(row: Int?, inputs: Int?, sourceLocation: SourceLocation) -> (input: String, output: String)? {
        guard let (inputs, output) = resolve(row: row, inputs: inputs, sourceLocation: sourceLocation) else {
            return nil
        }
        guard inputs.count == 1 else {
            TestFailures.record(
                "marble block has \(inputs.count) input rows; an expression for one input was given",
                sourceLocation: sourceLocation)
            return nil
        }
        return (inputs[0], output)
    }

    /// Drives `makeOperator` with the block's one input row and asserts its output row. The
    /// subscriber subscribes at tick `subscribeAt` and asks for `demand`, then for `later[t]`
    /// more at tick `t`.
    ///
    /// - Parameters:
    ///   - row: The output row, counting rows from 1; `nil` for the row labelled `output`, else the
    ///     last.
    ///   - inputs: How many rows, from the first, are input rows; `nil` for the rows right before
    ///     the output row.
    ///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
    ///   - later: More demand to ask for, by tick.
    ///   - subscribeAt: The tick at which the subscriber subscribes; 0 by default.
    ///   - makeOperator: A closure that takes the input row's publisher and returns the publisher
    ///     to check.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func check<P: Publisher>(
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        later: [Int: Subscribers.Demand] = [:],
        subscribeAt: Int = 0,
        _ makeOperator: (TestPublisher<String, MarbleFailure>) -> P,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let (input, output) = singleInput(row: row, inputs: inputs, sourceLocation: sourceLocation) else {
            return
        }
        driveMarbles(
            input, makeOperator, output, demand: demand, later: later, subscribeAt: subscribeAt,
            subscriptionInTickZero: true, sourceLocation: sourceLocation)
    }

    /// Drives `makeOperator` with the block's input rows, in order, and asserts its output row.
    ///
    /// - Parameters:
    ///   - row: The output row, counting rows from 1; `nil` for the row labelled `output`, else the
    ///     last.
    ///   - inputs: How many rows, from the first, are input rows; `nil` for the rows right before
    ///     the output row.
    ///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
    ///   - later: More demand to ask for, by tick.
    ///   - subscribeAt: The tick at which the subscriber subscribes; 0 by default.
    ///   - makeOperator: A closure that takes the input rows' publishers, in order, and returns the
    ///     publisher to check.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func checkMany<P: Publisher>(
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        later: [Int: Subscribers.Demand] = [:],
        subscribeAt: Int = 0,
        _ makeOperator: ([TestPublisher<String, MarbleFailure>]) -> P,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let (inputs, output) = resolve(row: row, inputs: inputs, sourceLocation: sourceLocation) else { return }
        driveMarbles(
            inputs, makeOperator, output, demand: demand, later: later, subscribeAt: subscribeAt,
            subscriptionInTickZero: true, sourceLocation: sourceLocation)
    }

    /// Drives `makeOperator` with the block's one input row on `scheduler`, one tick a second,
    /// and asserts its output row.
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler to drive, one tick a second.
    ///   - row: The output row, counting rows from 1; `nil` for the row labelled `output`, else the
    ///     last.
    ///   - inputs: How many rows, from the first, are input rows; `nil` for the rows right before
    ///     the output row.
    ///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
    ///   - later: More demand to ask for, by tick.
    ///   - subscribeAt: The tick at which the subscriber subscribes; 0 by default.
    ///   - makeOperator: A closure that takes the input row's publisher and returns the publisher
    ///     to check.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func check<P: Publisher, Time, Options>(
        on scheduler: TestScheduler<Time, Options>,
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        later: [Int: Subscribers.Demand] = [:],
        subscribeAt: Int = 0,
        _ makeOperator: (TestPublisher<String, MarbleFailure>) -> P,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let (input, output) = singleInput(row: row, inputs: inputs, sourceLocation: sourceLocation) else {
            return
        }
        driveMarbles(
            [input], on: scheduler, tick: .seconds(1), { hot, _ in makeOperator(hot[0]) }, output,
            demand: demand, later: later, subscribeAt: subscribeAt, sourceLocation: sourceLocation)
    }

    /// Drives `makeOperator` with the block's input rows as cold publishers on `scheduler`, one
    /// tick a second: each subscription to a row plays it from that moment (see ``ColdMarbles``).
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler to drive, one tick a second.
    ///   - row: The output row, counting rows from 1; `nil` for the row labelled `output`, else the
    ///     last.
    ///   - inputs: How many rows, from the first, are input rows; `nil` for the rows right before
    ///     the output row.
    ///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
    ///   - later: More demand to ask for, by tick.
    ///   - subscribeAt: The tick at which the subscriber subscribes; 0 by default.
    ///   - makeOperator: A closure that takes the input rows as cold publishers, in order, and
    ///     returns the publisher to check.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func checkCold<P: Publisher, Time, Options>(
        on scheduler: TestScheduler<Time, Options>,
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        later: [Int: Subscribers.Demand] = [:],
        subscribeAt: Int = 0,
        _ makeOperator: ([ColdMarbles]) -> P,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let (inputs, output) = resolve(row: row, inputs: inputs, sourceLocation: sourceLocation) else { return }
        driveMarbles(
            inputs, on: scheduler, tick: .seconds(1), cold: true, { _, cold in makeOperator(cold) }, output,
            demand: demand, later: later, subscribeAt: subscribeAt, sourceLocation: sourceLocation)
    }

    /// Subscribes to `publisher` and asserts what it sends at once against the output row.
    ///
    /// - Parameters:
    ///   - publisher: The publisher to check.
    ///   - row: The output row, counting rows from 1; `nil` for the row labelled `output`, else the
    ///     last.
    ///   - inputs: How many rows, from the first, are input rows; `nil` for the rows right before
    ///     the output row.
    ///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func check<P: Publisher>(
        source publisher: P,
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let (_, output) = resolve(row: row, inputs: inputs, sourceLocation: sourceLocation) else { return }
        assertMarbles(publisher, output, demand: demand, sourceLocation: sourceLocation)
    }

    /// Subscribes to `publisher` at tick `subscribeAt` (0 by default) and asserts what it sends
    /// over virtual time, one tick a second, against the output row. `publisher` is made at
    /// tick 0, before anything runs.
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler to drive, one tick a second.
    ///   - publisher: The publisher to check.
    ///   - row: The output row, counting rows from 1; `nil` for the row labelled `output`, else the
    ///     last.
    ///   - inputs: How many rows, from the first, are input rows; `nil` for the rows right before
    ///     the output row.
    ///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
    ///   - later: More demand to ask for, by tick.
    ///   - subscribeAt: The tick at which the subscriber subscribes; 0 by default.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func check<P: Publisher, Time, Options>(
        on scheduler: TestScheduler<Time, Options>,
        source publisher: P,
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        later: [Int: Subscribers.Demand] = [:],
        subscribeAt: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let (_, output) = resolve(row: row, inputs: inputs, sourceLocation: sourceLocation) else { return }
        driveMarbles(
            [], on: scheduler, tick: .seconds(1), { _, _ in publisher }, output,
            demand: demand, later: later, subscribeAt: subscribeAt, sourceLocation: sourceLocation)
    }
}
