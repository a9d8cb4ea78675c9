import Streams
import Testing

/// Marble diagrams: a line of text that shows what a stream does over time.
///
/// The grammar (the one swift-async-algorithms uses): each character is one tick; `-` nothing
/// happens; a letter or digit is a value; `'text'` is a longer value; `|` finished; `^` failed;
/// `;` cancelled (in an output: the operator cancelled its upstream); `[ab]` several events in
/// one tick, in order; spaces are ignored.
///
/// <!-- marble marbles-grammar: $0.ints.filter { $0.isMultiple(of: 2) } -->
/// ```text
/// upstream: -1-2-3-4-|
///           filter { $0.isMultiple(of: 2) }
/// output:   ---2---4-|
/// ```
public enum Marbles {
    /// One event in a diagram.
    public enum Event: Equatable, Sendable, CustomStringConvertible {
        /// A value, written as its text.
        case value(String)
        /// `|`
        case finished
        /// `^`
        case failure
        /// `;`
        case cancelled

        /// The event as it is written in a diagram.
        public var description: String {
            switch self {
            case .value(let text): text.count == 1 ? text : "'\(text)'"
            case .finished: "|"
            case .failure: "^"
            case .cancelled: ";"
            }
        }
    }

    /// A diagram that could not be read.
    public struct SyntaxError: Error, CustomStringConvertible {
        /// What is wrong, and where.
        public let description: String
    }

    /// Reads a diagram into its ticks, each a list of events (empty for `-`).
    ///
    /// - Parameter diagram: The diagram to read.
    /// - Returns: The diagram's ticks, each a list of events.
    public static func parse(_ diagram: String) throws -> [[Event]] {
        var ticks: [[Event]] = []
        var group: [Event]?
        var characters = Array(diagram)[...]
        func add(_ event: Event) {
            if group != nil { group!.append(event) } else { ticks.append([event]) }
        }
        while let character = characters.popFirst() {
            switch character {
            case " ": continue
            case "-":
                if group != nil { throw SyntaxError(description: "'-' inside [...] in \"\(diagram)\"") }
                ticks.append([])
            case "|": add(.finished)
            case "^": add(.failure)
            case ";": add(.cancelled)
            case "[":
                if group != nil { throw SyntaxError(description: "nested '[' in \"\(diagram)\"") }
                group = []
            case "]":
                guard let events = group else { throw SyntaxError(description: "']' without '[' in \"\(diagram)\"") }
                ticks.append(events)
                group = nil
            case "'":
                guard let end = characters.firstIndex(of: "'") else {
                    throw SyntaxError(description: "unterminated 'text' in \"\(diagram)\"")
                }
                add(.value(String(characters[..<end])))
                characters = characters[(end + 1)...]
            default:
                guard character.isLetter || character.isNumber else {
                    throw SyntaxError(description: "unexpected '\(character)' in \"\(diagram)\"")
                }
                add(.value(String(character)))
            }
        }
        if group != nil { throw SyntaxError(description: "unterminated '[' in \"\(diagram)\"") }
        return ticks
    }

    /// Writes ticks as a diagram.
    ///
    /// - Parameter ticks: The ticks to write, each a list of events.
    /// - Returns: The diagram.
    public static func render(_ ticks: [[Event]]) -> String {
        ticks.map(renderTick).joined()
    }

    static func renderTick(_ events: [Event]) -> String {
        switch events.count {
        case 0: "-"
        case 1: events[0].description
        default: "[" + events.map(\.description).joined() + "]"
        }
    }

