// Engine: Engines/ReducingSubscription.swift.

// MARK: - count

extension Publisher {
    /// Counts the upstream's values, and sends the count when the upstream finishes.
    ///
    /// Nothing goes downstream while the upstream is running. When it finishes, the number of
    /// values it sent goes down, then `.finished`; an upstream without values gives `0`.
    ///
    /// <!-- marble count: $0.count() -->
    /// ```text
    /// upstream: -a-b-c-|
    ///           count()
    /// output:   -------[3|]
    /// ```
    ///
    /// ![Marble diagram of count](marble-count)
    ///
    /// ```swift
    /// let c = (0...10).publisher.count().sink { print($0) }
    /// // Prints: 11
    /// ```
    ///
    /// - Returns: A publisher that sends the number of the upstream's values when the upstream
    ///   finishes.
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the count waits
    ///   until the downstream has asked for a value ([S1]). `request(.none)` is accepted and does
    ///   nothing ([S9]), as in Combine.
    /// - Completion: the count and `.finished` after the upstream finishes, once the downstream
    ///   has asked for a value ([S5]); an upstream failure is passed on at once, without a count.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Threading: the count goes out on the thread that completes the upstream, or on the
    ///   thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.Count`) hold the operators' parameters; each one's
// `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/count()``: the number of values, sent when the upstream
    /// finishes.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The number of values.
        public typealias Output = Int
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are counted.
        public let upstream: Upstream

        /// Creates a publisher that counts `upstream`'s values.
        ///
        /// - Parameter upstream: The publisher whose values are counted.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the count.
        ///
        /// - Parameter subscriber: The subscriber that receives the count and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: CountReduction(), name: "Count")
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

// MARK: - Reduction

/// The number of values seen by `count()`.
@usableFromInline
struct CountReduction<Input>: Reduction {
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable
    mutating func reduce(_ input: Input) -> ReductionStep<Int> {
        count += 1
        return .consumed
    }

    @inlinable
    mutating func result() -> Int? { count }
}
