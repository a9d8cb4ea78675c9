// Engine: Engines/ReducingSubscription.swift.

// MARK: - last

extension Publisher {
    /// Sends only the upstream's last value, when the upstream finishes.
    ///
    /// Which value is last is only known once the upstream has finished, so nothing goes
    /// downstream until then. Then the last value goes down, then `.finished`; an upstream
    /// without values gives only `.finished`.
    ///
    /// <!-- marble last: $0.last() -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           last()
    /// output:   -------[3|]
    /// ```
    ///
    /// ![Marble diagram of last](marble-last)
    ///
    /// ```swift
    /// let c = (1...5).publisher.last().sink { print($0) }
    /// // Prints: 5
    /// ```
    ///
    /// - Returns: A publisher that sends the upstream's last value, if any, once the upstream has
    ///   finished.
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the value waits
    ///   until the downstream has asked for one ([S1]). `request(.none)` is accepted and does
    ///   nothing ([S9]), as in Combine.
    /// - Completion: the value (if any) and `.finished` after the upstream finishes, once the
    ///   downstream has asked for a value: an empty upstream's bare `.finished` waits for a
    ///   request too, as in Combine ([S5]). An upstream failure is passed on at once.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Threading: the value goes out on the thread that completes the upstream, or on the
    ///   thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Sends only the last of the upstream's values that satisfy a predicate, when the upstream
    /// finishes.
    ///
    /// Each value that satisfies `predicate` replaces the one kept before; when the upstream
    /// finishes, the one kept goes down, then `.finished`. If no value satisfied the predicate,
    /// only `.finished` goes down.
    ///
    /// <!-- marble lastWhere: $0.ints.last { $0 < 3 } -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           last { $0 < 3 }
    /// output:   -------[2|]
    /// ```
    ///
    /// ![Marble diagram of lastWhere](marble-lastWhere)
    ///
    /// ```swift
    /// let c = (1...9).publisher.last { $0.isMultiple(of: 4) }.sink { print($0) }
    /// // Prints: 8
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it may be the one
    ///   sent.
    /// - Returns: A publisher that sends the last value that satisfies `predicate`, if any, once
    ///   the upstream has finished.
    /// - Demand, completion, cancellation: as ``last()``.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Sends only the last of the upstream's values that satisfy a throwing predicate, when the
    /// upstream finishes; a thrown error fails the stream.
    ///
    /// It works like ``last(where:)``. When the predicate throws, `tryLast(where:)` cancels the
    /// upstream and fails with the error at once ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryLastWhere: $0.tryLast { Int(try failOnX($0))! < 3 } -->
    /// ```text
    /// upstream: -1-2-x-3-|     (the predicate throws for x)
    ///           tryLast { ... }
    /// output:   -----[;^]
    /// ```
    ///
    /// ![Marble diagram of tryLastWhere](marble-tryLastWhere)
    ///
    /// ```swift
    /// struct Negative: Error {}
    /// let c = [1, 2, -3, 4].publisher
    ///     .tryLast { n in
    ///         guard n >= 0 else { throw Negative() }
    ///         return n.isMultiple(of: 2)
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Negative())
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it may be the one
    ///   sent; it may throw to fail the stream.
    /// - Returns: A publisher that sends the last value that satisfies `predicate`, if any, once
    ///   the upstream has finished, or fails with the error `predicate` throws.
    /// - Demand: as ``last()``.
    /// - Completion: the value (if any) and `.finished`, or a failure with the thrown error
    ///   (upstream cancelled) or the upstream's error.
    /// - Cancellation: cancels the upstream ([S7]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.Last`, `Publishers.LastWhere` and `Publishers.TryLastWhere`)
// hold the operators' parameters; each one's `receive(subscriber:)` subscribes through the logic
// below.

extension Publishers {
    /// The publisher of ``Publisher/last()``: the last value, sent when the upstream finishes.
    public struct Last<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose last value is sent.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s last value.
        ///
        /// - Parameter upstream: The publisher whose last value is sent.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the last value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: LastReduction(), name: "Last")
        }
    }

    /// The publisher of ``Publisher/last(where:)``: the last value that satisfies a predicate,
    /// sent when the upstream finishes.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The predicate the value must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of the last value of `upstream` that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The predicate the value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the last matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: LastWhereReduction(predicate: predicate), name: "LastWhere")
        }
    }

    /// The publisher of ``Publisher/tryLast(where:)``: the last value that satisfies a throwing
    /// predicate, sent when the upstream finishes.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The throwing predicate the value must satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of the last value of `upstream` that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The throwing predicate the value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the last matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: LastWhereReduction(predicate: predicate), name: "TryLastWhere")
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

// MARK: - Reductions

/// The last value so far.
@usableFromInline
struct LastReduction<Input>: Reduction {
    @usableFromInline var last: Input?

    @inlinable init() {}

    @inlinable
    mutating func reduce(_ input: Input) -> ReductionStep<Input> {
        last = input
        return .consumed
    }

    @inlinable
    mutating func result() -> Input? { last }
}

/// The last value so far that satisfies the predicate.
@usableFromInline
struct LastWhereReduction<Input>: Reduction {
    @usableFromInline var last: Input?
    @usableFromInline let predicate: (Input) throws -> Bool

    @inlinable
    init(predicate: @escaping (Input) throws -> Bool) {
        self.predicate = predicate
    }

    @inlinable
    mutating func reduce(_ input: Input) throws -> ReductionStep<Input> {
        if try predicate(input) { last = input }
        return .consumed
    }

    @inlinable
    mutating func result() -> Input? { last }
}
