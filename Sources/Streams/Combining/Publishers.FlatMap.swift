// Engine: Sources/Streams/Engines/FlatMapSubscription.swift (its fast path: FlatMapInPlace.swift).

// MARK: - flatMap

extension Publisher {
    /// Turns each value into a publisher and merges the values of all those publishers into
    /// one stream.
    ///
    /// For each upstream value, `transform` makes an inner publisher, which is subscribed at
    /// once; the values of all live inner publishers are sent on as they come, interleaved.
    /// `maxPublishers` limits how many inner publishers are live at once: the upstream is asked
    /// for that many values, and for one more each time an inner publisher finishes. The
    /// stream finishes once the upstream and every inner publisher have finished.
    ///
    /// <!-- marble flatMap: u in u[0].flatMap { $0 == "a" ? u[1] : u[2] } -->
    /// ```text
    /// upstream: -a---b-------|
    /// a:        --1---2-|
    /// b:        ------7---8-|
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]---8--|
    /// ```
    ///
    /// ![Marble diagram of flatMap](marble-flatMap)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher
    ///     .flatMap { n in [n, n * 10].publisher }
    ///     .sink { print($0) }
    /// // Prints: 1, 10, 2, 20, 3, 30 (one per line)
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: How many inner publishers may be live at once; `.unlimited` by
    ///     default.
    ///   - transform: Makes the inner publisher for an upstream value.
    /// - Returns: A publisher that sends the values of the publishers `transform` returns, as they
    ///   arrive.
    /// - Demand: the upstream is asked for `maxPublishers` values when it subscribes, and for
    ///   one more each time an inner publisher finishes (not at all for `.none`). The
    ///   subscriber's demand is shared by the inner publishers without ever being exceeded
    ///   ([S1]): each inner publisher is asked for one value at a time, and again once that value
    ///   is delivered; a value that finds no demand waits, one per inner publisher, until the
    ///   subscriber asks for more. A value an inner publisher sends while another's is being
    ///   delivered (from inside the subscriber, or from another thread) waits for that call to
    ///   return ([S3]); its publisher's `send` gets `.none`, and the publisher is asked for its
    ///   next value (`request(.max(1))`) once the value has gone out. Once the subscriber's
    ///   demand is `.unlimited`, every inner publisher is asked for `.unlimited`; what they
    ///   send then goes out after the values already waiting. Asking for `.none` is an API
    ///   violation ([S9]).
    /// - Completion: `.finished` once the upstream and all inner publishers have finished and
    ///   every waiting value is delivered. The first failure, of the upstream or of an inner
    ///   publisher, cancels the upstream and every other inner publisher and goes down next: after
    ///   the values the subscriber had already asked for (a value sent while the subscriber was
    ///   being called waits for that call to return, [S11]), and instead of the values still
    ///   waiting for demand, which are dropped. What the upstream or an inner publisher sends before its
    ///   subscription or after its end is ignored, and a second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream and every inner publisher, and lets go of the
    ///   subscriber, `transform` and the waiting values ([S6], [S7]).
    /// - Threading: `transform` runs on the upstream's thread; values are delivered on the
    ///   thread of the inner publisher that sends them. Inner publishers may send from several
    ///   threads at once; the subscriber is still called by one thread at a time ([S3]): a value
    ///   that arrives while another thread is delivering, or is subscribing an inner publisher,
    ///   is handed to that thread, which delivers it next, and the sending thread returns at
    ///   once.
    /// - Combine compatibility: as Combine (the same demand asked of the upstream and of each
    ///   inner publisher, one waiting value per inner publisher, values still waiting for
    ///   demand dropped on failure), with three differences. When an inner publisher fails, Combine leaves the
    ///   upstream subscription uncancelled; here it is cancelled, as every publisher that ends
    ///   early does ([S15]). With `maxPublishers: .none`, Combine requests `.none` from the
    ///   upstream, an API violation here ([S9]); nothing is requested instead. A value an inner
    ///   publisher sends while another's is being delivered is delivered by Combine nested in
    ///   that call, and the demand for its next value comes back as what its `send` returns
    ///   (OpenCombine's `testChildValueReceivedWhileSendingValue`, run against Combine, records
    ///   no second request); here it waits for the call to return ([S3]), and the publisher is
    ///   asked with `request(.max(1))`: the same values, in the same order, the same demand.
    /// - Complexity: O(1) per value and per inner publisher. No object is allocated per inner
    ///   publisher (its state is a slot in the subscription, reused once the inner is over; a
    ///   slot array is allocated only once two inners are live at once). One lock guards it
    ///   all; a value delivered at once takes it twice (before and after the delivery). Every
    ///   inner publisher that answers synchronously while it is subscribed (`Just`, a sequence,
    ///   `Empty`, `Fail`, a subject that replays...) is cheaper: its subscription and
    ///   completion take no lock of their own, and its values take none while the subscriber's
    ///   demand is unlimited (one each otherwise), so such an inner costs one lock round trip
    ///   in all (two with a limited `maxPublishers`), where one that answers later costs five.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S11]: doc:/Contract/StreamContract#S11
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Turns each value into a publisher that cannot fail and merges their values; the
    /// upstream may fail.
    ///
    /// Each inner publisher gets the upstream's failure type with `setFailureType(to:)`; see
    /// the general `flatMap(maxPublishers:_:)` for how it works.
    ///
    /// <!-- marble flatMap-upstreamFails: u in u[0].flatMap { $0 == "a" ? u[1] : u[2] } -->
    /// ```text
    /// upstream: -a---b---^
    /// a:        --1---2-|
    /// b:        ------7---8-|
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]--[;^]     (`;`: b is cancelled)
    /// ```
    ///
    /// ![Marble diagram of flatMap-upstreamFails](marble-flatMap-upstreamFails)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = [1, 2].publisher.setFailureType(to: Offline.self)
    ///     .flatMap { Just($0 * 10) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 10
    /// //         20
    /// //         finished
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: The most inner publishers subscribed at once; `.unlimited` by default.
    ///   - transform: A closure that takes a value and returns a publisher that cannot fail.
    /// - Returns: A publisher that sends the values of the publishers `transform` returns, as they
    ///   arrive.
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general
    ///   `flatMap(maxPublishers:_:)`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            Publishers.SetFailureType(upstream: transform($0))
        }
    }
}

