import Streams
import Testing

/// A publisher that breaks the stream contract on purpose: it sends each subscriber the same
/// fixed script of signals, in order, whatever the subscriber asked for.
///
/// Use it to check that an operator ignores a value or completion that arrives before its
/// upstream subscription or after the upstream's end, and cancels a second subscription (rule [S2]),
/// as Combine's operators do. ``checkIgnoresMisbehavingUpstream(_:value:failure:settle:sourceLocation:)``
/// runs the usual scripts.
///
/// ```swift
/// let upstream = MisbehavingPublisher<Int, Never>([.value(1), .subscription, .completion(.finished), .value(2)])
/// let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
/// upstream.map { $0 * 2 }.subscribe(subscriber)
/// ```
///
/// [S2]: doc:/Contract/StreamContract#S2
public struct MisbehavingPublisher<Output, Failure: Error>: Publisher {
    /// One signal of the script.
    public enum Signal {
        /// Hands the subscriber a new ``/Streams/Subscription`` (recorded in ``subscriptions``).
        case subscription
        /// Sends a value, ignoring demand.
        case value(Output)
        /// Sends a completion.
        case completion(Subscribers.Completion<Failure>)
    }

    /// The signals every subscriber gets, in order.
    public let script: [Signal]
    private let recorder = SubscriptionList<Output, Failure>()

    /// Creates a publisher that sends `script` to each subscriber.
    ///
    /// - Parameter script: The signals to send each subscriber, in order.
    public init(_ script: [Signal]) {
        self.script = script
    }

    /// Every subscription handed out so far, in order; each records the requests and cancels it
    /// received.
    public var subscriptions: [TestPublisher<Output, Failure>.TestSubscription] { recorder.all }

    /// Runs the script against `subscriber`.
    ///
    /// - Parameter subscriber: The subscriber to send the script to.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        for signal in script {
            switch signal {
            case .subscription:
                // A detached TestPublisher's subscription records requests and cancels but never
                // sends anything by itself: the script does the sending.
                let source = TestPublisher<Output, Failure>()
                let probe = ProbeSubscriber<Output, Failure>()
                source.subscribe(probe)
                if let subscription = source.subscriptions.last {
                    recorder.append(subscription)
                    subscriber.receive(subscription: subscription)
                }
            case .value(let value):
                _ = subscriber.receive(value)
            case .completion(let completion):
                subscriber.receive(completion: completion)
            }
        }
    }
}

/// Checks rule [S2]'s part about misbehaving upstreams for the operator `makeOperator` builds on
/// top of an upstream: a value or completion that reaches the operator before its upstream
/// subscription, or after the upstream's completion, is ignored, and a second upstream
/// subscription is cancelled. Combine's operators behave this way.
///
/// Each script's outcome is compared with the same operator over a well-behaved upstream that
/// only subscribes and finishes (or fails): the downstream must see exactly the same events and
/// no broken rule. `value` is any value of the upstream's type; `failure`, when given, adds the
/// scripts that end with a failure. `settle` runs after each subscription, for operators that
/// deliver on a scheduler (advance a TestScheduler there).
///
/// <!-- example context: suite -->
/// ```swift
/// @Test func ignoresMisbehavingUpstream() {
///     checkIgnoresMisbehavingUpstream({ $0.dropFirst(1) }, value: 1, failure: Boom())
/// }
/// ```
///
/// - Parameters:
///   - makeOperator: A closure that takes the misbehaving upstream and returns the operator to
///     check.
///   - value: Any value of the upstream's type.
///   - failure: An error of the upstream's type, to also check the scripts that end with a failure;
///     `nil` by default.
///   - settle: A closure run after each subscription, to let an operator on a scheduler deliver.
///   - sourceLocation: Where to report a failure; the caller's location by default.
///
/// [S2]: doc:/Contract/StreamContract#S2
public func checkIgnoresMisbehavingUpstream<Output, Failure: Error, P: Publisher>(
    _ makeOperator: (MisbehavingPublisher<Output, Failure>) -> P,
    value: Output,
    failure: Failure? = nil,
    settle: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation
) {
    typealias Upstream = MisbehavingPublisher<Output, Failure>
    var endings: [Subscribers.Completion<Failure>] = [.finished]
    if let failure { endings.append(.failure(failure)) }

    func run(_ script: [Upstream.Signal]) -> (events: [String], violations: [String], upstream: Upstream) {
        let upstream = Upstream(script)
        let subscriber = RecordingSubscriber<P.Output, P.Failure>(demand: .unlimited)
        makeOperator(upstream).subscribe(subscriber)
        settle()
        return (subscriber.events.map(\.description), subscriber.violations, upstream)
    }

    for ending in endings {
        let expected = run([.subscription, .completion(ending)])
        let scripts: [(String, [Upstream.Signal])] = [
            (
                "a value and a completion before the subscription",
                [.value(value), .completion(ending), .subscription, .completion(ending)]
            ),
            (
                "a value and completions after the completion",
                [.subscription, .completion(ending), .value(value), .completion(.finished)]
                    + (failure.map { [Upstream.Signal.completion(.failure($0))] } ?? [])
            ),
        ]
        for (name, script) in scripts {
            let actual = run(script)
            if !actual.violations.isEmpty {
                TestFailures.record(
                    "S2: with \(name), the downstream saw broken rules: \(actual.violations)",
                    sourceLocation: sourceLocation)
            }
            if actual.events != expected.events {
                TestFailures.record(
                    """
                    S2: with \(name), the downstream saw \(actual.events) \
                    where a well-behaved upstream gives \(expected.events)
                    """, sourceLocation: sourceLocation)
            }
        }
    }

    let twice = run([.subscription, .subscription, .completion(.finished)])
    let subscriptions = twice.upstream.subscriptions
    if subscriptions.count == 2, !subscriptions[1].history.contains(.cancelled) {
        TestFailures.record(
            "S2: a second upstream subscription was not cancelled (its history: \(subscriptions[1].history))",
            sourceLocation: sourceLocation)
    }
    if !twice.violations.isEmpty {
        TestFailures.record(
            "S2: with a second upstream subscription, the downstream saw broken rules: \(twice.violations)",
            sourceLocation: sourceLocation)
    }
}

