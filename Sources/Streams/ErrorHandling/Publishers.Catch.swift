// Engine: Engines/SwitchingSubscription.swift.

// MARK: - catch, tryCatch

extension Publisher {
    /// Replaces a failed upstream with another publisher.
    ///
    /// Values pass through. If the upstream fails, `handler` is called with the error and
    /// returns a publisher, which is subscribed in its place: its values and its completion
    /// follow, and the subscriber sees one uninterrupted stream. A failure of the replacement
    /// is not caught again. Use it to fall back to a cache or a default when a request fails;
    /// for a single fallback value, ``replaceError(with:)`` is shorter.
    ///
    /// <!-- marble catch: inputs in inputs[0].catch { _ in inputs[1] } -->
    /// ```text
    /// upstream:    -1-2-^
    /// replacement: ------8-9-|    (subscribed when the upstream fails, at tick 5)
    ///              catch { _ in replacement }
    /// output:      -1-2--8-9-|
    /// ```
    ///
    /// ![Marble diagram of catch](marble-catch)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = Fail<Int, Offline>(error: Offline())
    ///     .catch { _ in [7, 8].publisher }
    ///     .sink { print($0) }
    /// // Prints: 7, 8 (one per line)
    /// ```
    ///
    /// - Parameter handler: A closure that takes the upstream's error and returns the publisher to
    ///   continue with.
    /// - Returns: A publisher that sends the upstream's values and, if the upstream fails, those of
    ///   the publisher `handler` returns.
    /// - Demand: the operator counts the subscriber's demand (requested plus returned, minus
    ///   delivered) and passes requests to the upstream as they come; the replacement is asked
    ///   for everything still outstanding when it is subscribed. Asking for `.none` is an API
    ///   violation ([S9]).
    /// - Completion: the upstream's `.finished` as is; after a failure, the replacement's
    ///   completion. What a source sends before its subscription or after its end is ignored, and a
    ///   second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream or the replacement, whichever is live, and lets go
    ///   of the subscriber and of `handler` ([S6], [S7]). `handler` is let go once it has run.
    /// - Threading: `handler` runs, and the replacement is subscribed, on the thread of the
    ///   upstream's failure.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Replaces a failed upstream with another publisher, or fails with the error `handler`
    /// throws.
    ///
    /// As ``catch(_:)``, except that `handler` may throw: then the stream fails with the thrown
    /// error. The failure type becomes `any Error`, since either the thrown error or the
    /// replacement's failure can end the stream.
    ///
    /// <!-- marble tryCatch: $0.tryCatch { _ -> Empty<String, DocError> in throw DocError() } -->
    /// ```text
    /// upstream:    -1-2-^
    ///              tryCatch { _ in throw Fatal() }
    /// output:      -1-2-^        (failure: Fatal())
    /// ```
    ///
    /// ![Marble diagram of tryCatch](marble-tryCatch)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// struct Fatal: Error {}
    /// let c = Fail<Int, Offline>(error: Offline())
    ///     .tryCatch { _ -> Just<Int> in throw Fatal() }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Fatal())
    /// ```
    ///
    /// - Parameter handler: A closure that takes the upstream's error and returns the publisher to
    ///   continue with; it may throw to fail the stream.
    /// - Returns: A publisher that sends the upstream's values and, if the upstream fails, those of
    ///   the publisher `handler` returns, or fails with the error `handler` throws.
    /// - Demand: counted and carried over to the replacement, as for ``catch(_:)``.
    /// - Completion: the upstream's `.finished`; after a failure, the replacement's completion,
    ///   or a failure with the error `handler` threw ([S14]; the upstream has already ended, so
    ///   there is nothing to cancel).
    /// - Cancellation: as for ``catch(_:)``.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/catch(_:)``: the upstream's values, then, if it fails,
    /// those of the publisher a handler makes of the error.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The output type of both publishers.
        public typealias Output = Upstream.Output
        /// The replacement's failure type: only the replacement can end the stream with a failure.
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure is caught.
        public let upstream: Upstream
        /// Makes the replacement publisher from the upstream's error.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that replaces a failed `upstream` with `handler`'s publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher to subscribe to first.
        ///   - handler: A closure that takes the upstream's error and returns the publisher to
        ///     continue with.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes `subscriber` to the upstream; a failure switches it to the replacement.
        ///
        /// - Parameter subscriber: The subscriber that receives the values of the upstream, then of
        ///   the replacement, and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = CatchSubscription<Upstream.Failure, NewPublisher, S>(
                downstream: subscriber, handler: { .success(handler($0)) }, name: "Catch")
            upstream.receive(subscriber: subscription.firstSourceSubscriber(failing: Upstream.Failure.self))
        }
    }

    /// The publisher of ``Publisher/tryCatch(_:)``: the upstream's values, then, if it fails,
    /// those of the publisher a throwing handler makes of the error.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The output type of both publishers.
        public typealias Output = Upstream.Output
        /// Any error: the replacement's failure or one the handler threw.
        public typealias Failure = any Error

        /// The publisher whose failure is caught.
        public let upstream: Upstream
        /// Makes the replacement publisher from the upstream's error, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that replaces a failed `upstream` with `handler`'s publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher to subscribe to first.
        ///   - handler: A closure that takes the upstream's error and returns the publisher to
        ///     continue with; it may throw.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes `subscriber` to the upstream; a failure switches it to the replacement,
        /// or fails it with the handler's error.
        ///
        /// - Parameter subscriber: The subscriber that receives the values of the upstream, then of
        ///   the replacement, and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let subscription = CatchSubscription<Upstream.Failure, NewPublisher, S>(
                downstream: subscriber, handler: { error in Result { try handler(error) } }, name: "TryCatch")
            upstream.receive(subscriber: subscription.firstSourceSubscriber(failing: Upstream.Failure.self))
        }
    }
}

