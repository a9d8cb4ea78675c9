// Engine: Engines/MulticastSubscription.swift.

// MARK: - multicast

extension Publisher {
    /// Shares one subscription to this publisher among many subscribers, through a subject made
    /// by a closure; nothing starts until ``ConnectablePublisher/connect()``.
    ///
    /// Subscribers attach to the subject. `connect()` subscribes the subject to the upstream, so
    /// the upstream does its work once and the subject hands every value to every subscriber.
    /// Attach all subscribers first, then connect, and none of them misses the beginning.
    /// Cancelling the cancellable that `connect()` returns cancels the upstream; the subscribers
    /// stay attached to the subject and a later `connect()` subscribes it again.
    ///
    /// <!-- marble multicast row=2 inputs=1: $0.multicast { PassthroughSubject() }.autoconnect() -->
    /// <!-- marble multicast-second row=3 inputs=1: $0.multicast { PassthroughSubject() }.autoconnect() -->
    /// ```text
    /// upstream:     -1-2-3-|      (subscribed once, at connect())
    ///               multicast { PassthroughSubject() }
    /// subscriber 1: -1-2-3-|
    /// subscriber 2: -1-2-3-|
    /// ```
    ///
    /// ![Marble diagram of multicast](marble-multicast)
    ///
    /// ```swift
    /// let work = Publishers.Map(upstream: ["a", "b"].publisher) { value -> String in
    ///     print("work", value)
    ///     return value
    /// }
    /// let multicast = work.multicast { PassthroughSubject<String, Never>() }
    /// let c1 = multicast.sink { print("1 got", $0) }
    /// let c2 = multicast.sink { print("2 got", $0) }
    /// let connection = multicast.connect()
    /// // Prints: work a
    /// //         1 got a
    /// //         2 got a
    /// //         work b
    /// //         1 got b
    /// //         2 got b
    /// ```
    ///
    /// - Parameter createSubject: Makes the subject. It is called once, when the multicast
    ///   publisher is created; every subscriber and every connection use that one subject.
    /// - Returns: A connectable publisher that shares one upstream subscription among its
    ///   subscribers once connected.
    /// - Demand: each subscriber gets a subscription of the multicast's own (described as
    ///   `"Multicast"`, as in Combine) that passes its requests to the subject; its demand is
    ///   its own, as the subject keeps it (a ``PassthroughSubject`` drops a value for a
    ///   subscriber without demand, [S10]). The subject decides what the upstream is asked for:
    ///   a ``PassthroughSubject`` asks for `.unlimited` once one of its subscribers has asked
    ///   for something (so a connection without subscribers asks for nothing), a
    ///   ``CurrentValueSubject`` at connect.
    /// - Completion: the upstream's completion goes to the subject, which finishes every
    ///   subscriber and every later one.
    /// - Cancellation: a subscriber's cancel detaches it from the subject; the connection's
    ///   cancel cancels the upstream. `connect()` returns an ``AnyCancellable``: dropping it
    ///   disconnects, so keep it for as long as values should flow.
    /// - Threading: as the subject's: subscribers are called one at a time ([S3]), and
    ///   `connect()` and its cancel may be called from any thread.
    /// - Combine compatibility: as Combine, where each `connect()` subscribes the subject to
    ///   the upstream again, even while connected. Combine makes the subject on first use;
    ///   this library makes it with the publisher, which calls `createSubject` exactly once
    ///   without taking a lock.
    /// - Complexity: O(1) per subscriber; the subject's cost per value.
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S10]: doc:/Contract/StreamContract#S10
    @inlinable
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares one subscription to this publisher among many subscribers, through the given
    /// subject; nothing starts until ``ConnectablePublisher/connect()``.
    ///
    /// As ``multicast(_:)``, with a subject you make yourself: you can also `send` into it, or
    /// read a ``CurrentValueSubject``'s `value`.
    ///
    /// <!-- marble multicast-subject: $0.multicast(subject: PassthroughSubject()).autoconnect() -->
    /// ```text
    /// upstream:     -1-2-|        (subscribed at connect())
    ///               multicast(subject: subject)
    /// subscriber:   -1-2-|
    /// ```
    ///
    /// ![Marble diagram of multicast-subject](marble-multicast-subject)
    ///
    /// ```swift
    /// let subject = CurrentValueSubject<Int, Never>(0)
    /// let multicast = [1, 2].publisher.multicast(subject: subject)
    /// let c = multicast.sink { print($0) }
    /// let connection = multicast.connect()
    /// print(subject.value)
    /// // Prints: 0
    /// //         1
    /// //         2
    /// //         2
    /// ```
    ///
    /// - Parameter subject: The subject that hands the upstream's values to every subscriber.
    /// - Returns: A connectable publisher that shares one upstream subscription among its
    ///   subscribers once connected.
    /// - Demand, Completion, Cancellation, Threading: as ``multicast(_:)``.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per subscriber; the subject's cost per value.
    @inlinable
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }
}

extension Publishers {
    /// The publisher of ``Publisher/multicast(_:)`` and ``Publisher/multicast(subject:)``: a
    /// connectable publisher whose subscribers share one subject, which `connect()` subscribes
    /// to the upstream.
    ///
    /// A class, as in Combine: the subject belongs to this one instance.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher the subject is subscribed to at each `connect()`.
        public final let upstream: Upstream
        /// The closure that made the subject.
        public final let createSubject: () -> SubjectType
        /// The subject every subscriber attaches to.
        @usableFromInline final let subject: SubjectType

        /// Creates a multicast publisher of `upstream`, and its subject with `createSubject`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher to subscribe the subject to on `connect()`.
        ///   - createSubject: A closure that makes the subject; it is called once, here.
        @inlinable
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
            self.subject = createSubject()
        }

        /// Attaches `subscriber` to the subject.
        ///
        /// - Parameter subscriber: The subscriber that receives what the subject sends, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.receive(subscriber: MulticastSubscription(downstream: subscriber))
        }

        /// Subscribes the subject to the upstream; cancelling the returned ``AnyCancellable``
        /// (or dropping it) cancels that subscription.
        ///
        /// - Returns: The cancellable of the subject's subscription to the upstream.
        public func connect() -> any Cancellable {
            upstream.subscribe(subject)
        }
    }
}