extension Publisher where Failure == Never {
    /// Turns each value of a publisher that cannot fail into a publisher and merges their
    /// values; the inner publishers may fail.
    ///
    /// The upstream gets the inner publishers' failure type with `setFailureType(to:)`; see
    /// the general `flatMap(maxPublishers:_:)` for how it works.
    ///
    /// <!-- marble flatMap-innerFails: u in u[0].flatMap { $0 == "a" ? u[1] : u[2] } -->
    /// ```text
    /// upstream: -a---b-------|
    /// a:        --1---2-|
    /// b:        ------7-^
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]-[;^]      (`;`: the upstream is cancelled)
    /// ```
    ///
    /// ![Marble diagram of flatMap-innerFails](marble-flatMap-innerFails)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = ["a", "b"].publisher
    ///     .flatMap { _ in Fail<String, Offline>(error: Offline()) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Offline())
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: The most inner publishers subscribed at once; `.unlimited` by default.
    ///   - transform: A closure that takes a value and returns a publisher, which may fail.
    /// - Returns: A publisher that sends the values of the publishers `transform` returns, as they
    ///   arrive.
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general
    ///   `flatMap(maxPublishers:_:)`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers,
            transform: transform)
    }

    /// Turns each value into a publisher and merges their values; nothing can fail.
    ///
    /// See the general `flatMap(maxPublishers:_:)` for how it works.
    ///
    /// <!-- marble flatMap-never: u in u[0].assertNoFailure().flatMap { $0 == "a" ? u[1].assertNoFailure() : u[2].assertNoFailure() } -->
    /// ```text
    /// upstream: -a---b-------|
    /// a:        --1---2-|
    /// b:        ------7---8-|
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]---8--|
    /// ```
    ///
    /// ![Marble diagram of flatMap-never](marble-flatMap-never)
    ///
    /// ```swift
    /// let c = (1...3).publisher.flatMap { Just($0 * 2) }.sink { print($0) }
    /// // Prints: 2, 4, 6 (one per line)
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: The most inner publishers subscribed at once; `.unlimited` by default.
    ///   - transform: A closure that takes a value and returns a publisher that cannot fail.
    /// - Returns: A publisher that sends the values of the publishers `transform` returns, as they
    ///   arrive.
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general
    ///   `flatMap(maxPublishers:_:)`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    /// The publisher of `flatMap(maxPublishers:_:)`: the merged values of the
    /// publishers a closure makes of the upstream's values.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = NewPublisher.Output
        /// The failure type of the upstream and the inner publishers.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are turned into publishers.
        public let upstream: Upstream
        /// How many inner publishers may be live at once.
        public let maxPublishers: Subscribers.Demand
        /// Makes the inner publisher for an upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that merges the publishers `transform` makes of `upstream`'s
        /// values, at most `maxPublishers` at a time.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are turned into publishers.
        ///   - maxPublishers: The most inner publishers subscribed at once.
        ///   - transform: A closure that takes a value and returns the inner publisher for it.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        ///
        /// - Parameter subscriber: The subscriber that receives the inner publishers' values and
        ///   the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapSubscription<Upstream.Output, NewPublisher, S>(
                downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: subscription)
        }
    }
}
