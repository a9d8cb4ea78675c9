// Engine: Engines/ReducingSubscription.swift.

// MARK: - allSatisfy

extension Publisher {
    /// Sends `false` as soon as the upstream sends a value that fails a predicate, or `true` when
    /// it finishes without one.
    ///
    /// The answer is known at the first value that fails `predicate`: `allSatisfy` then cancels
    /// the upstream ([S15]) and sends `false`, then `.finished`. If the upstream finishes first, it
    /// sends `true`; so does an upstream without values, as for `Sequence.allSatisfy`.
    ///
    /// <!-- marble allSatisfy: $0.ints.allSatisfy { $0.isMultiple(of: 2) } -->
    /// ```text
    /// upstream: -2-4-5-6-|
    ///           allSatisfy { $0.isMultiple(of: 2) }
    /// output:   -----[;'false'|]     (`;`: the upstream is cancelled)
    /// ```
    ///
    /// ![Marble diagram of allSatisfy](marble-allSatisfy)
    ///
    /// ```swift
    /// let c = [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it satisfies the
    ///   condition.
    /// - Returns: A publisher that sends one Boolean: `false` at the first value that fails
    ///   `predicate`, or `true` if the upstream finishes without one.
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the answer waits
    ///   until the downstream has asked for a value ([S1]). `request(.none)` is accepted and does
    ///   nothing ([S9]), as in Combine.
    /// - Completion: the answer and `.finished`, once the downstream has asked for a value ([S5]);
    ///   an upstream failure before the answer is passed on at once.
    /// - Cancellation: cancels the upstream ([S7]); it also does so itself at the first value that
    ///   fails the predicate ([S15]).
    /// - Threading: the answer goes out on the thread that delivers the deciding value or the
    ///   completion, or on the thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Sends `false` as soon as the upstream sends a value that fails a throwing predicate, or
    /// `true` when it finishes without one; a thrown error fails the stream.
    ///
    /// It works like ``allSatisfy(_:)``. When the predicate throws, `tryAllSatisfy` cancels the
    /// upstream and fails with the error at once ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryAllSatisfy: $0.tryAllSatisfy { Int(try failOnX($0))!.isMultiple(of: 2) } -->
    /// ```text
    /// upstream: -2-x-6-|     (the predicate throws for x)
    ///           tryAllSatisfy { ... }
    /// output:   ---[;^]
    /// ```
    ///
    /// ![Marble diagram of tryAllSatisfy](marble-tryAllSatisfy)
    ///
    /// ```swift
    /// struct Negative: Error {}
    /// let c = [2, -4, 6].publisher
    ///     .tryAllSatisfy { n in
    ///         guard n >= 0 else { throw Negative() }
    ///         return n.isMultiple(of: 2)
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Negative())
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it satisfies the
    ///   condition; it may throw to fail the stream.
    /// - Returns: A publisher that sends one Boolean, as ``allSatisfy(_:)``, or fails with the
    ///   error `predicate` throws.
    /// - Demand: as ``allSatisfy(_:)``.
    /// - Completion: the answer and `.finished`, or a failure with the thrown error (upstream
    ///   cancelled) or the upstream's error.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.AllSatisfy` and `Publishers.TryAllSatisfy`) hold the operators'
// parameters; each one's `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/allSatisfy(_:)``: whether every value satisfies a predicate.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// `true` if every value satisfied the predicate.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are checked.
        public let upstream: Upstream
        /// The predicate every value must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether every value of `upstream` satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are checked.
        ///   - predicate: The predicate every value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the answer.
        ///
        /// - Parameter subscriber: The subscriber that receives the answer and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: SearchReduction.allSatisfy(predicate), name: "AllSatisfy")
        }
    }

    /// The publisher of ``Publisher/tryAllSatisfy(_:)``: whether every value satisfies a throwing
    /// predicate.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// `true` if every value satisfied the predicate.
        public typealias Output = Bool
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are checked.
        public let upstream: Upstream
        /// The throwing predicate every value must satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether every value of `upstream` satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are checked.
        ///   - predicate: The throwing predicate every value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the answer.
        ///
        /// - Parameter subscriber: The subscriber that receives the answer and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let reduction = SearchReduction.allSatisfy(predicate)
            upstream.subscribe(subscriber, reducing: reduction, name: "TryAllSatisfy")
        }
    }
}

// MARK: - Reduction

extension SearchReduction where Output == Bool {
    /// `allSatisfy`'s search, for a counterexample: `false` at the first value that fails
    /// `predicate`, `true` if the upstream finishes without one.
    @inlinable
    static func allSatisfy(_ predicate: @escaping (Input) throws -> Bool) -> Self {
        Self(predicate: predicate, stopsAt: false, found: { _ in false }, notFound: true)
    }
}
