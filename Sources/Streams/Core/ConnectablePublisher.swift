import Synchronization

/// A publisher that does nothing until it is told to start with ``connect()``.
///
/// Subscribers can attach before anything happens; `connect()` then starts the work (a timer
/// starts ticking, a shared upstream is subscribed) and every attached subscriber sees the
/// same values. This lets several subscribers be set up first so that none of them misses the
/// beginning. Cancel the returned cancellable to stop the work again.
///
/// ```swift
/// let timer = DispatchQueue.main.timerPublisher(every: .seconds(1))
/// let first = timer.sink { print("first", $0) }
/// let second = timer.sink { print("second", $0) }
/// let connection = timer.connect()    // both start receiving ticks now
/// ```
///
/// When there is no reason to wait, ``autoconnect()`` connects on the first subscriber.
///
/// - Combine compatibility: as Combine.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Starts the publisher's work and returns a cancellable that stops it.
    func connect() -> Cancellable
}

// MARK: - autoconnect

extension ConnectablePublisher {
    /// Connects to this connectable publisher when the first subscriber arrives, and disconnects
    /// when the last one leaves.
    ///
    /// Each subscriber is subscribed to the connectable publisher; the first one also makes
    /// `autoconnect` call ``connect()``, right after it is subscribed. Later subscribers share
    /// that connection. When the number of subscribers drops to zero (each cancelled, or
    /// completed), the connection is cancelled; the next subscriber connects again.
    ///
    /// <!-- marble autoconnect scheduler source: scheduler.timerPublisher(every: .seconds(2)).autoconnect().map(seconds) -->
    /// ```text
    ///         timerPublisher(every: 2 ticks).autoconnect(), subscribed at tick 0
    /// output: --2-4-6-8-     (each value the scheduler's time, shown in ticks since the start)
    /// ```
    ///
    /// ![Marble diagram of autoconnect](marble-autoconnect)
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var ticks: [Int] = []
    /// let c = scheduler.timerPublisher(every: .seconds(1))
    ///     .autoconnect()
    ///     .sink { _ in ticks.append(ticks.count + 1) }
    /// scheduler.advance(by: .seconds(3))
    /// print(ticks)
    /// // Prints: [1, 2, 3]
    /// ```
    ///
    /// - Demand: each subscriber's demand goes to its own subscription of the connectable
    ///   publisher, unchanged.
    /// - Completion: passes through unchanged; a subscriber that completes no longer counts.
    /// - Cancellation: goes to the upstream subscription; cancelling the last subscriber also
    ///   cancels the connection. Cancelling twice counts once.
    /// - Threading: subscribing and cancelling are thread-safe; `connect()` and the connection's
    ///   `cancel()` run on the thread of the subscribe or cancel that triggers them.
    /// - Combine compatibility: as Combine, which is documented only as "connects and
    ///   disconnects automatically". Combine counts a subscriber until it cancels; here a
    ///   completed subscriber stops counting too, so that a finished connection is not kept.
    /// - Complexity: O(1) per subscriber, and one lock per value.
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// The publisher of ``ConnectablePublisher/autoconnect()``: connects its upstream on the first
    /// subscriber and disconnects after the last.
    ///
    /// A class, as in Combine: the connection and the subscriber count are shared by everything
    /// that subscribes to this one instance.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher that is connected automatically.
        public final let upstream: Upstream
        @usableFromInline let connection = AutoconnectConnection()

        /// Creates a publisher that connects `upstream` on its first subscriber.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream, connecting it first if nobody else is.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ticket = connection.join()
            upstream.receive(subscriber: AutoconnectSubscription(downstream: subscriber, connection: connection))
            if let ticket {
                connection.connected(upstream.connect(), ticket: ticket)
            }
        }
    }
}

extension Publishers.Autoconnect: Sendable where Upstream: Sendable {}

// MARK: - Shared state

/// The subscriber count and the connection of one ``Publishers/Autoconnect``.
@usableFromInline
final class AutoconnectConnection: @unchecked Sendable {  // all fields guarded by `lock`
    @usableFromInline
    enum State {
        /// No subscribers, nothing connected.
        case idle
        /// `count` subscribers; `connection` is `nil` while the first one's `connect()` runs.
        case connected(count: Int, connection: Cancellable?)
    }

    let lock = Lock()
    var state = State.idle
    /// Bumped on each disconnect, so that a `connect()` that finishes after everyone has left
    /// knows that its connection is no longer wanted.
    var generation: UInt64 = 0

    @usableFromInline init() {}

    /// Counts a new subscriber. Returns a ticket when that subscriber must connect (it is the
    /// first), `nil` otherwise.
    @usableFromInline
    func join() -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .idle:
            state = .connected(count: 1, connection: nil)
            return generation
        case .connected(let count, let connection):
            state = .connected(count: count + 1, connection: connection)
            return nil
        }
    }

    /// Keeps the connection the first subscriber made, or cancels it if everyone left while
    /// it was being made.
    @usableFromInline
    func connected(_ connection: Cancellable, ticket: UInt64) {
        lock.lock()
        if ticket == generation, case .connected(let count, nil) = state {
            state = .connected(count: count, connection: connection)
            lock.unlock()
            return
        }
        lock.unlock()
        connection.cancel()
    }

    /// Uncounts a subscriber (once per subscriber); the last one cancels the connection.
    @usableFromInline
    func leave() {
        lock.lock()
        guard case .connected(let count, let connection) = state else {
            lock.unlock()
            return
        }
        if count > 1 {
            state = .connected(count: count - 1, connection: connection)
            lock.unlock()
            return
        }
        state = .idle
        generation &+= 1
        lock.unlock()
        connection?.cancel()
    }
}

// MARK: - Subscription

/// Subscribes one downstream to the connectable upstream and is the subscription the
/// downstream receives, so that it sees the downstream leave (cancel or completion). Both let go
/// of the downstream and the upstream subscription (S7).
@usableFromInline
final class AutoconnectSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // `downstream`, `upstream` guarded by `lock`
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let connection: AutoconnectConnection
    @usableFromInline let lock = Lock()
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream: Subscription?
    /// Set by whoever leaves first: `cancel()` or the completion.
    @usableFromInline let left = Atomic<Bool>(false)

    @inlinable
    init(downstream: Downstream, connection: AutoconnectConnection) {
        self.downstream = downstream
        self.connection = connection
    }

    /// As Combine's: the description of the subscription it wraps (its upstream's).
    @usableFromInline var description: String {
        let upstream = lock.withLock { self.upstream }
        return upstream.map { String(describing: $0) } ?? "Autoconnect"
    }

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        guard upstream == nil, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        return downstream?.receive(input) ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let downstream = self.downstream.take()
        upstream = nil
        lock.unlock()
        guard let downstream else { return }
        downstream.receive(completion: completion)
        leave()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        lock.unlock()
        _ = downstream
        leave()
        upstream?.cancel()
    }

    @inlinable
    func leave() {
        if left.exchange(true, ordering: .acquiringAndReleasing) { return }
        connection.leave()
    }
}
