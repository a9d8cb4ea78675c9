// Engine: Engines/MulticastSubscription.swift.

// MARK: - share

extension Publisher {
    /// Shares one subscription to this publisher among all its subscribers, starting it with the
    /// first subscriber and stopping it after the last.
    ///
    /// Without `share()`, each subscriber subscribes to the upstream on its own, and the upstream
    /// does its work (a request, a computation) once per subscriber. With it, the first
    /// subscriber starts one upstream subscription and every subscriber receives its values, as
    /// a ``PassthroughSubject`` hands them out: a subscriber that arrives late gets only the
    /// values sent after it arrived. When every subscriber has left, the upstream is cancelled;
    /// the next subscriber starts a new upstream subscription. Once the upstream has completed,
    /// the completion is kept: later subscribers receive it at once.
    ///
    /// <!-- marble share row=2 inputs=1: $0.share() -->
    /// ```text
    /// upstream:     -1-2-3-4-|
    ///               share()
    /// subscriber 1: -1-2-3-4-|     (subscribed at the start)
    /// subscriber 2: -----3-4-|     (subscribed after 2)
    /// ```
    ///
    /// ![Marble diagram of share](marble-share)
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let shared = subject
    ///     .map { value -> Int in print("work", value); return value * 10 }
    ///     .share()
    /// let c1 = shared.sink { print("1 got", $0) }
    /// subject.send(1)
    /// let c2 = shared.sink { print("2 got", $0) }
    /// subject.send(2)
    /// // Prints: work 1
    /// //         1 got 10
    /// //         work 2
    /// //         1 got 20
    /// //         2 got 20
    /// ```
    ///
    /// - Returns: A publisher, a class, whose subscribers share one subscription to this publisher.
    /// - Demand: the upstream is asked for `.unlimited` once a subscriber has asked for a value
    ///   (as Combine's ``PassthroughSubject`` does), not before; each subscriber's demand is its
    ///   own, and a subscriber without demand misses the values sent meanwhile ([S10]). Each
    ///   subscriber's subscription is described as `"Multicast"`, as in Combine.
    /// - Completion: the upstream's completion goes to every subscriber, and at once to every
    ///   later one; the upstream is not subscribed again after it has completed.
    /// - Cancellation: a subscriber's cancel detaches it; the last one's cancel cancels the
    ///   upstream (a subscriber counts until it cancels, also after it has completed, as in
    ///   Combine). Cancelling twice counts once.
    /// - Threading: subscribing, cancelling and the upstream's values may come from any
    ///   threads; each subscriber is called one at a time ([S3]). The upstream is subscribed on
    ///   the thread of the first subscriber.
    /// - Combine compatibility: as Combine, where `share()` is `multicast` through a
    ///   ``PassthroughSubject`` with ``ConnectablePublisher/autoconnect()``; it is a class, so
    ///   every copy of the value is the same shared publisher. Subscribers are counted as
    ///   ``ConnectablePublisher/autoconnect()`` counts them.
    /// - Complexity: O(1) per subscriber; O(subscribers) per value.
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S10]: doc:/Contract/StreamContract#S10
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/share()``: one upstream subscription shared by every
    /// subscriber, through a ``PassthroughSubject``, connected by the first subscriber and
    /// cancelled after the last.
    ///
    /// A class, as in Combine: every reference to one instance shares its subject and its
    /// upstream subscription. Two instances are equal only if they are the same instance.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose subscription is shared.
        public final let upstream: Upstream
        /// Hands each value to every subscriber.
        @usableFromInline final let subject = PassthroughSubject<Upstream.Output, Upstream.Failure>()
        /// The subscriber count and the upstream connection (what `autoconnect()` keeps).
        @usableFromInline final let connection = AutoconnectConnection()

        /// Creates a publisher that shares one subscription to `upstream`.
        ///
        /// - Parameter upstream: The publisher to share.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the shared subject; the first subscriber (after every earlier
        /// one has left) subscribes the subject to the upstream.
        ///
        /// - Parameter subscriber: The subscriber that receives the shared values sent after it
        ///   attached, and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ticket = connection.join()
            // As Combine's multicast + autoconnect: the downstream's subscription is described as
            // "Multicast".
            subject.receive(
                subscriber: MulticastSubscription(
                    downstream: AutoconnectSubscription(downstream: subscriber, connection: connection, ticket: ticket))
            )
            if let ticket {
                connect(ticket: ticket)
            }
        }

        /// Subscribes the subject to the upstream, unless the upstream has already completed:
        /// then the subject keeps that completion for every subscriber, and subscribing the
        /// upstream again would only start work that is cancelled at once.
        @usableFromInline
        final func connect(ticket: UInt64) {
            let core = subject.core
            if core.lock.withLock({ core.completion != nil }) {
                connection.connected(Subscriptions.empty, ticket: ticket)
                return
            }
            let feed = ShareFeed(subject)
            upstream.receive(subscriber: feed)
            connection.connected(feed, ticket: ticket)
        }

        /// Whether `lhs` and `rhs` are the same instance.
        ///
        /// - Parameters:
        ///   - lhs: A share publisher.
        ///   - rhs: Another share publisher.
        /// - Returns: `true` if both are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publishers.Share: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}
