// Engine: Engines/ReducingSubscription.swift.

// MARK: - reduce

extension Publisher {
    /// Combines all of the upstream's values into one, and sends it when the upstream finishes.
    ///
    /// `reduce` starts from `initialResult` and calls `nextPartialResult` with the result so far
    /// and each new value, the way `Sequence.reduce` does. Nothing goes downstream while the
    /// upstream is running; when it finishes, the final result is sent, then `.finished`. An
    /// upstream that finishes without values gives `initialResult`.
    ///
    /// <!-- marble reduce: $0.ints.reduce(0, +) -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           reduce(0, +)
    /// output:   -------[6|]
    /// ```
    ///
    /// ![Marble diagram of reduce](marble-reduce)
    ///
    /// ```swift
    /// let c = [1, 2, 3, 4].publisher.reduce(0, +).sink { print($0) }
    /// // Prints: 10
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The result to start from; also the result of an upstream without values.
    ///   - nextPartialResult: A closure that takes the result so far and the next value, and
    ///     returns the new result.
    /// - Returns: A publisher that sends the final result when the upstream finishes.
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the result waits
    ///   until the downstream has asked for a value ([S1]). `request(.none)` is accepted and does
    ///   nothing ([S9]), as in Combine.
    /// - Completion: the result and `.finished` after the upstream finishes, once the downstream
    ///   has asked for a value ([S5]); an upstream failure is passed on at once, without a result.
    /// - Cancellation: cancels the upstream; nothing is sent afterwards ([S6], [S7]).
    /// - Threading: the result goes out on the thread that completes the upstream, or on the
    ///   thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond `nextPartialResult`.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Combines all of the upstream's values into one with a throwing closure, and sends it when
    /// the upstream finishes; a thrown error fails the stream.
    ///
    /// It works like ``reduce(_:_:)``. When `nextPartialResult` throws, `tryReduce` cancels the
    /// upstream and fails with the error at once ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryReduce: $0.tryReduce(0) { $0 + Int(try failOnX($1))! } -->
    /// ```text
    /// upstream: -1-2-x-3-|     (the closure throws for x)
    ///           tryReduce(0) { ... }
    /// output:   -----[;^]
    /// ```
    ///
    /// ![Marble diagram of tryReduce](marble-tryReduce)
    ///
    /// ```swift
    /// struct Negative: Error {}
    /// let c = [1, 2, -3, 4].publisher
    ///     .tryReduce(0) { sum, n in
    ///         guard n >= 0 else { throw Negative() }
    ///         return sum + n
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Negative())
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The result to start from; also the result of an upstream without values.
    ///   - nextPartialResult: A closure that takes the result so far and the next value, and
    ///     returns the new result; it may throw to fail the stream.
    /// - Returns: A publisher that sends the final result when the upstream finishes, or fails with
    ///   the error `nextPartialResult` throws.
    /// - Demand: as ``reduce(_:_:)``.
    /// - Completion: the result and `.finished`, or a failure with the thrown error (upstream
    ///   cancelled) or the upstream's error.
    /// - Cancellation: cancels the upstream; nothing is sent afterwards ([S6], [S7]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond `nextPartialResult`.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.Reduce` and `Publishers.TryReduce`) hold the operators'
// parameters; each one's `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/reduce(_:_:)``: all values combined into one, sent when the
    /// upstream finishes.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are combined.
        public let upstream: Upstream
        /// The result to start from, and the result of an upstream without values.
        public let initial: Output
        /// Combines the result so far with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that combines `upstream`'s values, starting from `initial`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are combined.
        ///   - initial: The result to start from, and the result of an upstream without values.
        ///   - nextPartialResult: Combines the result so far with the next value.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` to the combined result.
        ///
        /// - Parameter subscriber: The subscriber that receives the combined result and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                subscriber, reducing: ReduceReduction(initial: initial, nextPartialResult: nextPartialResult),
                name: "Reduce")
        }
    }

    /// The publisher of ``Publisher/tryReduce(_:_:)``: all values combined into one by a throwing
    /// closure, sent when the upstream finishes.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher whose values are combined.
        public let upstream: Upstream
        /// The result to start from, and the result of an upstream without values.
        public let initial: Output
        /// Combines the result so far with the next value; may throw.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that combines `upstream`'s values, starting from `initial`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are combined.
        ///   - initial: The result to start from, and the result of an upstream without values.
        ///   - nextPartialResult: Combines the result so far with the next value; may throw.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` to the combined result.
        ///
        /// - Parameter subscriber: The subscriber that receives the combined result and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let reduction = ReduceReduction(initial: initial, nextPartialResult: nextPartialResult)
            upstream.subscribe(subscriber, reducing: reduction, name: "TryReduce")
        }
    }
}

// MARK: - Reduction

/// The running result of `reduce` and `tryReduce` (a non-throwing closure is a throwing one that
/// never throws).
@usableFromInline
struct ReduceReduction<Input, Output>: Reduction {
    @usableFromInline var partialResult: Output
    @usableFromInline let nextPartialResult: (Output, Input) throws -> Output

    @inlinable
    init(initial: Output, nextPartialResult: @escaping (Output, Input) throws -> Output) {
        self.partialResult = initial
        self.nextPartialResult = nextPartialResult
    }

    @inlinable
    mutating func reduce(_ input: Input) throws -> ReductionStep<Output> {
        partialResult = try nextPartialResult(partialResult, input)
        return .consumed
    }

    @inlinable
    mutating func result() -> Output? { partialResult }
}