// MARK: - Subscription

/// The handler of `catch` or `tryCatch`, as one shape: the replacement, or the error thrown.
@usableFromInline
typealias CatchHandler<UpstreamFailure: Error, NewPublisher: Publisher> =
    (UpstreamFailure) -> Result<NewPublisher, any Error>

/// The subscription of `catch` and `tryCatch`: the upstream is source 0; when it fails, the
/// handler (the context) is taken, called outside the lock, and its publisher subscribed as
/// source 1. A `catch` handler cannot throw, so its `.failure` case never happens.
@usableFromInline
final class CatchSubscription<UpstreamFailure: Error, NewPublisher: Publisher, Downstream: Subscriber>:
    SwitchingSubscription<Downstream, CatchHandler<UpstreamFailure, NewPublisher>>,
    @unchecked Sendable  // state guarded by the base's `lock`
where Downstream.Input == NewPublisher.Output {
    @inlinable
    init(downstream: Downstream, handler: @escaping CatchHandler<UpstreamFailure, NewPublisher>, name: StaticString) {
        super.init(downstream: downstream, context: handler, name: name, reportsNoneRequest: true)
    }

    @inlinable
    override func sourceFinished(generation: Int) {
        finish(.finished)
    }

    @inlinable
    override func sourceFailed<SourceFailure: Error>(_ error: SourceFailure, generation: Int) {
        guard generation == 0 else {
            // The replacement's own failure: passed on, not caught again.
            finish(.failure(error as! Downstream.Failure))
            return
        }
        lock.lock()
        let handler = context.take()
        lock.unlock()
        // `nil`: cancelled meanwhile.
        guard let handler else { return }
        switch handler(error as! UpstreamFailure) {
        case .success(let replacement):
            subscribe(replacement, generation: 1)
        case .failure(let thrown):
            finish(.failure(thrown as! Downstream.Failure))
        }
    }
}
