import Streams
import Testing

/// Drives an operator that combines several upstreams (`merge`, `zip`, `combineLatest`, ...)
/// with one input diagram per upstream, one tick at a time, and asserts the output diagram.
///
/// Each input drives its own ``TestPublisher`` of value texts (`String`), failing with
/// ``MarbleFailure``; `makeOperator` gets them in the order of `inputs`. Within a tick, the
/// first input's events are sent first, then the second's, and so on. In the output, `;` marks
/// the operator cancelling one of its upstreams (one `;` per upstream cancelled), in order with
/// the other events of that tick. Values are written as in the one-input
/// `assertMarbles(_:_:_:demand:sourceLocation:)`: map tuples to text to keep them short.
///
/// ```swift
/// assertMarbles(["-1---3-|",
///                "---2---|"],
///               { $0[0].merge(with: $0[1]) },
///               "-1-2-3-|")
/// assertMarbles(["-1-2-|",
///                "--a-b---c|"],
///               { $0[0].zip($0[1]) { $0 + $1 } },
///               "--'1a'-'2b'[;|]")
/// ```
///
/// - Parameters:
///   - inputs: The input diagrams, one per upstream.
///   - makeOperator: A closure that takes the inputs' publishers, in order, and returns the
///     publisher to check.
///   - expected: The output diagram it must send.
///   - demand: What the subscriber asks for when it subscribes; unlimited by default.
///   - sourceLocation: Where to report a failure; the caller's location by default.
public func assertMarbles<P: Publisher>(
    _ inputs: [String],
    _ makeOperator: ([TestPublisher<String, MarbleFailure>]) -> P,
    _ expected: String,
    demand: Subscribers.Demand = .unlimited,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    driveMarbles(
        inputs, makeOperator, expected, demand: demand, subscriptionInTickZero: false, sourceLocation: sourceLocation)
}

/// The several-input driver; `subscriptionInTickZero`, `later` and `subscribeAt` as for the
/// one-input one.
func driveMarbles<P: Publisher>(
    _ inputs: [String],
    _ makeOperator: ([TestPublisher<String, MarbleFailure>]) -> P,
    _ expected: String,
    demand: Subscribers.Demand,
    later: [Int: Subscribers.Demand] = [:],
    subscribeAt: Int = 0,
    subscriptionInTickZero: Bool,
    sourceLocation: SourceLocation
) {
    var inputTicks: [[[Marbles.Event]]] = []
    for (number, input) in inputs.enumerated() {
        do {
            inputTicks.append(try Marbles.parse(input))
        } catch {
            TestFailures.record(Comment(rawValue: "input diagram \(number): \(error)"), sourceLocation: sourceLocation)
            return
        }
    }
    let log = MarbleLog()
    let upstreams = inputs.map { _ in TestPublisher<String, MarbleFailure>(onCancel: { log.append(.cancelled) }) }
    let subscriber = MarbleSubscriber<P.Output, P.Failure>(log: log, demand: demand)
    let made = makeOperator(upstreams)
    var actual: [[Marbles.Event]] = []
    let length = max(inputTicks.map(\.count).max() ?? 0, subscribeAt + 1, (later.keys.max() ?? 0) + 1)
    for tick in 0..<length {
        if tick == subscribeAt {
            made.subscribe(subscriber)
            let onSubscribe = log.take()  // nothing is expected before the first tick, unless asked
            if subscriptionInTickZero || tick > 0 { log.append(contentsOf: onSubscribe) }
        }
        if let more = later[tick] { subscriber.request(more) }
        for (upstream, ticks) in zip(upstreams, inputTicks) where tick < ticks.count {
            for event in ticks[tick] {
                switch event {
                case .value(let text): upstream.send(text)
                case .finished: upstream.send(completion: .finished)
                case .failure: upstream.send(completion: .failure(MarbleFailure()))
                case .cancelled: upstream.subscriptions.last?.cancel()
                }
            }
        }
        actual.append(log.take())
    }
    compareMarbles(expected: expected, actual: actual, sourceLocation: sourceLocation)
}
