import Synchronization

// Engine: none. `autoconnect`'s connection and subscription are in this file.

/// A publisher that does nothing until it is told to start with ``connect()``.
///
/// Subscribers can attach before anything happens; `connect()` then starts the work (a timer
/// starts ticking, a shared upstream is subscribed) and every attached subscriber sees the
/// same values. This lets several subscribers be set up first so that none of them misses the
/// beginning. Cancel the returned cancellable to stop the work again.
///
/// ```swift
/// let timer = SchedulerTimer.publish(every: .seconds(1), on: DispatchQueue.main)
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
    ///
    /// - Returns: A cancellable that cancels the connection.
    func connect() -> Cancellable
}

// MARK: - autoconnect

extension ConnectablePublisher {
    /// Connects to this connectable publisher when the first subscriber arrives, and disconnects
    /// when the last one cancels.
    ///
    /// Each subscriber is subscribed to the connectable publisher; the first one also makes
    /// `autoconnect` call ``connect()``, right after it is subscribed. Later subscribers share
    /// that connection. A subscriber counts until it cancels, as in Combine, also after it has
    /// completed: a `multicast(…).autoconnect()` whose upstream has finished stays connected, so
    /// a later subscriber gets the subject's completion instead of running the upstream again.
    /// When the count drops to zero, the connection is cancelled; the next subscriber connects
    /// again.
    ///
    /// <!-- marble autoconnect scheduler source: SchedulerTimer.publish(every: .seconds(2), on: scheduler).autoconnect().map(seconds) -->
    /// ```text
    ///         SchedulerTimer.publish(every: 2 ticks, on: scheduler).autoconnect(), subscribed at tick 0
    /// output: --2-4-6-8-     (each value the scheduler's time, shown in ticks since the start)
    /// ```
    ///
    /// ![Marble diagram of autoconnect](marble-autoconnect)
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var ticks: [Int] = []
    /// let c = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
    ///     .autoconnect()
    ///     .sink { _ in ticks.append(ticks.count + 1) }
    /// scheduler.advance(by: .seconds(3))
    /// print(ticks)
    /// // Prints: [1, 2, 3]
    /// ```
    ///
    /// - Returns: A publisher that connects this one when its first subscriber arrives and
    ///   disconnects it when its last subscriber cancels.
    /// - Demand: each subscriber's demand goes to its own subscription of the connectable
    ///   publisher, unchanged.
    /// - Completion: passes through unchanged; the subscriber still counts until it cancels.
    /// - Cancellation: goes to the upstream subscription; cancelling the last subscriber also
    ///   cancels the connection. Cancelling twice counts once.
    /// - Threading: subscribing and cancelling are thread-safe; `connect()` and the connection's
    ///   `cancel()` run on the thread of the subscribe or cancel that triggers them.
    /// - Combine compatibility: as Combine, also where Combine's choice shows: a subscriber that
    ///   arrives while the first one is being subscribed (from inside its `receive(subscription:)`,
    ///   or at the same time on another thread) connects too, and when the first `connect()`
    ///   returns, its connection replaces the other one, which is cancelled, and the count starts
    ///   again at one (so the first subscriber's cancel disconnects). Combine releases the
    ///   replaced connection, which cancels it when it is an `AnyCancellable` (as `multicast`'s,
    ///   `makeConnectable`'s and the timer's are); here any connection is cancelled, so none is
    ///   left running with nothing to stop it. Likewise a subscriber that cancels before its own
    ///   `connect()` returns has that connection cancelled at once.
    /// - Complexity: O(1) per subscriber and per value.
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
        ///
        /// - Parameter upstream: The connectable publisher to connect and disconnect.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream, then connects the upstream if nobody had.
        ///
        /// - Parameter subscriber: The subscriber that receives the upstream's values and
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ticket = connection.join()
            upstream.receive(
                subscriber: AutoconnectSubscription(
                    downstream: subscriber, connection: connection,
                    ticket: ticket))
            if let ticket {
                connection.connected(upstream.connect(), ticket: ticket)
            }
        }
    }
}

extension Publishers.Autoconnect: Sendable where Upstream: Sendable {}

// MARK: - Shared state

/// The subscriber count and the connection of one ``Publishers/Autoconnect``, as Combine keeps
/// them: a subscriber that finds nothing connected gets a ticket and connects once it has
/// subscribed; the count starts at one when a connection is made and counts the subscribers that
/// join while connected; each subscriber's cancel uncounts one; the last cancels the connection.
///
/// Where Combine's choice shows: a subscriber that arrives while another is subscribing (from
/// inside its `receive(subscription:)`, or from another thread at the same time) connects too;
/// the connection made last replaces the other, which is cancelled (Combine releases it, which
/// cancels an `AnyCancellable`), and the count starts again at one. Unlike Combine, a subscriber
/// that cancels before its own `connect()` has returned is remembered, so that connection is
/// cancelled at once instead of being kept with nobody to cancel it.
@usableFromInline
final class AutoconnectConnection: @unchecked Sendable {  // every field guarded by `lock`
    @usableFromInline
    enum State {
        /// Nothing connected, nobody connecting: the next subscriber connects.
        case disconnected
        /// Subscribers with tickets are being subscribed and connect next.
        case connecting
        /// `count` subscribers share `connection`.
        case connected(count: Int, connection: any Cancellable)
    }

