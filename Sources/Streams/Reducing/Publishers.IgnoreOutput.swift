// Engine: none. The whole operator is in this file.

// MARK: - ignoreOutput

extension Publisher {
    /// Drops every value and passes on only the upstream's completion.
    ///
    /// Use it when all that matters is whether, and how, the upstream ends: a save that either
    /// finishes or fails, say. The output type becomes `Never`, so nothing but the completion can
    /// reach the downstream.
    ///
    /// <!-- marble ignoreOutput: $0.ignoreOutput() -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           ignoreOutput()
    /// output:   -------|
    /// ```
    ///
    /// ![Marble diagram of ignoreOutput](marble-ignoreOutput)
    ///
    /// ```swift
    /// struct Zero: Error {}
    /// let c = [1, 2, 0, 3].publisher
    ///     .tryMap { n -> Int in guard n != 0 else { throw Zero() }; return n }
    ///     .ignoreOutput()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
    /// // Prints: failure(Zero())
    /// ```
    ///
    /// - Returns: A publisher that sends no values, only the upstream's completion.
    /// - Demand: hands the upstream's own subscription to the downstream, then asks the
    ///   upstream for `.unlimited`, as Combine does; the downstream's requests (including
    ///   `.none`) and its `cancel()` go straight to the upstream.
    /// - Completion: the upstream's, passed on at once: it needs no demand ([S5]).
    /// - Cancellation: the downstream cancels the upstream's subscription itself ([S7]).
    /// - Threading: the completion goes out on the upstream's thread.
    /// - Combine compatibility: as Combine. Like Combine's, it keeps no state, so it passes a
    ///   misbehaving upstream's signals on unchanged ([S2]): the next stateful subscriber ignores them.
    /// - Complexity: O(1) per value.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S7]: doc:/Contract/StreamContract#S7
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.IgnoreOutput`) hold the operators' parameters; each one's
// `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/ignoreOutput()``: only the upstream's completion.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No values are ever sent.
        public typealias Output = Never
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are dropped.
        public let upstream: Upstream

        /// Creates a publisher that passes on only `upstream`'s completion.
        ///
        /// - Parameter upstream: The publisher whose values are dropped.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream's completion.
        ///
        /// - Parameter subscriber: The subscriber that receives only the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: IgnoreOutputSubscriber<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

// MARK: - Subscriber

/// The subscriber of `ignoreOutput()`: it hands the upstream's subscription down, asks for
/// everything, drops every value and passes on the completion. It keeps no state, as Combine's.
@usableFromInline
struct IgnoreOutputSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Never {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline var description: String { "IgnoreOutput" }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { .none }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }
}
