import Streams
import StreamsTesting
import Testing

/// Drives several ``TestPublisher``s, one diagram each, one tick at a time, and asserts the
/// output diagram of the operator built on them (the combining operators take more than one
/// input).
///
/// Publisher `i` is driven by `inputs[i]`; within a tick the inputs act in order, publisher 0
/// first. The operator is subscribed at tick 0, before the inputs' events of that tick, and
/// what it sends while being subscribed is written in tick 0 (the one-input `assertMarbles`
/// leaves that out). A test publisher that nobody is subscribed to drops the values it is
/// sent, so each input diagram is in absolute time: an inner publisher subscribed at tick 5
/// ignores its events before tick 5. Cancellations are not drawn; tests assert them with the
/// publishers' `history`.
///
/// ```swift
/// assertMarbles(inputs: ["-a---b-------|", "--1---2-|", "------7---8-|"],
///               { p in p[0].flatMap { $0 == "a" ? p[1] : p[2] } },
///               "--1---[27]---8--|")
/// ```
func assertMarbles<P: Publisher>(
    inputs: [String],
    _ makeOperator: ([TestPublisher<String, MarbleFailure>]) -> P,
    _ expected: String,
    demand: Subscribers.Demand = .unlimited,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let inputTicks: [[[Marbles.Event]]]
    let expectedTicks: [[Marbles.Event]]
    do {
        inputTicks = try inputs.map(Marbles.parse)
        expectedTicks = try Marbles.parse(expected)
    } catch {
        Issue.record(Comment(rawValue: "\(error)"), sourceLocation: sourceLocation)
        return
    }
    let publishers = inputs.map { _ in TestPublisher<String, MarbleFailure>() }
    let recorder = TickRecorder<P.Output, P.Failure>(demand: demand)
    makeOperator(publishers).subscribe(recorder)
    var actual: [[Marbles.Event]] = []
    let tickCount = inputTicks.map(\.count).max() ?? 0
    for tick in 0..<tickCount {
        for (publisher, ticks) in zip(publishers, inputTicks) where tick < ticks.count {
            for event in ticks[tick] {
                switch event {
                case .value(let text): publisher.send(text)
                case .finished: publisher.send(completion: .finished)
                case .failure: publisher.send(completion: .failure(MarbleFailure()))
                case .cancelled: publisher.subscriptions.last?.cancel()
                }
            }
        }
        actual.append(recorder.take())
    }
    if let message = Marbles.mismatch(expected: expectedTicks, actual: actual) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
    for violation in recorder.violations {
        Issue.record(Comment(rawValue: violation), sourceLocation: sourceLocation)
    }
}

/// Records what arrives, as marble events, until ``take()``; checks S1 on the way.
private final class TickRecorder<Input, Failure: Error>: Subscriber,
    @unchecked Sendable  // all mutable state is guarded by `lock`
{
    private let lock = Lock()
    private var events: [Marbles.Event] = []
    private var outstanding: Subscribers.Demand
    private(set) var violations: [String] = []

    init(demand: Subscribers.Demand) {
        outstanding = demand
    }

    func take() -> [Marbles.Event] {
        lock.withLock {
            defer { events = [] }
            return events
        }
    }

    func receive(subscription: any Subscription) {
        if outstanding != .none { subscription.request(outstanding) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock {
            if outstanding == .none { violations.append("S1: \(input) arrived without demand") }
            outstanding -= 1
            events.append(.value(String(describing: input)))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            switch completion {
            case .finished: events.append(.finished)
            case .failure: events.append(.failure)
            }
        }
    }
}
