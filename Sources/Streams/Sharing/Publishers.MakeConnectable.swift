// Engine: Engines/MulticastSubscription.swift, through `multicast` (Publishers.Multicast.swift):
//   `makeConnectable()` is `multicast` with a `PassthroughSubject`.

// MARK: - makeConnectable

extension Publisher where Failure == Never {
    /// Wraps this publisher in a connectable publisher: subscribers can attach first, and nothing
    /// starts until ``ConnectablePublisher/connect()``.
    ///
    /// Subscribers attach to a ``PassthroughSubject``; `connect()` subscribes that subject to
    /// this publisher, and every attached subscriber receives the same values. Use it when
    /// several subscribers must all see a publisher's values from the start, or to start the
    /// work at a moment of your choosing. Cancelling the cancellable that `connect()` returns
    /// cancels the upstream.
    ///
    /// <!-- marble makeConnectable: $0.assertNoFailure().makeConnectable().autoconnect() -->
    /// ```text
    /// upstream:   -1-2-|        (subscribed at connect(), at tick 0)
    ///             makeConnectable()
    /// subscriber: -1-2-|        (attached before connect(); every attached one gets the same)
    /// ```
    ///
    /// ![Marble diagram of makeConnectable](marble-makeConnectable)
    ///
    /// ```swift
    /// let connectable = [1, 2].publisher.makeConnectable()
    /// let c1 = connectable.sink { print("1 got", $0) }
    /// let c2 = connectable.sink { print("2 got", $0) }
    /// let connection = connectable.connect()
    /// // Prints: 1 got 1
    /// //         2 got 1
    /// //         1 got 2
    /// //         2 got 2
    /// ```
    ///
    /// - Returns: A connectable publisher that subscribes to this one when you call `connect()`.
    /// - Demand: the upstream is asked for `.unlimited` at connect; each subscriber's demand is
    ///   its own, and a subscriber without demand misses the values sent meanwhile ([S10]).
    /// - Completion: the upstream's completion goes to every subscriber, and at once to every
    ///   later one.
    /// - Cancellation: a subscriber's cancel detaches it; the connection's cancel cancels the
    ///   upstream. `connect()` returns an ``AnyCancellable``: dropping it disconnects.
    /// - Threading: as ``PassthroughSubject``'s: subscribers are called one at a time ([S3]).
    /// - Combine compatibility: as Combine: only for publishers that cannot fail. Copies of the
    ///   returned value share one subject.
    /// - Complexity: O(1) per subscriber; the subject's cost per value.
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S10]: doc:/Contract/StreamContract#S10
    @inlinable
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/makeConnectable()``: a connectable publisher whose
    /// subscribers share a ``PassthroughSubject``, which `connect()` subscribes to the upstream.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The multicast that does the work; copies of this value share it.
        @usableFromInline let inner:
            Publishers.Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>

        /// Creates a connectable publisher of `upstream`.
        ///
        /// - Parameter upstream: The publisher to subscribe to on `connect()`.
        @inlinable
        public init(upstream: Upstream) {
            inner = Publishers.Multicast(upstream: upstream, createSubject: { PassthroughSubject() })
        }

        /// Attaches `subscriber` to the shared subject.
        ///
        /// - Parameter subscriber: The subscriber that receives the values the upstream sends after
        ///   `connect()`, and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Subscribes the shared subject to the upstream; cancelling the returned
        /// ``AnyCancellable`` (or dropping it) cancels that subscription.
        ///
        /// - Returns: The cancellable of the upstream subscription.
        public func connect() -> any Cancellable {
            inner.connect()
        }
    }
}