    let lock = Lock()
    var state = State.disconnected
    var lastTicket: UInt64 = 0
    /// The tickets whose `connect()` has not returned yet.
    var pending: Set<UInt64> = []
    /// Pending tickets whose subscriber has cancelled already.
    var leftEarly: Set<UInt64> = []

    @usableFromInline init() {}

    /// Counts a new subscriber when connected and returns `nil`; otherwise returns a ticket: the
    /// caller connects once it has subscribed.
    @usableFromInline
    func join() -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        if case .connected(let count, let connection) = state {
            state = .connected(count: count + 1, connection: connection)
            return nil
        }
        lastTicket &+= 1
        pending.insert(lastTicket)
        state = .connecting
        return lastTicket
    }

    /// The connection made for the subscriber with `ticket`: from now on it is the connection,
    /// with one subscriber. If that subscriber has cancelled already, the connection is cancelled
    /// at once instead.
    @usableFromInline
    func connected(_ connection: any Cancellable, ticket: UInt64) {
        lock.lock()
        pending.remove(ticket)
        if leftEarly.remove(ticket) != nil {
            if case .connecting = state, pending.isEmpty { state = .disconnected }
            lock.unlock()
            connection.cancel()
            return
        }
        let replaced: (any Cancellable)?
        if case .connected(_, let previous) = state { replaced = previous } else { replaced = nil }
        state = .connected(count: 1, connection: connection)
        lock.unlock()
        replaced?.cancel()
    }

    /// Uncounts a subscriber (once per subscriber; `ticket` is the one it connects with, if
    /// any); the last one cancels the connection.
    @usableFromInline
    func leave(ticket: UInt64?) {
        lock.lock()
        if let ticket, pending.contains(ticket) {
            // Its `connect()` has not returned: that connection is cancelled when it does.
            leftEarly.insert(ticket)
            lock.unlock()
            return
        }
        guard case .connected(let count, let connection) = state else {
            lock.unlock()
            return
        }
        if count > 1 {
            state = .connected(count: count - 1, connection: connection)
            lock.unlock()
            return
        }
        state = pending.isEmpty ? .disconnected : .connecting
        lock.unlock()
        connection.cancel()
    }
}

// MARK: - Subscription

/// Subscribes one downstream to the connectable upstream and is the subscription the
/// downstream receives, so that it sees the downstream leave (cancel). Cancel and completion
/// both let go of the downstream and the upstream subscription ([S7]); only a cancel uncounts it.
///
/// [S7]: doc:/Contract/StreamContract#S7
@usableFromInline
final class AutoconnectSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // `downstream`, `upstream`, `holdsUpstream` guarded by `lock`
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let connection: AutoconnectConnection
    /// The ticket this subscriber connects with (it was the first), or `nil`.
    @usableFromInline let ticket: UInt64?
    @usableFromInline let lock = Lock()
    @usableFromInline var downstream: Downstream?
    /// The upstream's subscription while `holdsUpstream`, else a ``NoSubscription``
    /// (NoSubscription.swift).
    @usableFromInline var upstream: any Subscription = NoSubscription()
    /// From the upstream's subscription until the completion or `cancel()`.
    @usableFromInline var holdsUpstream = false
    /// Set by whoever leaves first: `cancel()` or the completion.
    @usableFromInline let left = Atomic<Bool>(false)

    @inlinable
    init(downstream: Downstream, connection: AutoconnectConnection, ticket: UInt64?) {
        self.downstream = downstream
        self.connection = connection
        self.ticket = ticket
    }

    /// As Combine's: the description of the subscription it wraps (its upstream's).
    @usableFromInline var description: String {
        let upstream: (any Subscription)? = lock.withLock { holdsUpstream ? self.upstream : nil }
        return upstream.map { String(describing: $0) } ?? "Autoconnect"
    }

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        // Once over, `downstream` is `nil`: a late subscription is cancelled too (S2).
        guard !holdsUpstream, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        holdsUpstream = true
        NoSubscription.hold(subscription, in: &upstream)
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
        holdsUpstream = false
        let finished = NoSubscription.take(from: &upstream)
        lock.unlock()
        keepAlive(finished)  // let go of after unlocking
        guard let downstream else { return }
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        holdsUpstream = false
        let upstream = NoSubscription.take(from: &self.upstream)
        let downstream = self.downstream.take()
        lock.unlock()
        keepAlive(downstream)
        leave()
        upstream.cancel()
    }

    @inlinable
    func leave() {
        if left.exchange(true, ordering: .acquiringAndReleasing) { return }
        connection.leave(ticket: ticket)
    }
}
