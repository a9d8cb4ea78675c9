import Streams
import Testing

// The async marble driver: diagrams whose events come from work that runs in real time (a task
// on the cooperative pool, a run loop, URLSession's delegate queue). See `MarbleBlock`'s doc
// comment, option `async`.

extension MarbleBlock {
    /// Drives `makeOperator` with the block's one input row on `scheduler`, one tick a second,
    /// awaiting at each tick the events the output row shows there, and asserts the output row.
    ///
    /// As ``check(on:row:inputs:demand:later:subscribeAt:_:sourceLocation:)``, except that the
    /// output is received on `scheduler` (`receive(on:)`), and at each tick where the output row
    /// has events the driver waits (awaits, up to `timeout` of real time) until that many
    /// events have arrived before it moves on: work that ends in real time — a task, a run
    /// loop, a delegate queue — has until then to send them. The row is then compared exactly,
    /// so an event that comes at another tick, or a different one, fails the test; events
    /// that never come fail it after `timeout`. An input row's values wait, before their tick,
    /// until the operator has asked for them (up to `timeout`), as real-time work (a
    /// `for await` loop's `next()`) asks at moments no tick sets; a completion does not wait.
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
    ///   - timeout: The longest real time to await the events of one tick, or an input value's
    ///     request.
    ///   - isolation: The actor to stay isolated to; the caller's by default.
    ///   - makeOperator: A closure that takes the input row's publisher and returns the publisher
    ///     to check.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func checkAsync<P: Publisher, Time, Options>(
        on scheduler: TestScheduler<Time, Options>,
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        later: [Int: Subscribers.Demand] = [:],
        subscribeAt: Int = 0,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        _ makeOperator: (TestPublisher<String, MarbleFailure>) -> P,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let (input, output) = singleInput(row: row, inputs: inputs, sourceLocation: sourceLocation) else {
            return
        }
        await driveMarblesAsync(
            [input], on: scheduler, { makeOperator($0[0]) }, output, demand: demand, later: later,
            subscribeAt: subscribeAt, timeout: timeout, isolation: isolation,
            sourceLocation: sourceLocation)
    }

    /// Subscribes to `publisher` at tick `subscribeAt` (0 by default) and asserts what it sends
    /// against the output row, awaiting at each tick the events the row shows there (see
    /// ``checkAsync(on:row:inputs:demand:later:subscribeAt:timeout:isolation:_:sourceLocation:)``).
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
    ///   - timeout: The longest real time to await the events of one tick, or an input value's
    ///     request.
    ///   - isolation: The actor to stay isolated to; the caller's by default.
    ///   - sourceLocation: Where to report a failure; the caller's location by default.
    public func checkAsync<P: Publisher, Time, Options>(
        on scheduler: TestScheduler<Time, Options>,
        source publisher: P,
        row: Int? = nil,
        inputs: Int? = nil,
        demand: Subscribers.Demand = .unlimited,
        later: [Int: Subscribers.Demand] = [:],
        subscribeAt: Int = 0,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let (_, output) = resolve(row: row, inputs: inputs, sourceLocation: sourceLocation) else { return }
        await driveMarblesAsync(
            [], on: scheduler, { _ in publisher }, output, demand: demand, later: later,
            subscribeAt: subscribeAt, timeout: timeout, isolation: isolation,
            sourceLocation: sourceLocation)
    }
}

