// Engine: Engines/ReducingSubscription.swift.

// MARK: - min, max

extension Publisher where Output: Comparable {
    /// Sends the smallest of the upstream's values when the upstream finishes.
    ///
    /// Nothing goes downstream while the upstream is running. When it finishes, the smallest
    /// value goes down (the first of equal ones), then `.finished`; an upstream without values
    /// gives only `.finished`.
    ///
    /// <!-- marble min: $0.ints.min() -->
    /// ```text
    /// upstream: -3-1-2-|
    ///           min()
    /// output:   -------[1|]
    /// ```
    ///
    /// ![Marble diagram of min](marble-min)
    ///
    /// ```swift
    /// let c = [-1, 0, 10, 5].publisher.min().sink { print($0) }
    /// // Prints: -1
    /// ```
    ///
    /// - Returns: A publisher that sends the upstream's smallest value, if any, when the upstream
    ///   finishes.
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the value waits
    ///   until the downstream has asked for one ([S1]). `request(.none)` is accepted and does
    ///   nothing ([S9]), as in Combine.
    /// - Completion: the value (if any) and `.finished` after the upstream finishes, once the
    ///   downstream has asked for a value: an empty upstream's bare `.finished` waits for a
    ///   request too, as in Combine ([S5]). An upstream failure is passed on at once.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Threading: the value goes out on the thread that completes the upstream, or on the
    ///   thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine. (Combine's documentation says the upstream is asked
    ///   only after the first request; Combine itself, like Streams, asks at once.)
    /// - Complexity: O(1) per value.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Sends the largest of the upstream's values when the upstream finishes.
    ///
    /// Nothing goes downstream while the upstream is running. When it finishes, the largest
    /// value goes down (the first of equal ones), then `.finished`; an upstream without values
    /// gives only `.finished`.
    ///
    /// <!-- marble max: $0.ints.max() -->
    /// ```text
    /// upstream: -1-3-2-|
    ///           max()
    /// output:   -------[3|]
    /// ```
    ///
    /// ![Marble diagram of max](marble-max)
    ///
    /// ```swift
    /// let c = [0, 10, 5].publisher.max().sink { print($0) }
    /// // Prints: 10
    /// ```
    ///
    /// - Returns: A publisher that sends the upstream's largest value, if any, when the upstream
    ///   finishes.
    /// - Demand, completion, cancellation: as ``min()``.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Sends the smallest of the upstream's values, as ordered by a closure, when the upstream
    /// finishes.
    ///
    /// `areInIncreasingOrder(a, b)` answers whether `a` comes before `b`, as for
    /// `Sequence.min(by:)`. Use it for values that are not `Comparable`, or to order by one of
    /// their properties. Of equal values, the first is sent.
    ///
    /// <!-- marble minBy: $0.min { $0.count < $1.count } -->
    /// ```text
    /// upstream: -a-b-c-|      (a = "pear", b = "fig", c = "kiwi")
    ///           min { $0.count < $1.count }
    /// output:   -------[b|]
    /// ```
    ///
    /// ![Marble diagram of minBy](marble-minBy)
    ///
    /// ```swift
    /// let c = ["pear", "fig", "kiwi"].publisher
    ///     .min { $0.count < $1.count }
    ///     .sink { print($0) }
    /// // Prints: fig
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that takes two values and returns whether the
    ///   first comes before the second.
    /// - Returns: A publisher that sends the upstream's smallest value by `areInIncreasingOrder`,
    ///   if any, when the upstream finishes.
    /// - Demand, completion, cancellation: as ``Publisher/min()``.
    /// - Combine compatibility: as Combine: the ``Publishers/Comparison`` it returns keeps the
    ///   closure with its arguments swapped, because the type itself keeps the greatest value.
    /// - Complexity: O(1) per value beyond the closure.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Sends the largest of the upstream's values, as ordered by a closure, when the upstream
    /// finishes.
    ///
    /// `areInIncreasingOrder(a, b)` answers whether `a` comes before `b`, as for
    /// `Sequence.max(by:)`. Of equal values, the first is sent.
    ///
    /// <!-- marble maxBy: $0.max { $0.count < $1.count } -->
    /// ```text
    /// upstream: -a-b-c-|      (a = "fig", b = "pear", c = "kiwi")
    ///           max { $0.count < $1.count }
    /// output:   -------[b|]
    /// ```
    ///
    /// ![Marble diagram of maxBy](marble-maxBy)
    ///
    /// ```swift
    /// let c = ["fig", "pear", "kiwi"].publisher
    ///     .max { $0.count < $1.count }
    ///     .sink { print($0) }
    /// // Prints: pear
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that takes two values and returns whether the
    ///   first comes before the second.
    /// - Returns: A publisher that sends the upstream's largest value by `areInIncreasingOrder`, if
    ///   any, when the upstream finishes.
    /// - Demand, completion, cancellation: as ``Publisher/min()``.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the closure.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Sends the smallest of the upstream's values, as ordered by a throwing closure, when the
    /// upstream finishes; a thrown error fails the stream.
    ///
    /// It works like ``min(by:)``. When the closure throws, `tryMin(by:)` cancels the upstream
    /// and fails with the error at once ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryMinBy: $0.tryMin { try failOnX($0) < failOnX($1) } -->
    /// ```text
    /// upstream: -1-2-x-3-|     (the closure throws for x)
    ///           tryMin { ... }
    /// output:   -----[;^]
    /// ```
    ///
    /// ![Marble diagram of tryMinBy](marble-tryMinBy)
    ///
    /// ```swift
    /// struct Odd: Error {}
    /// let c = [4, 2, 7, 6].publisher
    ///     .tryMin { a, b in
    ///         guard a.isMultiple(of: 2), b.isMultiple(of: 2) else { throw Odd() }
    ///         return a < b
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Odd())
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that takes two values and returns whether the
    ///   first comes before the second; it may throw to fail the stream.
    /// - Returns: A publisher that sends the upstream's smallest value by `areInIncreasingOrder`,
    ///   if any, when the upstream finishes, or fails with the error the closure throws.
    /// - Demand: as ``Publisher/min()``.
    /// - Completion: the value (if any) and `.finished`, or a failure with the thrown error
    ///   (upstream cancelled) or the upstream's error.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the closure.
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Sends the largest of the upstream's values, as ordered by a throwing closure, when the
    /// upstream finishes; a thrown error fails the stream.
    ///
    /// It works like ``max(by:)``. When the closure throws, `tryMax(by:)` cancels the upstream
    /// and fails with the error at once ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryMaxBy: $0.tryMax { try failOnX($0) < failOnX($1) } -->
    /// ```text
    /// upstream: -1-2-x-3-|     (the closure throws for x)
    ///           tryMax { ... }
    /// output:   -----[;^]
    /// ```
    ///
    /// ![Marble diagram of tryMaxBy](marble-tryMaxBy)
    ///
    /// ```swift
    /// struct Odd: Error {}
    /// let c = [2, 8, 4].publisher
    ///     .tryMax { a, b in
    ///         guard a.isMultiple(of: 2), b.isMultiple(of: 2) else { throw Odd() }
    ///         return a < b
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 8
    /// //         finished
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that takes two values and returns whether the
    ///   first comes before the second; it may throw to fail the stream.
    /// - Returns: A publisher that sends the upstream's largest value by `areInIncreasingOrder`, if
    ///   any, when the upstream finishes, or fails with the error the closure throws.
    /// - Demand: as ``Publisher/min()``.
    /// - Completion: the value (if any) and `.finished`, or a failure with the thrown error
    ///   (upstream cancelled) or the upstream's error.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the closure.
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/min()``, ``Publisher/max()``, ``Publisher/min(by:)`` and
    /// ``Publisher/max(by:)``: the greatest value in an order, sent when the upstream finishes.
    ///
    /// It keeps the *greatest* value by ``areInIncreasingOrder``, the first of equal ones; `min`
    /// makes one with the order reversed.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are compared.
        public let upstream: Upstream
        /// Whether the first value comes before the second; the last value in this order is sent.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that sends the greatest of `upstream`'s values by
        /// `areInIncreasingOrder`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are compared.
        ///   - areInIncreasingOrder: A closure that takes two values and returns whether the first
        ///     comes before the second; the greatest value by this order is sent.
        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes `subscriber` to the greatest value.
        ///
        /// - Parameter subscriber: The subscriber that receives the greatest value, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                subscriber, reducing: ComparisonReduction(areInIncreasingOrder: areInIncreasingOrder),
                name: "Comparison")
        }
    }

    /// The publisher of ``Publisher/tryMin(by:)`` and ``Publisher/tryMax(by:)``: the greatest
    /// value in an order given by a throwing closure, sent when the upstream finishes.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher whose values are compared.
        public let upstream: Upstream
        /// Whether the first value comes before the second; may throw. The last value in this
        /// order is sent.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that sends the greatest of `upstream`'s values by
        /// `areInIncreasingOrder`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are compared.
        ///   - areInIncreasingOrder: A throwing closure that takes two values and returns whether
        ///     the first comes before the second; the greatest value by this order is sent.
        @inlinable
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes `subscriber` to the greatest value.
        ///
        /// - Parameter subscriber: The subscriber that receives the greatest value, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                subscriber, reducing: ComparisonReduction(areInIncreasingOrder: areInIncreasingOrder),
                name: "TryComparison")
        }
    }
}

// MARK: - Reduction

/// The greatest value so far, for `Comparison` and `TryComparison`.
@usableFromInline
struct ComparisonReduction<Input>: Reduction {
    @usableFromInline var greatest: Input?
    @usableFromInline let areInIncreasingOrder: (Input, Input) throws -> Bool

    @inlinable
    init(areInIncreasingOrder: @escaping (Input, Input) throws -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    @inlinable
    mutating func reduce(_ input: Input) throws -> ReductionStep<Input> {
        // Only a strictly greater value replaces the one kept: of equal values the first stays.
        if let greatest, try !areInIncreasingOrder(greatest, input) { return .consumed }
        greatest = input
        return .consumed
    }

    @inlinable
    mutating func result() -> Input? { greatest }
}
