// Engine: Engines/RelaySubscription.swift.

// MARK: - drop(while:)

extension Publisher {
    /// Drops values while they satisfy a predicate, then passes on everything from the first
    /// value that does not.
    ///
    /// Values are tested until the first one for which `predicate` returns `false`; that value
    /// and all later ones are sent on, and the predicate is not called again. Each dropped value
    /// asks upstream for one more in its place.
    ///
    /// <!-- marble dropWhile: $0.ints.drop { $0 < 3 } -->
    /// ```text
    /// upstream: -1-2-5-1-|
    ///           drop { $0 < 3 }
    /// output:   -----5-1-|
    /// ```
    ///
    /// ![Marble diagram of dropWhile](marble-dropWhile)
    ///
    /// ```swift
    /// let c = [-62, -1, 0, 10, 0, 22, 41, -1, 5].publisher
    ///     .drop { $0 <= 0 }
    ///     .sink { print($0) }
    /// // Prints: 10, 0, 22, 41, -1, 5 (one per line)
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns `true` to drop it, `false`
    ///   to start passing values on.
    /// - Returns: A publisher that sends the upstream's values from the first that fails
    ///   `predicate` on.
    /// - Demand: passes through; each dropped value gives back `.max(1)` to upstream.
    ///   `request(.none)` is an API violation ([S9]), as in Combine.
    /// - Completion: passes through unchanged.
    /// - Cancellation: the subscriber gets a subscription of its own (`DropWhile` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the completion, requests and
    ///   cancels are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the predicate while dropping.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Drops values while they satisfy a throwing predicate, then passes on the rest; a thrown
    /// error fails the stream.
    ///
    /// As ``drop(while:)``; when `predicate` throws, `tryDrop` cancels the upstream and finishes
    /// with `.failure(error)` ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryDropWhile: $0.tryDrop { Int(try failOnX($0))! < 3 } -->
    /// ```text
    /// upstream: -1-x-5-|       (the predicate throws for x)
    ///           tryDrop { ... }
    /// output:   ---[;^]
    /// ```
    ///
    /// ![Marble diagram of tryDropWhile](marble-tryDropWhile)
    ///
    /// ```swift
    /// struct Bad: Error {}
    /// let c = [1, 2, 5, 1].publisher
    ///     .tryDrop { n in
    ///         if n == 2 { throw Bad() }
    ///         return n < 3
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Bad())
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns `true` to drop it, `false`
    ///   to start passing values on; it may throw to fail the stream.
    /// - Returns: A publisher that sends the upstream's values from the first that fails
    ///   `predicate` on, and fails with the error `predicate` throws.
    /// - Demand: as ``drop(while:)``, including the API violation for `request(.none)` ([S9]).
    /// - Completion: the upstream's, or a failure with the thrown error (upstream cancelled).
    /// - Cancellation: as ``drop(while:)``; the subscription is `TryDropWhile` in `print()`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the predicate while dropping.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.DropWhile` and `Publishers.TryDropWhile`) hold the operators'
// parameters; each one's `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/drop(while:)``: the upstream's values from the first that
    /// fails a predicate on.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are dropped.
        public let upstream: Upstream
        /// The condition under which a value is still dropped.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of `upstream`'s values from the first that fails `predicate` on.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose first values are dropped.
        ///   - predicate: The condition under which a value is still dropped.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                subscriber, through: DropWhileStep(predicate: predicate), name: "DropWhile", reportsNoneRequests: true)
        }
    }

    /// The publisher of ``Publisher/tryDrop(while:)``: the upstream's values from the first that
    /// fails a throwing predicate on.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose first values are dropped.
        public let upstream: Upstream
        /// The condition under which a value is still dropped; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of `upstream`'s values from the first that fails `predicate` on.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose first values are dropped.
        ///   - predicate: The condition under which a value is still dropped; may throw.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                subscriber, through: DropWhileStep(predicate: predicate), name: "TryDropWhile",
                reportsNoneRequests: true)
        }
    }
}

// MARK: - Step

/// Drops values, each replaced by one more, until the first that fails the predicate; passes on
/// that one and all after it without calling the predicate again.
@usableFromInline
struct DropWhileStep<Input>: RelayStep {
    @usableFromInline let predicate: (Input) throws -> Bool
    /// Whether values are still being tested.
    @usableFromInline var dropping = true

    @inlinable
    init(predicate: @escaping (Input) throws -> Bool) {
        self.predicate = predicate
    }

    @inlinable
    mutating func next(_ input: Input) throws -> RelayAction<Input> {
        if dropping {
            if try predicate(input) { return .drop }
            dropping = false
        }
        return .send(input)
    }
}
