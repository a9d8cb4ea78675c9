// Engine: Sources/Streams/Engines/SwitchToLatestSubscription.swift

// MARK: - switchToLatest

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Flattens a publisher of publishers by following only the latest one.
    ///
    /// Each publisher the upstream sends is subscribed at once, and the one before it is
    /// cancelled: only the newest inner publisher's values get through. The classic use is a
    /// search field: each query becomes a request publisher, and a new query cancels the
    /// request still running for the old one, so a slow old answer can never overwrite a newer
    /// one.
    ///
    /// <!-- marble switchToLatest: u in u[0].map { $0 == "a" ? u[1] : u[2] }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b------|
    /// a:        --1-2---3-|       (cancelled when b arrives, at tick 6: 3 never comes)
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8---|    (`;`: a is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest](marble-switchToLatest)
    ///
    /// ```swift
    /// let queries = PassthroughSubject<String, Never>()
    /// let c = queries
    ///     .map { query in [query + "1", query + "2"].publisher }
    ///     .switchToLatest()
    ///     .sink { print($0) }
    /// queries.send("cat")
    /// queries.send("dog")
    /// // Prints: cat1, cat2, dog1, dog2 (one per line)
    /// ```
    ///
    /// - Returns: A publisher that sends the values of the latest publisher the upstream sent.
    /// - Demand: asks the upstream for `.unlimited` (as Combine does) and counts the
    ///   subscriber's demand itself (requested plus returned, minus delivered). Requests go to
    ///   the current inner publisher; a new inner publisher is asked for everything still
    ///   outstanding, so switching never gives the inner publishers together more than the
    ///   subscriber asked for ([S1]). Asking for `.none` is an API violation ([S9]).
    /// - Completion: `.finished` once the upstream and the current inner publisher have both
    ///   finished. A failure of either cancels the other and goes down next (after a value sent
    ///   while the subscriber was being called, which waits for that call to return). What the upstream
    ///   or an inner publisher sends before its subscription or after its end is ignored, and a
    ///   second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream and the current inner publisher, and lets go of the
    ///   subscriber ([S6], [S7]).
    /// - Threading: values are delivered on the thread of the inner publisher that sends them.
    ///   The upstream and the inner publishers may send from different threads; the subscriber
    ///   is still called by one thread at a time ([S3]): a value that arrives while another
    ///   thread is delivering is handed to that thread, which delivers it next.
    /// - Combine compatibility: as Combine. A value an inner publisher sends without demand
    ///   (which breaks [S1]) is dropped, where Combine stops the program.
    /// - Complexity: O(1) per value: the subscription's one lock, taken twice (before and after
    ///   the delivery).
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Flattens a publisher of publishers that cannot fail by following only the latest one;
    /// the inner publishers may fail.
    ///
    /// The upstream gets the inner publishers' failure type with `setFailureType(to:)`; see
    /// the general `switchToLatest()` for how it works.
    ///
    /// <!-- marble switchToLatest-neverFailingUpstream: u in u[0].assertNoFailure().map { $0 == "a" ? u[1] : u[2] }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b------|
    /// a:        --1-2---3-|
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8---|    (`;`: a is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest-neverFailingUpstream](marble-switchToLatest-neverFailingUpstream)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = ["a"].publisher
    ///     .map { Just($0).setFailureType(to: Offline.self) }
    ///     .switchToLatest()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: a
    /// //         finished
    /// ```
    ///
    /// - Returns: A publisher that sends the values of the latest publisher the upstream sent.
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general `switchToLatest()`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Flattens a publisher of publishers, none of which can fail, by following only the
    /// latest one.
    ///
    /// See the general `switchToLatest()` for how it works.
    ///
    /// <!-- marble switchToLatest-neverFailing: u in u[0].assertNoFailure().map { $0 == "a" ? u[1].assertNoFailure() : u[2].assertNoFailure() }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b------|
    /// a:        --1-2---3-|
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8---|    (`;`: a is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest-neverFailing](marble-switchToLatest-neverFailing)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.map { Just($0 * 10) }.switchToLatest().sink { print($0) }
    /// // Prints: 10, 20 (one per line)
    /// ```
    ///
    /// - Returns: A publisher that sends the values of the latest publisher the upstream sent.
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general `switchToLatest()`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Flattens a publisher of publishers that cannot fail by following only the latest one;
    /// the upstream may fail.
    ///
    /// Each inner publisher gets the upstream's failure type with `setFailureType(to:)`; see
    /// the general `switchToLatest()` for how it works.
    ///
    /// <!-- marble switchToLatest-upstreamFails: u in u[0].map { $0 == "a" ? u[1].assertNoFailure() : u[2].assertNoFailure() }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b---^
    /// a:        --1-2---3-|
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8[;^]    (`;`: a, then b, is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest-upstreamFails](marble-switchToLatest-upstreamFails)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = [1].publisher.setFailureType(to: Offline.self)
    ///     .map { Just($0) }
    ///     .switchToLatest()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1
    /// //         finished
    /// ```
    ///
    /// - Returns: A publisher that sends the values of the latest publisher the upstream sent.
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general `switchToLatest()`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>,
            Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        Publishers.SwitchToLatest(upstream: Publishers.Map(upstream: self) { Publishers.SetFailureType(upstream: $0) })
    }
}

extension Publishers {
    /// The publisher of `switchToLatest()`: the values of the latest publisher the
    /// upstream has sent.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = P.Output
        /// The failure type of the upstream and the inner publishers.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates a publisher that follows the latest of `upstream`'s publishers.
        ///
        /// - Parameter upstream: The publisher of publishers to follow.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        ///
        /// - Parameter subscriber: The subscriber that receives the latest inner publisher's values
        ///   and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: subscription)
        }
    }
}

extension Publishers.SwitchToLatest: Equatable where Upstream: Equatable {}
extension Publishers.SwitchToLatest: Sendable where Upstream: Sendable {}
