// Engine: Engines/SwitchingSubscription.swift.

// MARK: - retry

extension Publisher {
    /// Subscribes to the upstream again when it fails, up to `retries` times.
    ///
    /// Each failure is swallowed and the upstream is subscribed afresh, until it finishes or
    /// has failed `retries + 1` times in all; the last failure is then passed on. The
    /// subscriber sees one stream: the values of every attempt, in order. `retry(0)` subscribes
    /// once and never retries. It suits an upstream that does its work per subscription (a
    /// `Deferred`, a network request); a subject that has failed fails every new subscriber at
    /// once, so retrying it only repeats the failure.
    ///
    /// <!-- marble retry many: attempts($0).retry(2) -->
    /// ```text
    /// attempt 1: -1-^
    /// attempt 2: ----2-3-|        (subscribed when attempt 1 fails, at tick 3)
    ///            retry(2)
    /// output:    -1--2-3-|
    /// ```
    ///
    /// ![Marble diagram of retry](marble-retry)
    ///
    /// ```swift
    /// struct Flaky: Error {}
    /// var attempts = 0
    /// let c = Deferred { () -> AnyPublisher<Int, Flaky> in
    ///     attempts += 1
    ///     return attempts < 3 ? Fail(error: Flaky()).eraseToAnyPublisher()
    ///                         : Just(attempts).setFailureType(to: Flaky.self).eraseToAnyPublisher()
    /// }
    /// .retry(5)
    /// .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 3
    /// //         finished
    /// ```
    ///
    /// - Parameter retries: How many times to subscribe again after a failure. A negative
    ///   count retries without limit, as Combine does (see ``Publishers/Retry/retries``).
    /// - Returns: A publisher that sends the values of every attempt, and the completion of the
    ///   last.
    /// - Demand: the operator counts the subscriber's demand (requested plus returned, minus
    ///   delivered) and passes requests to the live attempt as they come; each new attempt is
    ///   asked for everything still outstanding. Asking for `.none` does nothing, as in
    ///   Combine ([S9]).
    /// - Completion: `.finished` when an attempt finishes; the failure of the last allowed
    ///   attempt. What a source sends before its subscription or after its end is ignored, and a
    ///   second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the live attempt and lets go of the subscriber and the upstream
    ///   publisher ([S6], [S7]).
    /// - Threading: a new attempt is subscribed on the thread of the previous one's failure. An
    ///   upstream that fails while being subscribed does not nest a new subscription inside the
    ///   old one: the attempts run one after another in a loop ([S8]).
    /// - Combine compatibility: as Combine, including a negative count meaning "without limit".
    /// - Complexity: O(1) per value; one new subscription to the upstream per retry.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S8]: doc:/Contract/StreamContract#S8
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/retry(_:)``: the upstream, subscribed again after each
    /// failure up to a number of times.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed, and subscribed again after a failure.
        public let upstream: Upstream
        /// How many times to subscribe again after a failure; `nil`, or a negative number,
        /// without limit.
        public let retries: Int?

        /// Creates a publisher that subscribes to `upstream` again after each failure, at most
        /// `retries` times (`nil` or negative: without limit).
        ///
        /// - Parameters:
        ///   - upstream: The publisher to subscribe to, and again after a failure.
        ///   - retries: How many times to subscribe again; `nil` or a negative number for no limit.
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Subscribes `subscriber` to the upstream, and again after each allowed failure.
        ///
        /// - Parameter subscriber: The subscriber that receives the values of every attempt and the
        ///   last completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let remaining = retries.flatMap { $0 < 0 ? nil : $0 }
            RetrySubscription(downstream: subscriber, upstream: upstream, remaining: remaining).subscribeAttempts()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}
extension Publishers.Retry: Sendable where Upstream: Sendable {}

// MARK: - Subscription

/// The subscription of `retry`: each attempt is a new generation of source subscribed to the
/// same upstream (the context). ``subscribeAttempts()`` runs the subscriptions in a loop, so an
/// attempt that fails inside its own subscription makes the loop go round again instead of
/// nesting a subscription ([S8]).
///
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>:
    SwitchingSubscription<Downstream, Upstream>, @unchecked Sendable  // state guarded by the base's `lock`
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    /// Retries left; `nil` without limit. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var remaining: Int?
    /// Whether ``subscribeAttempts()`` is running on some thread. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var isSubscribing = false
    /// Another attempt is due once the running ``subscribeAttempts()`` is done with its
    /// current one. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var attemptPending = false

    @inlinable
    init(downstream: Downstream, upstream: Upstream, remaining: Int?) {
        self.remaining = remaining
        super.init(downstream: downstream, context: upstream, name: "Retry")
    }

    /// Subscribes the current attempt, and any that become due while doing so.
    @inlinable
    func subscribeAttempts() {
        lock.lock()
        if isSubscribing {
            attemptPending = true
            lock.unlock()
            return
        }
        isSubscribing = true
        while true {
            // `nil`: cancelled or ended.
            guard let upstream = context else {
                isSubscribing = false
                lock.unlock()
                return
            }
            let generation = self.generation
            lock.unlock()
            subscribe(upstream, generation: generation)
            lock.lock()
            if !attemptPending {
                isSubscribing = false
                lock.unlock()
                return
            }
            attemptPending = false
        }
    }

    @inlinable
    override func sourceFinished(generation: Int) {
        finish(.finished)
    }

    @inlinable
    override func sourceFailed<SourceFailure: Error>(_ error: SourceFailure, generation: Int) {
        lock.lock()
        if let remaining {
            if remaining == 0 {
                lock.unlock()
                finish(.failure(error as! Downstream.Failure))
                return
            }
            self.remaining = remaining - 1
        }
        lock.unlock()
        subscribeAttempts()
    }
}