/// Checks that an operator that keeps no state and hands the upstream's subscription straight
/// down (`map`, `breakpoint`, `assertNoFailure`, ...) is transparent to a misbehaving upstream,
/// as Combine's are (rule [S2]): whatever the upstream sends out of order reaches the downstream
/// unchanged, for the next stateful subscriber to ignore.
///
/// Runs the scripts of ``checkIgnoresMisbehavingUpstream(_:value:failure:settle:sourceLocation:)``
/// (and a second subscription) and compares what the downstream sees through the operator with
/// what a subscriber attached directly to the upstream sees: the same events and the same broken
/// rules. Pass a `value` the operator passes on unchanged.
///
/// <!-- example context: suite -->
/// ```swift
/// @Test func passesAMisbehavingUpstreamThrough() {
///     checkPassesMisbehavingUpstreamThrough({ $0.breakpoint() }, value: 1, failure: Boom())
/// }
/// ```
///
/// - Parameters:
///   - makeOperator: A closure that takes the misbehaving upstream and returns the operator to
///     check.
///   - value: A value of the upstream's type that the operator passes on unchanged.
///   - failure: An error of the upstream's type, to also check the scripts that end with a failure;
///     `nil` by default.
///   - sourceLocation: Where to report a failure; the caller's location by default.
///
/// [S2]: doc:/Contract/StreamContract#S2
public func checkPassesMisbehavingUpstreamThrough<Output, Failure: Error, P: Publisher>(
    _ makeOperator: (MisbehavingPublisher<Output, Failure>) -> P,
    value: Output,
    failure: Failure? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) where P.Output == Output {
    typealias Upstream = MisbehavingPublisher<Output, Failure>
    var endings: [Subscribers.Completion<Failure>] = [.finished]
    if let failure { endings.append(.failure(failure)) }
    var scripts: [[Upstream.Signal]] = [[.subscription, .subscription, .completion(.finished)]]
    for ending in endings {
        scripts.append([.value(value), .completion(ending), .subscription, .completion(ending)])
        scripts.append([.subscription, .completion(ending), .value(value), .completion(ending)])
    }

    func describeSignal(_ signal: Upstream.Signal) -> String {
        switch signal {
        case .subscription: "subscription"
        case .value(let value): String(describing: value)
        case .completion(.finished): "finished"
        case .completion(.failure(let error)): "failure(\(error))"
        }
    }

    for script in scripts {
        let direct = RecordingSubscriber<Output, Failure>(demand: .unlimited)
        Upstream(script).subscribe(direct)
        let through = RecordingSubscriber<P.Output, P.Failure>(demand: .unlimited)
        makeOperator(Upstream(script)).subscribe(through)
        let expected = direct.events.map(\.description)
        let actual = through.events.map(\.description)
        if actual != expected || through.violations != direct.violations {
            TestFailures.record(
                """
                S2: with the script \(script.map(describeSignal)), the downstream saw \(actual) \
                (broken rules: \(through.violations)) where the upstream sent \(expected) \
                (broken rules: \(direct.violations)): the operator is not transparent
                """, sourceLocation: sourceLocation)
        }
    }
}

private final class SubscriptionList<Output, Failure: Error>: @unchecked Sendable {  // guarded by `lock`
    private let lock = Lock()
    private var items: [TestPublisher<Output, Failure>.TestSubscription] = []
    var all: [TestPublisher<Output, Failure>.TestSubscription] { lock.withLock { items } }
    func append(_ item: TestPublisher<Output, Failure>.TestSubscription) { lock.withLock { items.append(item) } }
}

/// Takes a TestPublisher's subscription without asking for anything, so the subscription can be
/// handed on to the subscriber under test.
private final class ProbeSubscriber<Input, Failure: Error>: Subscriber {
    func receive(subscription: Subscription) {}
    func receive(_ input: Input) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Failure>) {}
}
