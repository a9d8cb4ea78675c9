// Engine: Engines/RelaySubscription.swift.

// MARK: - map

extension Publisher {
    /// Transforms each value with a closure.
    ///
    /// Each value from upstream is passed through `transform`, and the result is sent on.
    /// Demand, completion and cancellation pass through untouched: `map` keeps no state.
    ///
    /// <!-- marble map: $0.ints.map { $0 * 10 } -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           map { $0 * 10 }
    /// output:   -a-b-c-|      (a = 10, b = 20, c = 30)
    /// ```
    ///
    /// ![Marble diagram of map](marble-map)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.map { $0 * 10 }.sink { print($0) }
    /// // Prints: 10, 20, 30
    /// ```
    ///
    /// - Parameter transform: A closure that takes a value and returns the value to send in its
    ///   place.
    /// - Returns: A publisher that sends the result of `transform` for each upstream value.
    /// - Demand: passes through unchanged: one value out for each value in.
    /// - Completion: passes through unchanged.
    /// - Cancellation: goes straight to the upstream subscription: the subscriber gets the
    ///   upstream's own subscription, as in Combine.
    /// - Threading: `transform` runs on the thread the upstream delivers on.
    /// - Combine compatibility: as Combine; `map` after `map` fuses into one `Map`.
    /// - Complexity: O(1) per value, no allocation.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Transforms each value with a throwing closure; a thrown error fails the stream.
    ///
    /// When `transform` throws, `tryMap` cancels the upstream and finishes with
    /// `.failure(error)` ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryMap: $0.ints.tryMap { try reciprocal($0) } -->
    /// ```text
    /// upstream: -1-2-0-3-|
    ///           tryMap { try reciprocal($0) }   (throws for 0)
    /// output:   -a-b-[;^]     (a = 1.0, b = 0.5; `;`: the upstream is cancelled)
    /// ```
    ///
    /// ![Marble diagram of tryMap](marble-tryMap)
    ///
    /// ```swift
    /// struct Zero: Error {}
    /// let c = [1, 2, 0, 3].publisher
    ///     .tryMap { n -> Double in guard n != 0 else { throw Zero() }; return 1 / Double(n) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1.0
    /// //         0.5
    /// //         failure(Zero())
    /// ```
    ///
    /// - Parameter transform: A closure that takes a value and returns the value to send in its
    ///   place; it may throw to fail the stream.
    /// - Returns: A publisher that sends the result of `transform` for each upstream value, and
    ///   fails with the error it throws.
    /// - Demand: passes through unchanged; `request(.none)` is ignored.
    /// - Completion: the upstream's, or a failure with the thrown error (upstream cancelled).
    /// - Cancellation: the subscriber gets a subscription of its own (`TryMap` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine; `map`/`tryMap` after `tryMap` fuse into one `TryMap`.
    /// - Complexity: O(1) per value plus the transform; no allocation per value.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }

    /// Replaces `nil` values with a default value.
    ///
    /// <!-- marble replaceNil: $0.map { Int($0) }.replaceNil(with: 0) -->
    /// ```text
    /// upstream: -1-n-3-|     (n = nil)
    ///           replaceNil(with: 0)
    /// output:   -1-0-3-|
    /// ```
    ///
    /// ![Marble diagram of replaceNil](marble-replaceNil)
    ///
    /// ```swift
    /// let c = [1, nil, 3].publisher.replaceNil(with: 0).sink { print($0 as Any) }
    /// // Prints: Optional(1), Optional(0), Optional(3)
    /// // (on a `Publishers.Sequence` the output stays optional, as in Combine)
    /// ```
    ///
    /// - Parameter output: The value to send in place of each `nil`.
    /// - Returns: A publisher that sends the upstream's non-`nil` values unwrapped, and `output`
    ///   for each `nil`.
    /// - Demand, completion, cancellation: pass through, as for ``map(_:)->Publishers.Map<Self,T>``.
    /// - Combine compatibility: as Combine: it is a `map`.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}

extension Publishers {
    /// The publisher of ``Publisher/map(_:)->Publishers.Map<Self,T>``: each value transformed by a closure.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transform applied to each value.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher that transforms `upstream`'s values with `transform`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are transformed.
        ///   - transform: The closure each value goes through.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transform.
        ///
        /// - Parameter subscriber: The subscriber that receives the transformed values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: MapSubscriber(downstream: subscriber, transform: transform))
        }
    }

    /// The publisher of ``Publisher/tryMap(_:)``: each value transformed by a throwing closure.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by the transform.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The throwing transform applied to each value.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a publisher that transforms `upstream`'s values with `transform`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are transformed.
        ///   - transform: The throwing closure each value goes through.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transform.
        ///
        /// - Parameter subscriber: The subscriber that receives the transformed values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.receive(subscriber: TryMapSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

// MARK: - Fusion

extension Publishers.Map {
    /// Fuses two maps into one: `map(f).map(g)` is `map { g(f($0)) }`.
    ///
    /// - Parameter transform: A closure that takes the result of this map's transform and returns
    ///   the value to send.
    /// - Returns: One `Map` over the same upstream that applies both transforms.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }

    /// Fuses a map and a tryMap: `map(f).tryMap(g)` is `tryMap { try g(f($0)) }`.
    ///
    /// - Parameter transform: A closure that takes the result of this map's transform and returns
    ///   the value to send; it may throw.
    /// - Returns: One `TryMap` over the same upstream that applies both transforms.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publishers.TryMap {
    /// Fuses a map onto a tryMap.
    ///
    /// - Parameter transform: A closure that takes the result of this tryMap's transform and
    ///   returns the value to send.
    /// - Returns: One `TryMap` over the same upstream that applies both transforms.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fuses two tryMaps.
    ///
    /// - Parameter transform: A closure that takes the result of this tryMap's transform and
    ///   returns the value to send; it may throw.
    /// - Returns: One `TryMap` over the same upstream that applies both transforms.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}

// MARK: - Subscribers

@usableFromInline
struct MapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (Input) -> Downstream.Input

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
        self.downstream = downstream
        self.transform = transform
    }

    @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    @usableFromInline var description: String { "Map" }

    @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(transform(input)) }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

@usableFromInline
final class TryMapSubscriber<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    RelaySubscriber<Input, UpstreamFailure, Downstream>
where Downstream.Failure == any Error {
    @usableFromInline let transform: (Input) throws -> Downstream.Input

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input) {
        self.transform = transform
        super.init(downstream: downstream, name: "TryMap")
    }

    @inlinable
    override func receive(_ input: Input) -> Subscribers.Demand {
        guard isLive else { return .none }
        let output: Downstream.Input
        do {
            output = try transform(input)
        } catch {
            finish(.failure(error))
            return .none
        }
        return forward(output)
    }
}
