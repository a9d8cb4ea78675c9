// Engine: Engines/RelaySubscription.swift.

// MARK: - compactMap

extension Publisher {
    /// Transforms each value with a closure and passes on the non-`nil` results.
    ///
    /// A value whose transform is `nil` is dropped and upstream is asked for one more in its
    /// place.
    ///
    /// <!-- marble compactMap: $0.compactMap { Int($0) } -->
    /// ```text
    /// upstream: -a-b-c-|      (a = "1", b = "x", c = "3")
    ///           compactMap { Int($0) }
    /// output:   -1---3-|
    /// ```
    ///
    /// ![Marble diagram of compactMap](marble-compactMap)
    ///
    /// ```swift
    /// let c = ["1", "x", "3"].publisher.compactMap { Int($0) }.sink { print($0) }
    /// // Prints: 1, 3
    /// ```
    ///
    /// - Parameter transform: A closure that takes a value and returns a new value, or `nil` to
    ///   drop it.
    /// - Returns: A publisher that sends the non-`nil` results of `transform` for the upstream's
    ///   values.
    /// - Demand: passes through; each dropped value gives back `.max(1)` to upstream.
    /// - Completion, cancellation: pass through unchanged: the subscriber gets the upstream's
    ///   own subscription, as in Combine.
    /// - Combine compatibility: as Combine; `compactMap` or `map` after `compactMap` fuse into
    ///   one `CompactMap`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }

    /// Transforms each value with a throwing closure and passes on the non-`nil` results; a
    /// thrown error fails the stream.
    ///
    /// <!-- marble tryCompactMap: $0.tryCompactMap { Int(try failOnX($0)) } -->
    /// ```text
    /// upstream: -1-n-x-|      (the transform is nil for n and throws for x)
    ///           tryCompactMap { ... }
    /// output:   -1---[;^]     (`;`: the upstream is cancelled)
    /// ```
    ///
    /// ![Marble diagram of tryCompactMap](marble-tryCompactMap)
    ///
    /// ```swift
    /// struct Bad: Error {}
    /// let c = ["1", "x", "!"].publisher
    ///     .tryCompactMap { s -> Int? in if s == "!" { throw Bad() }; return Int(s) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1
    /// //         failure(Bad())
    /// ```
    ///
    /// - Parameter transform: A closure that takes a value and returns a new value or `nil` to drop
    ///   it; it may throw to fail the stream.
    /// - Returns: A publisher that sends the non-`nil` results of `transform`, and fails with the
    ///   error it throws.
    /// - Demand: as ``compactMap(_:)``; `request(.none)` is ignored.
    /// - Completion: the upstream's, or a failure with the thrown error (upstream cancelled, [S14]).
    /// - Cancellation: the subscriber gets a subscription of its own (`TryCompactMap` in
    ///   `print()`): `cancel()` cancels the upstream once; after it, or after the end, requests
    ///   and cancels are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the transform.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/compactMap(_:)``.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transform; `nil` results are dropped.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher of `upstream`'s non-`nil` transformed values.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are transformed.
        ///   - transform: The transform; its `nil` results are dropped.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transform.
        ///
        /// - Parameter subscriber: The subscriber that receives the non-`nil` results and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CompactMapSubscriber(downstream: subscriber, transform: transform))
        }
    }

    /// The publisher of ``Publisher/tryCompactMap(_:)``.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by the transform.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The throwing transform; `nil` results are dropped.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher of `upstream`'s non-`nil` transformed values.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are transformed.
        ///   - transform: The throwing transform; its `nil` results are dropped.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transform.
        ///
        /// - Parameter subscriber: The subscriber that receives the non-`nil` results and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(subscriber, through: CompactMapStep(transform: transform), name: "TryCompactMap")
        }
    }
}

// MARK: - Fusion

extension Publishers.CompactMap {
    /// Fuses two compactMaps.
    ///
    /// - Parameter transform: A closure that takes the result of this publisher's transform and
    ///   returns a new value, or `nil` to drop it.
    /// - Returns: One `CompactMap` over the same upstream that applies both transforms.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fuses a map onto a compactMap.
    ///
    /// - Parameter transform: A closure that takes the result of this publisher's transform and
    ///   returns a new value.
    /// - Returns: One `CompactMap` over the same upstream that applies both transforms.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}

extension Publishers.Map {
    /// Fuses a compactMap onto a map: `map(f).compactMap(g)` is `compactMap { g(f($0)) }`.
    ///
    /// - Parameter transform: A closure that takes the result of the map's transform and returns a
    ///   new value, or `nil` to drop it.
    /// - Returns: One `CompactMap` over the map's upstream that applies both transforms.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { transform(first($0)) }
    }
}

extension Publishers.TryCompactMap {
    /// Fuses a compactMap onto a tryCompactMap.
    ///
    /// - Parameter transform: A closure that takes the result of this publisher's transform and
    ///   returns a new value or `nil` to drop it; it may throw.
    /// - Returns: One `TryCompactMap` over the same upstream that applies both transforms.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}

// MARK: - Subscribers

@usableFromInline
struct CompactMapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (Input) -> Downstream.Input?

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
        self.downstream = downstream
        self.transform = transform
    }

    @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    @usableFromInline var description: String { "CompactMap" }

    @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        if let output = transform(input) { return downstream.receive(output) }
        return .max(1)
    }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

/// `tryCompactMap`'s step: a value transformed to `nil` is dropped, and replaced by one more.
@usableFromInline
struct CompactMapStep<Input, Output>: RelayStep {
    @usableFromInline let transform: (Input) throws -> Output?

    @inlinable
    init(transform: @escaping (Input) throws -> Output?) {
        self.transform = transform
    }

    @inlinable
    func next(_ input: Input) throws -> RelayAction<Output> {
        if let output = try transform(input) { return .send(output) }
        return .drop
    }
}
