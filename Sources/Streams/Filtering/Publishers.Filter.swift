// Engine: Engines/RelaySubscription.swift.

// MARK: - filter

extension Publisher {
    /// Passes on only the values that satisfy a predicate.
    ///
    /// A value that fails the predicate is dropped, and `filter` asks upstream for one more in
    /// its place, so the downstream's demand is still met by values that pass.
    ///
    /// <!-- marble filter: $0.ints.filter { $0.isMultiple(of: 2) } -->
    /// ```text
    /// upstream: -1-2-3-4-|
    ///           filter { $0.isMultiple(of: 2) }
    /// output:   ---2---4-|
    /// ```
    ///
    /// ![Marble diagram of filter](marble-filter)
    ///
    /// ```swift
    /// let c = [1, 2, 3, 4].publisher.filter { $0.isMultiple(of: 2) }.sink { print($0) }
    /// // Prints: 2, 4
    /// ```
    ///
    /// - Parameter isIncluded: A closure that takes a value and returns whether to pass it on.
    /// - Returns: A publisher that sends the upstream's values that satisfy `isIncluded`.
    /// - Demand: passes through; each dropped value gives back `.max(1)` to upstream.
    /// - Completion, cancellation: pass through unchanged: the subscriber gets the upstream's
    ///   own subscription, as in Combine.
    /// - Combine compatibility: as Combine; `filter` after `filter` fuses into one `Filter`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }

    /// Passes on only the values that satisfy a throwing predicate; a thrown error fails the
    /// stream.
    ///
    /// When the predicate throws, `tryFilter` cancels the upstream and finishes with
    /// `.failure(error)` ([S14]).
    ///
    /// <!-- marble tryFilter: $0.tryFilter { Int(try failOnX($0))!.isMultiple(of: 2) } -->
    /// ```text
    /// upstream: -1-2-x-4-|     (the predicate throws for x)
    ///           tryFilter { ... }
    /// output:   ---2-[;^]     (`;`: the upstream is cancelled)
    /// ```
    ///
    /// ![Marble diagram of tryFilter](marble-tryFilter)
    ///
    /// ```swift
    /// struct Bad: Error {}
    /// let c = [1, 2, -1, 4].publisher
    ///     .tryFilter { n in if n < 0 { throw Bad() }; return n.isMultiple(of: 2) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 2
    /// //         failure(Bad())
    /// ```
    ///
    /// - Parameter isIncluded: A closure that takes a value and returns whether to pass it on; it
    ///   may throw to fail the stream.
    /// - Returns: A publisher that sends the upstream's values that satisfy `isIncluded`, and fails
    ///   with the error it throws.
    /// - Demand: as ``filter(_:)``; `request(.none)` is ignored.
    /// - Completion: the upstream's, or a failure with the thrown error (upstream cancelled).
    /// - Cancellation: the subscriber gets a subscription of its own (`TryFilter` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the predicate.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.Filter` and `Publishers.TryFilter`) hold the operators'
// parameters; each one's `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/filter(_:)``.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The predicate a value must satisfy to be passed on.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a publisher of `upstream`'s values that satisfy `isIncluded`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are filtered.
        ///   - isIncluded: The predicate a value must satisfy to be passed on.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
        }
    }

    /// The publisher of ``Publisher/tryFilter(_:)``.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The throwing predicate a value must satisfy to be passed on.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher of `upstream`'s values that satisfy `isIncluded`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are filtered.
        ///   - isIncluded: The throwing predicate a value must satisfy to be passed on.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, through: FilterStep(isIncluded: isIncluded), name: "TryFilter")
        }
    }
}

// MARK: - Fusion

extension Publishers.Filter {
    /// Fuses two filters: `filter(p).filter(q)` is `filter { p($0) && q($0) }`.
    ///
    /// - Parameter isIncluded: A closure that takes a value that passed this filter and returns
    ///   whether to pass it on.
    /// - Returns: One `Filter` over the same upstream that passes on the values that satisfy both
    ///   predicates.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }

    /// Fuses a filter and a tryFilter.
    ///
    /// - Parameter isIncluded: A closure that takes a value that passed this filter and returns
    ///   whether to pass it on; it may throw.
    /// - Returns: One `TryFilter` over the same upstream that passes on the values that satisfy
    ///   both predicates.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    /// Fuses a filter onto a tryFilter.
    ///
    /// - Parameter isIncluded: A closure that takes a value that passed this filter and returns
    ///   whether to pass it on.
    /// - Returns: One `TryFilter` over the same upstream that passes on the values that satisfy
    ///   both predicates.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses two tryFilters.
    ///
    /// - Parameter isIncluded: A closure that takes a value that passed this filter and returns
    ///   whether to pass it on; it may throw.
    /// - Returns: One `TryFilter` over the same upstream that passes on the values that satisfy
    ///   both predicates.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

// MARK: - Subscribers

@usableFromInline
struct FilterSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline let downstream: Downstream
    @usableFromInline let isIncluded: (Input) -> Bool

    @inlinable
    init(downstream: Downstream, isIncluded: @escaping (Input) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
    }

    @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    @usableFromInline var description: String { "Filter" }

    @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        isIncluded(input) ? downstream.receive(input) : .max(1)
    }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

/// `tryFilter`'s step: a value that fails the predicate is dropped, and replaced by one more.
@usableFromInline
struct FilterStep<Input>: RelayStep {
    @usableFromInline let isIncluded: (Input) throws -> Bool

    @inlinable
    init(isIncluded: @escaping (Input) throws -> Bool) {
        self.isIncluded = isIncluded
    }

    @inlinable
    func next(_ input: Input) throws -> RelayAction<Input> {
        try isIncluded(input) ? .send(input) : .drop
    }
}