/// The async driver: as `driveMarbles` (hot inputs at their ticks, a later subscription and
/// requests at theirs), with the output received on `scheduler`; before the clock moves to a
/// tick where an input row has values, an await until they have been asked for; after the
/// last tick, a cancel (real-time work stops with the test); after the clock reached each
/// tick, an await (``TestScheduler/advance(by:until:timeout:isolation:sourceLocation:)``,
/// which runs the scheduler's work as it comes and never blocks a thread) until the events the
/// expected row shows at that tick have arrived.
func driveMarblesAsync<P: Publisher, Time, Options>(
    _ inputs: [String],
    on scheduler: TestScheduler<Time, Options>,
    _ makeOperator: ([TestPublisher<String, MarbleFailure>]) -> P,
    _ expected: String,
    demand: Subscribers.Demand,
    later: [Int: Subscribers.Demand],
    subscribeAt: Int,
    timeout: Duration,
    isolation: isolated (any Actor)?,
    sourceLocation: SourceLocation
) async {
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
    // A request wakes the driver when it waits for demand: it schedules nothing but a wake-up.
    let hot = inputs.map { _ in
        TestPublisher<String, MarbleFailure>(onCancel: { log.append(.cancelled) }, onRequest: { scheduler.schedule {} })
    }
    let length = max(
        inputTicks.map(\.count).max() ?? 0, expectedTicks.count, subscribeAt + 1, (later.keys.max() ?? 0) + 1)
    let times = tickTimes(from: scheduler.now, tick: .seconds(1), count: length)
    let subscriber = MarbleSubscriber<P.Output, P.Failure>(log: log, demand: demand)
    let made = makeOperator(hot).receive(on: scheduler)
    let subscribe = SendableBox { made.subscribe(subscriber) }
    for index in 0..<length {
        if index == subscribeAt && index > 0 {
            scheduler.schedule(after: times[index]) { subscribe.value() }
        }
        if let more = later[index] { scheduler.schedule(after: times[index]) { subscriber.request(more) } }
        for (upstream, ticks) in zip(hot, inputTicks) where index < ticks.count && !ticks[index].isEmpty {
            let events = ticks[index]
            scheduler.schedule(after: times[index]) { play(events, on: upstream) }
        }
    }
    if subscribeAt == 0 { subscribe.value() }
    var actual: [[Marbles.Event]] = []
    for (index, time) in times.enumerated() {
        scheduler.advanceSynchronously(to: time)
        let wanted = index < expectedTicks.count ? expectedTicks[index].count : 0
        if wanted > 0 {
            let arrived = await scheduler.advance(
                until: { log.count >= wanted }, timeout: timeout,
                isolation: isolation, sourceLocation: sourceLocation)
            if !arrived && !Task.isCancelled {
                TestFailures.record(
                    Comment(
                        rawValue: "marble diagram, tick \(index): the row shows \(wanted) event(s) there, and "
                            + "\(log.count) arrived within \(timeout) of real time"),
                    sourceLocation: sourceLocation)
            }
        }
        actual.append(log.take())
        // The next tick's input values wait until they have been asked for: real-time work (a
        // `for await` loop's `next()`) asks at moments no tick sets.
        let next = index + 1
        for (upstream, ticks) in zip(hot, inputTicks) where next < ticks.count {
            let values = ticks[next].filter { if case .value = $0 { true } else { false } }.count
            guard values > 0 else { continue }
            let asked = await scheduler.advance(
                until: { upstream.demand >= values }, timeout: timeout,
                isolation: isolation, sourceLocation: sourceLocation)
            if !asked && !Task.isCancelled {
                TestFailures.record(
                    Comment(
                        rawValue: "marble diagram, tick \(next): the input row sends \(values) value(s) there, and "
                            + "they were not asked for within \(timeout) of real time"),
                    sourceLocation: sourceLocation)
            }
        }
    }
    // Real-time work (a timer, a task) stops with the subscription, not with the test.
    subscriber.cancel()
    compareMarbles(expected: expected, actual: actual, sourceLocation: sourceLocation)
}

// MARK: - Harnesses for real-time work

extension TestScheduler {
    /// A wait that ends when this scheduler's clock reaches tick `tick` of a marble diagram
    /// (`tick` seconds of virtual time after now): async work in a diagram's expression awaits
    /// it to end at that tick.
    ///
    /// Make it when the expression is made (at tick 0), in a capture list, so that the tick is
    /// counted from there and not from whenever a task first runs:
    ///
    /// <!-- example context: marble -->
    /// ```swift
    /// recordingAwait { [reached = scheduler.waitForTick(5)] in await reached(); return "a" }
    /// ```
    ///
    /// - Parameter tick: The tick of the diagram at which the wait ends.
    /// - Returns: A wait to `await` in the diagram's expression.
    public func waitForTick(_ tick: Int) -> MarbleTickWait {
        let gate = TickGate()
        atTick(tick) { gate.open() }
        return MarbleTickWait(gate: gate)
    }
}

/// The wait ``TestScheduler/waitForTick(_:)`` makes: `await wait()` returns once the tick has
/// been reached (at once after that). It never blocks a thread.
public struct MarbleTickWait: Sendable {
    let gate: TickGate

    /// Returns once the scheduler's clock has reached the tick.
    public func callAsFunction() async {
        await gate.wait()
    }
}

/// A gate that opens once; `wait()` suspends until it has.
final class TickGate: @unchecked Sendable {  // `isOpen` and `waiters` are guarded by `lock`
    private let lock = Lock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let waiting = lock.withLock {
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openAlready = lock.withLock {
                if isOpen { return true }
                waiters.append(continuation)
                return false
            }
            if openAlready { continuation.resume() }
        }
    }
}