    /// The expected and actual diagrams one above the other, each tick padded to the same
    /// width, with `^` under the first tick that differs; `nil` when they are the same.
    ///
    /// - Parameters:
    ///   - expected: The ticks the diagram expected.
    ///   - actual: The ticks that happened.
    /// - Returns: The two diagrams, aligned, with `^` under the first difference; `nil` when they
    ///   are the same.
    public static func mismatch(expected: [[Event]], actual: [[Event]]) -> String? {
        let count = max(expected.count, actual.count)
        // Trailing empty ticks carry no events: a shorter diagram may end earlier.
        func tick(_ ticks: [[Event]], _ index: Int) -> [Event] { index < ticks.count ? ticks[index] : [] }
        guard let first = (0..<count).first(where: { tick(expected, $0) != tick(actual, $0) }) else { return nil }
        var expectedLine = ""
        var actualLine = ""
        var markerLine = ""
        for index in 0..<count {
            let e = index < expected.count ? renderTick(expected[index]) : ""
            let a = index < actual.count ? renderTick(actual[index]) : ""
            let width = max(e.count, a.count)
            if index == first {
                markerLine += "^"
            } else if index < first {
                markerLine += String(repeating: " ", count: width)
            }
            expectedLine += e.padding(toLength: width)
            actualLine += a.padding(toLength: width)
        }
        func trimmed(_ line: String) -> String {
            String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
        return """
            marble diagrams differ at tick \(first):
            expected: \(trimmed(expectedLine))
            actual:   \(trimmed(actualLine))
                      \(markerLine)
            """
    }
}

extension String {
    fileprivate func padding(toLength width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// The error an upstream sends for `^` in a marble diagram.
public struct MarbleFailure: Error, Equatable, CustomStringConvertible {
    /// Creates the marble failure.
    public init() {}
    /// "^".
    public var description: String { "^" }
}

/// Asserts what a synchronous publisher sends when subscribed with `demand`: everything it sends
/// while being subscribed falls in tick 0.
///
/// ```swift
/// assertMarbles([1, 2, 3].publisher, "[123|]")
/// assertMarbles(Just(7), "[7|]")
/// ```
///
/// - Parameters:
///   - publisher: The publisher to check.
///   - expected: The diagram it must send: everything in one tick.
///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
///   - sourceLocation: Where to report a failure; the caller's location by default.
public func assertMarbles<P: Publisher>(
    _ publisher: P,
    _ expected: String,
    demand: Subscribers.Demand = .unlimited,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let log = MarbleLog()
    publisher.subscribe(MarbleSubscriber<P.Output, P.Failure>(log: log, demand: demand))
    compareMarbles(expected: expected, actual: [log.take()], sourceLocation: sourceLocation)
}

/// Drives an operator with an input diagram, one tick at a time, and asserts the output diagram.
///
/// The upstream is a ``TestPublisher`` of the input's value texts (`String`), failing with
/// ``MarbleFailure``. Each output value is written with its description (one character as is,
/// longer as `'text'`); `;` in the output marks the tick in which the operator cancelled its
/// upstream, in order with the other events of that tick.
///
/// ```swift
/// assertMarbles("-1-2-3-4-|", { $0.compactMap { Int($0) }.filter { $0 % 2 == 0 } }, "---2---4-|")
/// assertMarbles("-a-b-c-|", { $0.first() }, "-[a;|]")
/// ```
///
/// - Parameters:
///   - input: The input diagram.
///   - makeOperator: A closure that takes the input's publisher and returns the publisher to check.
///   - expected: The output diagram it must send.
///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
///   - sourceLocation: Where to report a failure; the caller's location by default.
public func assertMarbles<P: Publisher>(
    _ input: String,
    _ makeOperator: (TestPublisher<String, MarbleFailure>) -> P,
    _ expected: String,
    demand: Subscribers.Demand = .unlimited,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    driveMarbles(
        input, makeOperator, expected, demand: demand, subscriptionInTickZero: false, sourceLocation: sourceLocation)
}

/// The one-input driver; with `subscriptionInTickZero`, what the operator sends while being
/// subscribed counts as tick 0 (doc diagrams show a `prepend`'s values there) instead of
/// being dropped. The subscriber subscribes at the start of tick `subscribeAt` (before that
/// tick's input events; what it is sent then counts in that tick), and asks for `later[t]`
/// more at the start of tick `t`.
func driveMarbles<P: Publisher>(
    _ input: String,
    _ makeOperator: (TestPublisher<String, MarbleFailure>) -> P,
    _ expected: String,
    demand: Subscribers.Demand,
    later: [Int: Subscribers.Demand] = [:],
    subscribeAt: Int = 0,
    subscriptionInTickZero: Bool,
    sourceLocation: SourceLocation
) {
    let inputTicks: [[Marbles.Event]]
    do {
        inputTicks = try Marbles.parse(input)
    } catch {
        TestFailures.record(Comment(rawValue: "input diagram: \(error)"), sourceLocation: sourceLocation)
        return
    }
    let log = MarbleLog()
    let upstream = TestPublisher<String, MarbleFailure>(onCancel: { log.append(.cancelled) })
    let subscriber = MarbleSubscriber<P.Output, P.Failure>(log: log, demand: demand)
    let made = makeOperator(upstream)
    var actual: [[Marbles.Event]] = []
    let length = max(inputTicks.count, subscribeAt + 1, (later.keys.max() ?? 0) + 1)
    for index in 0..<length {
        if index == subscribeAt {
            made.subscribe(subscriber)
            let onSubscribe = log.take()  // nothing is expected before the first tick, unless asked
            if subscriptionInTickZero || index > 0 { log.append(contentsOf: onSubscribe) }
        }
        if let more = later[index] { subscriber.request(more) }
        guard index < inputTicks.count else {
            actual.append(log.take())
            continue
        }
        for event in inputTicks[index] {
            switch event {
            case .value(let text): upstream.send(text)
            case .finished: upstream.send(completion: .finished)
            case .failure: upstream.send(completion: .failure(MarbleFailure()))
            case .cancelled: upstream.subscriptions.last?.cancel()
            }
        }
        actual.append(log.take())
    }
    compareMarbles(expected: expected, actual: actual, sourceLocation: sourceLocation)
}

func compareMarbles(expected: String, actual: [[Marbles.Event]], sourceLocation: SourceLocation) {
    do {
        let expectedTicks = try Marbles.parse(expected)
        if let message = Marbles.mismatch(expected: expectedTicks, actual: actual) {
            TestFailures.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    } catch {
        TestFailures.record(Comment(rawValue: "expected diagram: \(error)"), sourceLocation: sourceLocation)
    }
}

/// The events of the current tick.
final class MarbleLog: @unchecked Sendable {  // `events` is guarded by `lock`
    private let lock = Lock()
    private var events: [Marbles.Event] = []
    func append(_ event: Marbles.Event) { lock.withLock { events.append(event) } }
    func append(contentsOf more: [Marbles.Event]) { lock.withLock { events.append(contentsOf: more) } }
    var count: Int { lock.withLock { events.count } }
    func take() -> [Marbles.Event] {
        lock.withLock {
            defer { events = [] }
            return events
        }
    }
}

// log is thread-safe; `subscription` is guarded by `lock`
final class MarbleSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    let log: MarbleLog
    let demand: Subscribers.Demand
    private let lock = Lock()
    private var subscription: Subscription?
    init(log: MarbleLog, demand: Subscribers.Demand) {
        self.log = log
        self.demand = demand
    }
    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        if demand != .none { subscription.request(demand) }
    }
    /// Asks the subscription for `more` (a diagram's later request).
    func request(_ more: Subscribers.Demand) {
        if let subscription = lock.withLock({ self.subscription }) { subscription.request(more) }
    }
    /// Cancels the subscription (the async driver, once it has seen the last tick).
    func cancel() {
        lock.withLock({ self.subscription })?.cancel()
    }
    func receive(_ input: Input) -> Subscribers.Demand {
        log.append(.value(String(describing: input)))
        return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.append(.finished)
        case .failure: log.append(.failure)
        }
    }
}

// MARK: - On virtual time

/// Drives an operator with an input diagram on a ``TestScheduler``, one tick of `tick` virtual
/// time per character, and asserts the output diagram.
///
/// The subscription is made first, at tick 0. Each input event is scheduled on `scheduler` at its
/// tick before anything else is, so at any instant the input's events come before work the
/// operator scheduled for that same instant: a value that arrives exactly when a `debounce`
/// would fire resets it, as in RxJS's marble tests. An output event is written in the tick during
/// which it happened (an event between two ticks shows in the later one). The diagrams' length
/// is the window observed: the clock runs to the end of the longer one.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// assertMarbles("-a-b-----|", on: scheduler,
///               { $0.debounce(for: .seconds(2), scheduler: scheduler) },
///               "-----b---|")
/// ```
///
/// - Parameters:
///   - input: The input diagram.
///   - scheduler: The test scheduler to drive.
///   - tick: The virtual time of one character of the diagrams; a second by default.
///   - makeOperator: A closure that takes the input's publisher and returns the publisher to check.
///   - expected: The output diagram it must send.
///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
///   - sourceLocation: Where to report a failure; the caller's location by default.
public func assertMarbles<P: Publisher, Time, Options>(
    _ input: String,
    on scheduler: TestScheduler<Time, Options>,
    tick: Time.Stride = .seconds(1),
    _ makeOperator: (TestPublisher<String, MarbleFailure>) -> P,
    _ expected: String,
    demand: Subscribers.Demand = .unlimited,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    driveMarbles(
        [input], on: scheduler, tick: tick, { hot, _ in makeOperator(hot[0]) }, expected, demand: demand,
        sourceLocation: sourceLocation)
}

/// The driver on virtual time: `inputs` are hot rows (each a ``TestPublisher`` driven at its
/// ticks from the start) or, with `cold`, cold rows (each a ``ColdMarbles`` publisher that plays
/// its row from the moment it is subscribed). The subscriber subscribes at tick `subscribeAt`
/// and asks for `later[t]` more at tick `t`; at each instant, these and the inputs' events come
/// first (a later subscription or request before the inputs' events of its tick), before work
/// the operator scheduled.
func driveMarbles<P: Publisher, Time, Options>(
    _ inputs: [String],
    on scheduler: TestScheduler<Time, Options>,
    tick: Time.Stride,
    cold: Bool = false,
    _ makeOperator: (_ hot: [TestPublisher<String, MarbleFailure>], _ cold: [ColdMarbles]) -> P,
    _ expected: String,
    demand: Subscribers.Demand,
    later: [Int: Subscribers.Demand] = [:],
    subscribeAt: Int = 0,
    sourceLocation: SourceLocation
) {
    var inputTicks: [[[Marbles.Event]]] = []
    let expectedTicks: [[Marbles.Event]]
    do {
        inputTicks = try inputs.map(Marbles.parse)
        expectedTicks = try Marbles.parse(expected)
    } catch {
        TestFailures.record(Comment(rawValue: "\(error)"), sourceLocation: sourceLocation)
        return
    }
    let log = MarbleLog()
    let hot = inputs.map { _ in TestPublisher<String, MarbleFailure>(onCancel: { log.append(.cancelled) }) }
    let length = max(
        inputTicks.map(\.count).max() ?? 0, expectedTicks.count, subscribeAt + 1, (later.keys.max() ?? 0) + 1)
    let times = tickTimes(from: scheduler.now, tick: tick, count: length)
    let subscriber = MarbleSubscriber<P.Output, P.Failure>(log: log, demand: demand)
    let made = makeOperator(
        cold ? [] : hot, cold ? inputTicks.map { ColdMarbles(ticks: $0, on: scheduler, tick: tick, log: log) } : [])
    let subscribe = SendableBox { made.subscribe(subscriber) }
    for index in 0..<length {
        if index == subscribeAt && index > 0 {
            scheduler.schedule(after: times[index]) { subscribe.value() }
        }
        if let more = later[index] { scheduler.schedule(after: times[index]) { subscriber.request(more) } }
        guard !cold else { continue }
        for (upstream, ticks) in zip(hot, inputTicks) where index < ticks.count && !ticks[index].isEmpty {
            let events = ticks[index]
            scheduler.schedule(after: times[index]) { play(events, on: upstream) }
        }
    }
    // At tick 0 the subscription comes after the inputs are scheduled: at any instant their
    // events run before work the operator schedules when subscribed.
    if subscribeAt == 0 { subscribe.value() }
    compareMarbles(expected: expected, actual: record(times, on: scheduler, log), sourceLocation: sourceLocation)
}

/// Sends a tick's events to `upstream`.
func play(_ events: [Marbles.Event], on upstream: TestPublisher<String, MarbleFailure>) {
    for event in events {
        switch event {
        case .value(let text): upstream.send(text)
        case .finished: upstream.send(completion: .finished)
        case .failure: upstream.send(completion: .failure(MarbleFailure()))
        case .cancelled: upstream.subscriptions.last?.cancel()
        }
    }
}

/// A value that a `@Sendable` closure of a marble driver may carry: the drivers run on one
/// thread (the test's, and the test scheduler's work it runs).
struct SendableBox<Value>: @unchecked Sendable {  // used on the test's thread only
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A cold input row: each subscription plays the row from its own start, one tick of virtual
/// time per character counted from the moment of subscribing (a row that starts when something
/// subscribes to it: the second effect of a `concatenate`, the inner publisher of a `flatMap`).
/// Leading spaces of the row, which align it in the picture, are ignored like every space.
public struct ColdMarbles: Publisher {
    /// The row's value texts.
    public typealias Output = String
    /// `^` in the row.
    public typealias Failure = MarbleFailure

