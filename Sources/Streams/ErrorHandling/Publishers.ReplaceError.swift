// Engine: none. The whole operator is in this file.

// MARK: - replaceError

extension Publisher {
    /// Replaces a failure with one last value, then finishes normally.
    ///
    /// Values pass through. If the upstream fails, the subscriber receives `output` followed by
    /// `.finished` instead of the error, so the stream can no longer fail (its `Failure` is
    /// `Never`). Use it where a failure should show as a fallback value, such as an empty list
    /// after a failed download; to recover with a whole publisher instead, use `catch`.
    ///
    /// <!-- marble replaceError: $0.replaceError(with: "0") -->
    /// ```text
    /// upstream: -1-2-^
    ///           replaceError(with: 0)
    /// output:   -1-2-[0|]
    /// ```
    ///
    /// ![Marble diagram of replaceError](marble-replaceError)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let prices = PassthroughSubject<Int, Offline>()
    /// let c = prices
    ///     .replaceError(with: 0)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// prices.send(7)
    /// prices.send(completion: .failure(Offline()))
    /// // Prints: 7
    /// //         0
    /// //         finished
    /// ```
    ///
    /// - Parameter output: The value to send, before finishing, if the upstream fails.
    /// - Returns: A publisher that passes on the upstream's values and, in place of a failure,
    ///   sends `output` and finishes.
    /// - Demand: requests go to the upstream as they are, and the operator counts what the
    ///   downstream may still receive (requested plus returned, minus delivered). The
    ///   replacement is a value like any other ([S1]): if the downstream has no demand left when
    ///   the failure arrives, the replacement and `.finished` wait for its next request.
    ///   `request(.none)` is an API violation ([S9]), as in Combine, and is not passed on.
    /// - Completion: `.finished` passes through; a failure becomes `output` then `.finished`.
    /// - Cancellation: cancels the upstream, or drops a waiting replacement, and lets go of the
    ///   downstream ([S6], [S7]); cancelling while the replacement is being received stops the
    ///   `.finished` that would follow.
    /// - Threading: the replacement is delivered on the thread of the failure, or of the
    ///   request that made room for it.
    /// - Combine compatibility: as Combine, including the replacement waiting for demand and the
    ///   API violation for `request(.none)`. On `Just`, which cannot fail, it returns the `Just`.
    /// - Complexity: O(1) per value.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/replaceError(with:)``: the upstream's values, and a
    /// replacement value instead of a failure.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The failure is replaced, so this publisher cannot fail.
        public typealias Failure = Never

        /// The value sent, followed by `.finished`, when the upstream fails.
        public let output: Upstream.Output
        /// The publisher whose failure is replaced.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s values that sends `output` then finishes when
        /// `upstream` fails.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose failure is replaced.
        ///   - output: The value to send, before finishing, if `upstream` fails.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber` through a subscription that replaces the failure.
        ///
        /// - Parameter subscriber: The subscriber that receives the values, the replacement if the
        ///   upstream fails, and `.finished`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(
                subscriber: ReplaceErrorSubscription<Upstream.Failure, S>(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
extension Publishers.ReplaceError: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

// MARK: - Subscription

@usableFromInline
// `state`, `demand` and `cancelled` are guarded by `lock`
final class ReplaceErrorSubscription<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Failure == Never {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline
    enum State {
        case awaitingSubscription(Downstream)
        case live(any Subscription, Downstream)
        /// The upstream failed while the downstream had no demand: the replacement waits.
        case awaitingDemand(Downstream)
        /// Finished, cancelled, or the replacement handed over.
        case done
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var state: State
    /// What the downstream may still receive: requested plus returned, minus delivered.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Set by `cancel()`, also while the replacement is being delivered: then no `.finished`.
    @usableFromInline var cancelled = false
    @usableFromInline let output: Input

    @inlinable
    init(downstream: Downstream, output: Input) {
        self.state = .awaitingSubscription(downstream)
        self.output = output
    }

    @usableFromInline var description: String { "ReplaceError" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    // MARK: Upstream side

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .live(subscription, downstream)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .live(_, let downstream) = state else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        let more = downstream.receive(input)
        if more != .none {
            lock.withLock { demand += more }
        }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .live(_, let downstream) = state else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            state = .done
            lock.unlock()
            downstream.receive(completion: .finished)
        case .failure:
            if demand == .none {
                state = .awaitingDemand(downstream)
                lock.unlock()
            } else {
                state = .done
                lock.unlock()
                deliverReplacement(to: downstream)
            }
        }
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // Combine traps on `.none` here, whatever the state (S9).
        guard demand.isValidRequest(of: "ReplaceError") else { return }
        lock.lock()
        switch state {
        case .live(let upstream, _):
            self.demand += demand
            lock.unlock()
            upstream.request(demand)
        case .awaitingDemand(let downstream):
            state = .done
            lock.unlock()
            deliverReplacement(to: downstream)
        case .awaitingSubscription, .done:
            lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        cancelled = true
        let state = self.state
        self.state = .done
        lock.unlock()
        if case .live(let upstream, _) = state {
            upstream.cancel()
        }
        // `state` lets go of the downstream here, after unlocking (S7).
    }

    @usableFromInline
    func deliverReplacement(to downstream: Downstream) {
        _ = downstream.receive(output)
        if !lock.withLock({ cancelled }) {
            downstream.receive(completion: .finished)
        }
    }
}
