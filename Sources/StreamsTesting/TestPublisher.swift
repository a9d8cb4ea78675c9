import Streams

/// A publisher for tests that the test drives by hand, and that records what its subscribers
/// ask of it.
///
/// Each subscriber gets a ``TestSubscription`` whose ``TestSubscription/history`` lists every
/// `request` and `cancel` in order, so a test can assert the demand an operator passes upstream:
///
/// ```swift
/// let upstream = TestPublisher<Int, Never>()
/// let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
/// upstream.prefix(1).subscribe(subscriber)
/// upstream.send(7)
/// print(upstream.history)   // [.requested(.max(2)), .cancelled]
/// ```
///
/// ``send(_:)`` delivers to every subscriber still attached *whether or not it asked for the
/// value*: the test is the publisher here, and decides. ``demand`` tells what is outstanding.
/// A subscriber is let go when it cancels or after the completion, as a real publisher must ([S7]).
///
/// - Threading: every member may be used from any thread; `send` calls subscribers on the
///   calling thread. A subscriber gets values and the completion only once it has its
///   subscription: what another thread sends while it is being subscribed passes it by (a
///   completion waits for it). Sends from several threads at once are not serialized.
///
/// [S7]: doc:/Contract/StreamContract#S7
public final class TestPublisher<Output, Failure: Error>: Publisher,
    @unchecked Sendable  // all mutable state is guarded by `lock`
{
    private let lock = Lock()
    private var _subscriptions: [TestSubscription] = []
    private var completion: Subscribers.Completion<Failure>?
    private let onCancel: (@Sendable () -> Void)?
    private let onRequest: (@Sendable () -> Void)?

    /// Creates a publisher with no subscribers.
    public init() {
        onCancel = nil
        onRequest = nil
    }

    /// Creates a publisher that calls `onCancel` when a subscription is cancelled (the marble
    /// harness logs `;` with it), and `onRequest` after a subscription was asked for values
    /// (the async marble driver wakes with it).
    init(onCancel: @escaping @Sendable () -> Void, onRequest: (@Sendable () -> Void)? = nil) {
        self.onCancel = onCancel
        self.onRequest = onRequest
    }

    /// Every subscription made so far, in order.
    public var subscriptions: [TestSubscription] { lock.withLock { _subscriptions } }

    /// The request/cancel history of the latest subscription (empty before any).
    public var history: [TestSubscription.Event] { subscriptions.last?.history ?? [] }

    /// The outstanding demand of the latest subscription: requested plus returned minus
    /// delivered.
    public var demand: Subscribers.Demand { subscriptions.last?.demand ?? .none }

    /// Whether the latest subscription was cancelled.
    public var isCancelled: Bool { subscriptions.last?.isCancelled ?? false }

    /// Attaches `subscriber` with a new ``TestSubscription``. After a completion, a late
    /// subscriber gets the completion at once.
    ///
    /// - Parameter subscriber: The subscriber that receives what the test sends.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = TestSubscription(AnySubscriber(subscriber), onCancel: onCancel, onRequest: onRequest)
        lock.lock()
        _subscriptions.append(subscription)
        let completion = self.completion
        lock.unlock()
        subscriber.receive(subscription: subscription)
        subscription.handOver()
        if let completion { subscription.complete(completion) }
    }

    /// Sends `value` to every attached subscriber, demand or not, and returns the demand the
    /// last of them returned.
    ///
    /// - Parameter value: The value to send.
    /// - Returns: The demand the last subscriber returned, or `.none` when there is none.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        var result = Subscribers.Demand.none
        for subscription in subscriptions {
            if let returned = subscription.deliver(value) { result = returned }
        }
        return result
    }

    /// Sends `completion` to every attached subscriber and lets them go.
    ///
    /// - Parameter completion: The completion to send.
    public func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { self.completion = self.completion ?? completion }
        for subscription in subscriptions { subscription.complete(completion) }
    }

    /// The subscription ``TestPublisher`` gives its subscribers: records requests and cancels.
    public final class TestSubscription: Subscription, CustomStringConvertible,
        @unchecked Sendable  // all mutable state is guarded by `lock`
    {
        /// One thing the subscriber asked of the publisher.
        public enum Event: Equatable, Sendable, CustomStringConvertible {
            /// `request(_:)` with this demand.
            case requested(Subscribers.Demand)
            /// `cancel()`.
            case cancelled

            /// `requested(max(2))` or `cancelled`.
            public var description: String {
                switch self {
                case .requested(let demand): "requested(\(demand))"
                case .cancelled: "cancelled"
                }
            }
        }

        private let lock = Lock()
        private var subscriber: AnySubscriber<Output, Failure>?
        private var _history: [Event] = []
        private var _demand: Subscribers.Demand = .none
        private var _isCancelled = false
        /// Whether the subscriber has returned from `receive(subscription:)`: until then it
        /// gets nothing ([S3]), and a completion waits in `pendingCompletion`.
        ///
        /// [S3]: doc:/Contract/StreamContract#S3
        private var isHandedOver = false
        private var pendingCompletion: Subscribers.Completion<Failure>?
        private let onCancel: (@Sendable () -> Void)?
        private let onRequest: (@Sendable () -> Void)?

        init(
            _ subscriber: AnySubscriber<Output, Failure>, onCancel: (@Sendable () -> Void)?,
            onRequest: (@Sendable () -> Void)? = nil
        ) {
            self.subscriber = subscriber
            self.onCancel = onCancel
            self.onRequest = onRequest
        }

        /// Every request and cancel, in order.
        public var history: [Event] { lock.withLock { _history } }
        /// Requested plus returned minus delivered.
        public var demand: Subscribers.Demand { lock.withLock { _demand } }
        /// Whether `cancel()` was called.
        public var isCancelled: Bool { lock.withLock { _isCancelled } }
        /// Whether the subscriber is still attached (not cancelled, not completed).
        public var isAttached: Bool { lock.withLock { subscriber != nil } }

        /// Records the request.
        ///
        /// - Parameter demand: The demand asked for.
        public func request(_ demand: Subscribers.Demand) {
            lock.withLock {
                _history.append(.requested(demand))
                _demand += demand
            }
            onRequest?()
        }

        /// Records the cancel and lets the subscriber go.
        public func cancel() {
            lock.lock()
            _history.append(.cancelled)
            _isCancelled = true
            let subscriber = self.subscriber
            self.subscriber = nil
            lock.unlock()
            keepAlive(subscriber)
            onCancel?()
        }

        /// "TestSubscription".
        public var description: String { "TestSubscription" }

        /// The subscriber has its subscription: from now on it is sent to, starting with a
        /// completion that arrived meanwhile.
        func handOver() {
            lock.lock()
            isHandedOver = true
            let pending = pendingCompletion
            pendingCompletion = nil
            lock.unlock()
            if let pending { complete(pending) }
        }

        func deliver(_ value: Output) -> Subscribers.Demand? {
            lock.lock()
            guard isHandedOver, let subscriber else {
                lock.unlock()
                return nil
            }
            _demand -= 1
            lock.unlock()
            let more = subscriber.receive(value)
            lock.withLock { _demand += more }
            return more
        }

        func complete(_ completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard isHandedOver else {
                pendingCompletion = pendingCompletion ?? completion
                lock.unlock()
                return
            }
            let subscriber = self.subscriber
            self.subscriber = nil
            lock.unlock()
            subscriber?.receive(completion: completion)
        }
    }
}
