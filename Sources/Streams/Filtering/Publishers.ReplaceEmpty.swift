// MARK: - replaceEmpty

extension Publisher {
    /// Sends a given value if the upstream finishes without sending any.
    ///
    /// The upstream's values pass through unchanged. If it finishes without having sent one,
    /// `replaceEmpty` sends `output` in its place, then `.finished`, so the downstream always
    /// gets at least one value from a stream that finishes.
    ///
    /// ```text
    /// upstream: ---|
    ///           replaceEmpty(with: 0)
    /// output:   ---[0|]
    /// ```
    ///
    /// ```swift
    /// let numbers: [Double] = []
    /// let c = numbers.publisher.replaceEmpty(with: .nan).sink { print($0) }
    /// // Prints: nan
    /// ```
    ///
    /// - Demand: passes through to the upstream; the replacement waits until the downstream has
    ///   asked for a value (S1).
    /// - Completion: a failure passes through, without a replacement; `.finished` passes
    ///   through, after the replacement if there was no value.
    /// - Cancellation: cancels the upstream, and no replacement is sent (S6, S7).
    /// - Threading: values go out on the upstream's thread; the replacement on the thread that
    ///   completes the upstream, or on the thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine, except for demand: Combine also asks the upstream for
    ///   `.unlimited` when subscribed, so values can reach a downstream that has not asked for
    ///   them. Streams passes the downstream's requests on instead (S1).
    /// - Complexity: O(1) per value; one uncontended lock per value, so that `cancel()` can let go
    ///   of the downstream from any thread (S7).
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/replaceEmpty(with:)``: the upstream's values, or a given
    /// value if there are none.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The value sent when the upstream finishes without values.
        public let output: Upstream.Output
        /// The publisher whose values pass through.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s values that sends `output` if there are none.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber` to the values or the replacement.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReplaceEmptySubscription(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

// MARK: - Subscription

/// The subscriber to the upstream and the subscription of the downstream of `replaceEmpty`.
///
/// Values and requests pass through. The lock guards the state (with the upstream
/// subscription), the downstream and whether the downstream has asked for anything, which
/// `cancel()` and `request` touch from any thread. A replacement whose upstream finished before
/// the downstream asked for it waits in ``State/holding``.
@usableFromInline
final class ReplaceEmptySubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // state, downstream, demanded: guarded by `lock`; isEmpty: upstream signals only
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    enum State {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Passing values through.
        case relaying(Subscription)
        /// The upstream finished empty; the replacement waits for demand.
        case holding
        /// The replacement is being sent; `cancel()` now only stops the `.finished` that follows.
        case delivering
        /// Completed or cancelled.
        case done
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var state = State.awaitingSubscription
    @usableFromInline var downstream: Downstream?
    /// Whether the downstream has asked for a value. Before any value it has one outstanding.
    @usableFromInline var demanded = false
    @usableFromInline let output: Downstream.Input
    /// Whether no value has come from the upstream yet.
    @exclusivity(unchecked) @usableFromInline var isEmpty = true

    @inlinable
    init(downstream: Downstream, output: Downstream.Input) {
        self.downstream = downstream
        self.output = output
    }

    @usableFromInline var description: String { "ReplaceEmpty" }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .relaying(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .relaying = state, let downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        isEmpty = false
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .relaying = state, let downstream else {
            lock.unlock()
            return
        }
        if case .finished = completion, isEmpty {
            guard demanded else {
                state = .holding
                lock.unlock()
                return
            }
            state = .delivering
            self.downstream = nil
            lock.unlock()
            deliverReplacement(to: downstream)
            return
        }
        state = .done
        self.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "ReplaceEmpty") else { return }
        lock.lock()
        switch state {
        case .relaying(let upstream):
            demanded = true
            lock.unlock()
            upstream.request(demand)
        case .holding:
            state = .delivering
            let downstream = self.downstream.take()
            lock.unlock()
            if let downstream { deliverReplacement(to: downstream) }
        case .awaitingSubscription, .delivering, .done:
            lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let previous = state
        if case .done = previous {
            lock.unlock()
            return
        }
        state = .done
        let downstream = self.downstream.take()
        lock.unlock()
        if case .relaying(let upstream) = previous { upstream.cancel() }
        _ = downstream
    }

    /// Sends the replacement, then `.finished` unless `cancel()` came meanwhile.
    @inlinable
    func deliverReplacement(to downstream: Downstream) {
        _ = downstream.receive(output)
        lock.lock()
        let wasCancelled = if case .delivering = state { false } else { true }
        state = .done
        lock.unlock()
        if !wasCancelled { downstream.receive(completion: .finished) }
    }
}
