// Engine: Engines/ReducingSubscription.swift.

// MARK: - contains

extension Publisher where Output: Equatable {
    /// Sends `true` as soon as the upstream sends a value equal to `output`, or `false` when it
    /// finishes without one.
    ///
    /// The answer is known at the first equal value: `contains` then cancels the upstream ([S15])
    /// and sends `true`, then `.finished`. If the upstream finishes first, it sends `false`.
    ///
    /// <!-- marble contains: $0.contains("2") -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           contains(2)
    /// output:   ---[;'true'|]     (`;`: the upstream is cancelled)
    /// ```
    ///
    /// ![Marble diagram of contains](marble-contains)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.contains(2).sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter output: The value to look for among the upstream's values.
    /// - Returns: A publisher that sends one Boolean: `true` at the first value equal to `output`,
    ///   or `false` if the upstream finishes without one.
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the answer waits
    ///   until the downstream has asked for a value ([S1]). `request(.none)` is accepted and does
    ///   nothing ([S9]), as in Combine.
    /// - Completion: the answer and `.finished`, once the downstream has asked for a value ([S5]);
    ///   an upstream failure before the answer is passed on at once.
    /// - Cancellation: cancels the upstream ([S7]); it also does so itself when it finds the
    ///   value ([S15]).
    /// - Threading: the answer goes out on the thread that delivers the deciding value or the
    ///   completion, or on the thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Sends `true` as soon as the upstream sends a value that satisfies a predicate, or `false`
    /// when it finishes without one.
    ///
    /// The answer is known at the first value that satisfies `predicate`: `contains(where:)`
    /// then cancels the upstream ([S15]) and sends `true`, then `.finished`. If the upstream
    /// finishes first, it sends `false`.
    ///
    /// <!-- marble containsWhere: $0.ints.contains { $0 > 1 } -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           contains { $0 > 1 }
    /// output:   ---[;'true'|]
    /// ```
    ///
    /// ![Marble diagram of containsWhere](marble-containsWhere)
    ///
    /// ```swift
    /// let c = [1, 3, 5].publisher.contains { $0.isMultiple(of: 2) }.sink { print($0) }
    /// // Prints: false
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it is a match.
    /// - Returns: A publisher that sends one Boolean: `true` at the first value that satisfies
    ///   `predicate`, or `false` if the upstream finishes without one.
    /// - Demand, completion, cancellation: as ``Publisher/contains(_:)``.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    ///
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Sends `true` as soon as the upstream sends a value that satisfies a throwing predicate,
    /// or `false` when it finishes without one; a thrown error fails the stream.
    ///
    /// It works like ``contains(where:)``. When the predicate throws, `tryContains(where:)`
    /// cancels the upstream and fails with the error at once ([S14]). The failure type becomes
    /// `any Error`.
    ///
    /// <!-- marble tryContainsWhere: $0.tryContains { Int(try failOnX($0))! > 1 } -->
    /// ```text
    /// upstream: -1-x-3-|     (the predicate throws for x)
    ///           tryContains { ... }
    /// output:   ---[;^]
    /// ```
    ///
    /// ![Marble diagram of tryContainsWhere](marble-tryContainsWhere)
    ///
    /// ```swift
    /// struct Negative: Error {}
    /// let c = [1, -2, 3].publisher
    ///     .tryContains { n in
    ///         guard n >= 0 else { throw Negative() }
    ///         return n == 3
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Negative())
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it is a match; it
    ///   may throw to fail the stream.
    /// - Returns: A publisher that sends one Boolean, as ``contains(where:)``, or fails with the
    ///   error `predicate` throws.
    /// - Demand: as ``Publisher/contains(_:)``.
    /// - Completion: the answer and `.finished`, or a failure with the thrown error (upstream
    ///   cancelled) or the upstream's error.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.Contains`, `Publishers.ContainsWhere` and
// `Publishers.TryContainsWhere`) hold the operators' parameters; each one's `receive(subscriber:)`
// subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/contains(_:)``: whether the upstream sends a given value.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// `true` if the value was found.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The value to look for.
        public let output: Upstream.Output

        /// Creates a publisher that tells whether `upstream` sends `output`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - output: The value to look for.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber` to the answer.
        ///
        /// - Parameter subscriber: The subscriber that receives the answer and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let output = self.output
            upstream.subscribe(subscriber, reducing: SearchReduction.contains { $0 == output }, name: "Contains")
        }
    }

    /// The publisher of ``Publisher/contains(where:)``: whether the upstream sends a value that
    /// satisfies a predicate.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// `true` if such a value was found.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The predicate a value must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether `upstream` sends a value satisfying `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The predicate a value must satisfy.
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
            upstream.subscribe(subscriber, reducing: SearchReduction.contains(where: predicate), name: "ContainsWhere")
        }
    }

    /// The publisher of ``Publisher/tryContains(where:)``: whether the upstream sends a value
    /// that satisfies a throwing predicate.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// `true` if such a value was found.
        public typealias Output = Bool
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The throwing predicate a value must satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether `upstream` sends a value satisfying `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The throwing predicate a value must satisfy.
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
            upstream.subscribe(
                subscriber, reducing: SearchReduction.contains(where: predicate), name: "TryContainsWhere")
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

// MARK: - Reduction

extension SearchReduction where Output == Bool {
    /// `contains(where:)`'s search: `true` at the first value that satisfies `predicate`,
    /// `false` if the upstream finishes without one.
    @inlinable
    static func contains(where predicate: @escaping (Input) throws -> Bool) -> Self {
        Self(predicate: predicate, stopsAt: true, found: { _ in true }, notFound: false)
    }
}
