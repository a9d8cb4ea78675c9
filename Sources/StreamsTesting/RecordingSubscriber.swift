import Streams
import Synchronization

/// A subscriber for tests: it records every event it receives and lets the test decide, step by
/// step, how much to ask for.
///
/// It also watches the publisher for broken contract rules and lists them in ``violations``:
/// a value beyond the demand it asked for ([S1]), a signal before the subscription or a second
/// subscription ([S2], which it cancels), two calls at once or one nested in another ([S3]), anything
/// after the completion ([S4]). A well-behaved publisher leaves ``violations`` empty.
///
/// ```swift
/// let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
/// [1, 2, 3].publisher.subscribe(subscriber)
/// print(subscriber.values)       // [1, 2]
/// subscriber.request(.max(5))
/// print(subscriber.values)       // [1, 2, 3]
/// print(subscriber.completion!)  // finished
/// ```
///
/// - Threading: every member may be used from any thread.
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
/// [S4]: doc:/Contract/StreamContract#S4
public final class RecordingSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable  // all mutable state is guarded by `lock`; hooks are immutable
{
    /// One thing the subscriber received.
    public enum Event: CustomStringConvertible {
        /// `receive(subscription:)`.
        case subscription
        /// `receive(_:)`.
        case value(Input)
        /// `receive(completion:)`.
        case completion(Subscribers.Completion<Failure>)

        /// `subscription`, the value's description, `finished` or `failure(...)`.
        public var description: String {
            switch self {
            case .subscription: "subscription"
            case .value(let value): String(describing: value)
            case .completion(.finished): "finished"
            case .completion(.failure(let error)): "failure(\(error))"
            }
        }
    }

    private let lock = Lock()
    private var _events: [Event] = []
    private var _subscription: Subscription?
    private var _violations: [String] = []
    private var outstanding: Subscribers.Demand = .none
    private var finished = false
    private var cancelled = false
    private let inFlight = Atomic<Int>(0)

    private let initialDemand: Subscribers.Demand?
    private let onSubscription: (@Sendable (Subscription) -> Void)?
    private let onValue: (@Sendable (Input) -> Subscribers.Demand)?

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - demand: What to request as soon as the subscription arrives; `nil` requests nothing
    ///     (the test calls ``request(_:)``).
    ///   - onSubscription: Called after the initial request, with the subscription (to test
    ///     requests made from inside `receive(subscription:)`).
    ///   - onValue: Called for each value after it is recorded; returns the demand to return from
    ///     `receive(_:)`. Without it the recorder returns `.none`.
    public init(
        demand: Subscribers.Demand? = .unlimited,
        onSubscription: (@Sendable (Subscription) -> Void)? = nil,
        onValue: (@Sendable (Input) -> Subscribers.Demand)? = nil
    ) {
        self.initialDemand = demand
        self.onSubscription = onSubscription
        self.onValue = onValue
    }

    // MARK: What was received

    /// Every event, in order.
    public var events: [Event] { lock.withLock { _events } }

    /// The values received, in order.
    public var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// The completion, if one arrived.
    public var completion: Subscribers.Completion<Failure>? {
        for case .completion(let completion) in events { return completion }
        return nil
    }

    /// Whether a subscription arrived.
    public var isSubscribed: Bool { lock.withLock { _subscription != nil } }

    /// The subscription, once it has arrived (kept until ``releaseSubscription()``).
    public var subscription: Subscription? { lock.withLock { _subscription } }

    /// Broken contract rules seen so far, each naming its rule; empty for a good publisher.
    public var violations: [String] { lock.withLock { _violations } }

    /// Demand asked for (initially, by ``request(_:)`` and by returning it) and not yet used.
    public var outstandingDemand: Subscribers.Demand { lock.withLock { outstanding } }

    /// One line per event, joined by ", ".
    public var description: String { events.map(\.description).joined(separator: ", ") }

    // MARK: Controlling it

    /// Asks the subscription for `demand` more values (counted for the [S1] check).
    ///
    /// - Parameter demand: How many more values to ask for.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    public func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = _subscription
        outstanding += demand
        lock.unlock()
        subscription?.request(demand)
    }

    /// Cancels the subscription.
    public func cancel() {
        lock.lock()
        let subscription = _subscription
        cancelled = true
        lock.unlock()
        subscription?.cancel()
    }

    /// Lets go of the subscription (for release checks, [S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    public func releaseSubscription() {
        lock.lock()
        let subscription = _subscription
        _subscription = nil
        lock.unlock()
        keepAlive(subscription)
    }

    // MARK: Subscriber

    private func enter(_ signal: String) {
        if inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            lock.withLock { _violations.append("S3: \(signal) arrived while another signal was still being handled") }
        }
    }

    private func leave() {
        inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    /// Records the subscription and makes the initial request.
    ///
    /// - Parameter subscription: The subscription the publisher gives.
    public func receive(subscription: Subscription) {
        enter("receive(subscription:)")
        lock.lock()
        if _subscription != nil || !_events.isEmpty {
            _violations.append("S2: a second subscription arrived (it was cancelled)")
            lock.unlock()
            leave()
            subscription.cancel()
            return
        }
        _subscription = subscription
        _events.append(.subscription)
        if let initialDemand, initialDemand != .none { outstanding += initialDemand }
        lock.unlock()
        leave()
        if let initialDemand, initialDemand != .none { subscription.request(initialDemand) }
        onSubscription?(subscription)
    }

    /// Records the value and checks it against the demand.
    ///
    /// - Parameter input: The value the publisher sends.
    /// - Returns: The demand `onValue` returns, or `.none` without it.
    public func receive(_ input: Input) -> Subscribers.Demand {
        enter("receive(_:)")
        lock.lock()
        if _subscription == nil && !_events.contains(where: { if case .subscription = $0 { true } else { false } }) {
            _violations.append("S2: a value arrived before the subscription")
        }
        if finished {
            _violations.append("S4: a value arrived after the completion")
        }
        if outstanding == .none {
            _violations.append("S1: value \(input) arrived without outstanding demand")
        } else {
            outstanding -= 1
        }
        _events.append(.value(input))
        lock.unlock()
        leave()
        let more = onValue?(input) ?? .none
        if more != .none { lock.withLock { outstanding += more } }
        return more
    }

    /// Records the completion.
    ///
    /// - Parameter completion: The completion the publisher sends.
    public func receive(completion: Subscribers.Completion<Failure>) {
        enter("receive(completion:)")
        lock.lock()
        if _events.isEmpty {
            _violations.append("S2: the completion arrived before the subscription")
        }
        if finished {
            _violations.append("S4: a second completion arrived")
        }
        finished = true
        _events.append(.completion(completion))
        lock.unlock()
        leave()
    }
}

extension RecordingSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}
