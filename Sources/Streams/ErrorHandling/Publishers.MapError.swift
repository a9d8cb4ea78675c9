// Engine: none. The whole operator is in this file.

// MARK: - mapError

extension Publisher {
    /// Turns the upstream's failure into a different error.
    ///
    /// Values and `.finished` pass through untouched; only a `.failure(error)` is changed, into
    /// `.failure(transform(error))`. Use it to give a publisher the error type that the code
    /// downstream expects, for example to merge two streams that fail differently. Like `map`,
    /// it is a plain struct around your closure: no state, no lock.
    ///
    /// <!-- marble mapError: $0.mapError { AppError.network($0) } -->
    /// ```text
    /// upstream: -1-2-^          (fails with NetworkError.timeout)
    ///           mapError { AppError.network($0) }
    /// output:   -1-2-^          (fails with AppError.network(.timeout))
    /// ```
    ///
    /// ![Marble diagram of mapError](marble-mapError)
    ///
    /// ```swift
    /// struct Timeout: Error {}
    /// struct AppError: Error { let reason: String }
    /// let c = Fail<Int, Timeout>(error: Timeout())
    ///     .mapError { _ in AppError(reason: "timed out") }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(AppError(reason: "timed out"))
    /// ```
    ///
    /// - Parameter transform: A closure that takes the upstream's error and returns the error to
    ///   fail with.
    /// - Returns: A publisher that passes on the upstream's values and `.finished`, and fails with
    ///   the error `transform` returns.
    /// - Demand: passes through unchanged: the downstream gets the upstream's subscription.
    /// - Completion: `.finished` passes through; a failure is transformed, once.
    /// - Cancellation: goes straight to the upstream subscription.
    /// - Threading: `transform` runs on the thread the upstream fails on.
    /// - Combine compatibility: as Combine; on `Just` it is evaluated at once and returns a
    ///   `Result.Publisher`.
    /// - Complexity: O(1) per event.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/mapError(_:)``: the upstream's failure turned into another
    /// error.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output

        /// The publisher whose failure is transformed.
        public let upstream: Upstream
        /// The closure that turns the upstream's failure into this publisher's.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates a publisher that turns `upstream`'s failure into another error with `map`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose failure is changed.
        ///   - map: The closure that turns the upstream's error into the new one.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = map
        }

        /// Creates a publisher that turns `upstream`'s failure into another error with
        /// `transform`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose failure is changed.
        ///   - transform: The closure that turns the upstream's error into the new one.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the error transform.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion, with
        ///   the error changed.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: MapErrorSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

// MARK: - Subscribers

@usableFromInline
struct MapErrorSubscriber<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = UpstreamFailure
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (UpstreamFailure) -> Downstream.Failure

    @inlinable
    init(downstream: Downstream, transform: @escaping (UpstreamFailure) -> Downstream.Failure) {
        self.downstream = downstream
        self.transform = transform
    }

    @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    @usableFromInline var description: String { "MapError" }

    @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
    @inlinable func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: completion.mapError(transform))
    }
}
