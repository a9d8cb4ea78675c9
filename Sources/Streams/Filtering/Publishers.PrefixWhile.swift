// Engine: Engines/RelaySubscription.swift.

// MARK: - prefix(while:)

extension Publisher {
    /// Passes on values while they satisfy a predicate, and finishes at the first that does not.
    ///
    /// Each value is tested; while `predicate` returns `true` the value is sent on. The first
    /// value for which it returns `false` is not sent: the upstream is cancelled and the stream
    /// finishes there.
    ///
    /// <!-- marble prefixWhile: $0.ints.prefix { $0 < 3 } -->
    /// ```text
    /// upstream: -1-2-5-3-|
    ///           prefix { $0 < 3 }
    /// output:   -1-2-[;|]
    /// ```
    ///
    /// ![Marble diagram of prefixWhile](marble-prefixWhile)
    ///
    /// ```swift
    /// let c = [1, 2, 5, 3, 1].publisher.prefix { $0 < 3 }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1
    /// //         2
    /// //         finished
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns `true` to pass it on,
    ///   `false` to finish.
    /// - Returns: A publisher that sends the upstream's values up to the first that fails
    ///   `predicate`, then finishes.
    /// - Demand: passes through unchanged; `request(.none)` is ignored.
    /// - Completion: `.finished` at the first value that fails the predicate; before that, the
    ///   upstream's completion as is.
    /// - Cancellation: cancels the upstream as soon as a value fails the predicate ([S15]). The
    ///   subscriber gets a subscription of its own (`PrefixWhile` in `print()`): `cancel()`
    ///   cancels the upstream once; after it, or after the end, requests and cancels are
    ///   ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the predicate.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Passes on values while they satisfy a throwing predicate; a thrown error fails the
    /// stream.
    ///
    /// As ``prefix(while:)``; when `predicate` throws, `tryPrefix` cancels the upstream and
    /// finishes with `.failure(error)` ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryPrefixWhile: $0.tryPrefix { Int(try failOnX($0))! < 3 } -->
    /// ```text
    /// upstream: -1-2-x-3-|     (the predicate throws for x)
    ///           tryPrefix { ... }
    /// output:   -1-2-[;^]
    /// ```
    ///
    /// ![Marble diagram of tryPrefixWhile](marble-tryPrefixWhile)
    ///
    /// ```swift
    /// struct Bad: Error {}
    /// let c = [1, 2, -1, 3].publisher
    ///     .tryPrefix { n in
    ///         if n < 0 { throw Bad() }
    ///         return n < 3
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1
    /// //         2
    /// //         failure(Bad())
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns `true` to pass it on,
    ///   `false` to finish; it may throw to fail the stream.
    /// - Returns: A publisher that sends the upstream's values up to the first that fails
    ///   `predicate`, then finishes, or fails with the error `predicate` throws.
    /// - Demand: passes through unchanged.
    /// - Completion: `.finished` at the first value that fails the predicate, a failure with
    ///   the thrown error, or the upstream's completion if it comes first.
    /// - Cancellation: cancels the upstream as soon as a value fails the predicate or the
    ///   predicate throws ([S14], [S15]); otherwise as ``prefix(while:)``, with the subscription
    ///   named `TryPrefixWhile`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the predicate.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.PrefixWhile` and `Publishers.TryPrefixWhile`) hold the
// operators' parameters; each one's `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/prefix(while:)``: the upstream's values up to the first that
    /// fails a predicate.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The condition a value satisfies for the stream to go on.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of `upstream`'s values up to the first that fails `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are passed on.
        ///   - predicate: The condition a value satisfies for the stream to go on.
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
            upstream.subscribe(subscriber, through: PrefixWhileStep(predicate: predicate), name: "PrefixWhile")
        }
    }

    /// The publisher of ``Publisher/tryPrefix(while:)``: the upstream's values up to the first
    /// that fails a throwing predicate.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The condition a value satisfies for the stream to go on; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of `upstream`'s values up to the first that fails `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are passed on.
        ///   - predicate: The condition a value satisfies for the stream to go on; may throw.
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
            upstream.subscribe(subscriber, through: PrefixWhileStep(predicate: predicate), name: "TryPrefixWhile")
        }
    }
}

// MARK: - Step

/// Passes values on while they satisfy the predicate; finishes at the first that does not.
@usableFromInline
struct PrefixWhileStep<Input>: RelayStep {
    @usableFromInline let predicate: (Input) throws -> Bool

    @inlinable
    init(predicate: @escaping (Input) throws -> Bool) {
        self.predicate = predicate
    }

    @inlinable
    func next(_ input: Input) throws -> RelayAction<Input> {
        try predicate(input) ? .send(input) : .finish
    }
}