/// A publisher whose row is what an `await` returns: each subscription starts a task that runs
/// `body` and sends its result as a value (without a completion: an await returns once).
///
/// For the diagram of an awaited property or call (`Future.value`), which is not a publisher:
///
/// <!-- example context: marble -->
/// ```swift
/// recordingAwait { [future] in await future.value }
/// ```
///
/// Cancelling the subscription cancels the task.
///
/// - Parameter body: The asynchronous work whose result is the row's value.
/// - Returns: A publisher that sends `body`'s result for each subscription.
public func recordingAwait<Output: Sendable>(
    _ body: @escaping @Sendable () async -> Output
) -> AwaitedRow<Output, Never> {
    AwaitedRow { row in row.send(await body()) }
}

/// A publisher whose row is what a throwing `await` returns or throws: its result as a value,
/// or its error as the row's failure (`^`).
///
/// - Parameter body: The asynchronous, throwing work whose result or error is the row's.
/// - Returns: A publisher that sends `body`'s result, or fails with its error, for each
///   subscription.
public func recordingAwait<Output: Sendable>(
    _ body: @escaping @Sendable () async throws -> Output
) -> AwaitedRow<Output, any Error> {
    AwaitedRow { row in
        do { row.send(try await body()) } catch { row.send(completion: .failure(error)) }
    }
}

/// A publisher whose row is what `body` returns when it awaits something of `subject`: as
/// `recordingAwait(_:)`, for an expression that makes what is awaited (a capture list cannot
/// hold a closure):
///
/// <!-- example context: marble -->
/// ```swift
/// recordingAwait(on: Future<String, Never> { promise in scheduler.atTick(3) { promise(.success("a")) } }) {
///     await $0.value
/// }
/// ```
///
/// - Parameters:
///   - subject: The value `body` awaits something of, made with the expression.
///   - body: The asynchronous work, given `subject`, whose result is the row's value.
/// - Returns: A publisher that sends `body`'s result for each subscription.
public func recordingAwait<Subject: Sendable, Output: Sendable>(
    on subject: Subject, _ body: @escaping @Sendable (Subject) async -> Output
) -> AwaitedRow<Output, Never> {
    recordingAwait { await body(subject) }
}

/// A publisher whose row is what `body` returns or throws when it awaits something of
/// `subject` (see `recordingAwait(on:_:)`).
///
/// - Parameters:
///   - subject: The value `body` awaits something of, made with the expression.
///   - body: The asynchronous, throwing work, given `subject`, whose result or error is the row's.
/// - Returns: A publisher that sends `body`'s result, or fails with its error, for each
///   subscription.
public func recordingAwait<Subject: Sendable, Output: Sendable>(
    on subject: Subject, _ body: @escaping @Sendable (Subject) async throws -> Output
) -> AwaitedRow<Output, any Error> {
    recordingAwait { try await body(subject) }
}

/// A publisher whose row is what a `for await` loop over `sequence` runs its body with: each
/// subscription starts a task that iterates the sequence and sends each element; the row
/// finishes when the loop ends, and fails (`^`) when it throws.
///
/// For the diagram of an asynchronous sequence (`values`), which is not a publisher:
///
/// <!-- example context: marble -->
/// ```swift
/// recordingLoop(over: upstream.values)
/// ```
///
/// Cancelling the subscription cancels the task.
///
/// - Parameter sequence: The asynchronous sequence to loop over.
/// - Returns: A publisher that sends the sequence's elements, then finishes or fails as the loop
///   does.
public func recordingLoop<Sequence: AsyncSequence & Sendable>(
    over sequence: Sequence
) -> AwaitedRow<Sequence.Element, any Error> where Sequence.Element: Sendable {
    AwaitedRow { row in
        do {
            for try await element in sequence { row.send(element) }
            row.send(completion: .finished)
        } catch {
            row.send(completion: .failure(error))
        }
    }
}

/// The publisher `recordingAwait(_:)` and ``recordingLoop(over:)`` make.
public struct AwaitedRow<Output: Sendable, Failure: Error>: Publisher {
    let run: @Sendable (PassthroughSubject<Output, Failure>) async -> Void

    init(_ run: @escaping @Sendable (PassthroughSubject<Output, Failure>) async -> Void) {
        self.run = run
    }

    /// Subscribes `subscriber` to the row, then starts the task.
    ///
    /// - Parameter subscriber: The subscriber that receives the row's events.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let row = PassthroughSubject<Output, Failure>()
        let run = self.run
        let attached = AttachedSubscriber()
        row.handleEvents(receiveCancel: { attached.cancel() }).subscribe(subscriber)
        let task = Task { await run(row) }
        attached.keep(AnyCancellable { task.cancel() })
    }
}