    let ticks: [[Marbles.Event]]
    let start: (TestPublisher<String, MarbleFailure>, [[Marbles.Event]]) -> Void
    let log: MarbleLog

    init<Time, Options>(
        ticks: [[Marbles.Event]], on scheduler: TestScheduler<Time, Options>, tick: Time.Stride, log: MarbleLog
    ) {
        self.ticks = ticks
        self.log = log
        self.start = { upstream, ticks in
            var time = scheduler.now
            for events in ticks {
                if !events.isEmpty {
                    scheduler.schedule(after: time) { play(events, on: upstream) }
                }
                time = time.advanced(by: tick)
            }
        }
    }

    /// Plays the row for `subscriber`, from now.
    ///
    /// - Parameter subscriber: The subscriber that receives the row's events.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == MarbleFailure {
        let log = self.log
        let upstream = TestPublisher<String, MarbleFailure>(onCancel: { log.append(.cancelled) })
        upstream.subscribe(subscriber)
        start(upstream, ticks)
    }
}

/// Subscribes to `publisher` at tick 0 and asserts what it sends over virtual time, one tick of
/// `tick` per character (for publishers that schedule their own values: timers, `Deferred` with
/// delays, ...).
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// assertMarbles(on: scheduler, Just(1).delay(for: .seconds(2), scheduler: scheduler), "--[1|]")
/// ```
///
/// - Parameters:
///   - scheduler: The test scheduler to drive.
///   - tick: The virtual time of one character of the diagram; a second by default.
///   - publisher: The publisher to check.
///   - expected: The diagram it must send.
///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
///   - sourceLocation: Where to report a failure; the caller's location by default.
public func assertMarbles<P: Publisher, Time, Options>(
    on scheduler: TestScheduler<Time, Options>,
    tick: Time.Stride = .seconds(1),
    _ publisher: P,
    _ expected: String,
    demand: Subscribers.Demand = .unlimited,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    driveMarbles(
        [], on: scheduler, tick: tick, { _, _ in publisher }, expected, demand: demand, sourceLocation: sourceLocation)
}

/// The instants of ticks 0, 1, 2, ...: each one `tick` after the last.
func tickTimes<Time: Strideable>(from start: Time, tick: Time.Stride, count: Int) -> [Time] {
    var times: [Time] = []
    var time = start
    for _ in 0..<count {
        times.append(time)
        time = time.advanced(by: tick)
    }
    return times
}

/// Advances `scheduler` to each tick in turn and collects what happened up to it.
private func record<Time, Options>(
    _ times: [Time], on scheduler: TestScheduler<Time, Options>, _ log: MarbleLog
) -> [[Marbles.Event]] {
    var ticks: [[Marbles.Event]] = []
    for time in times {
        scheduler.advance(to: time)
        ticks.append(log.take())
    }
    return ticks
}
