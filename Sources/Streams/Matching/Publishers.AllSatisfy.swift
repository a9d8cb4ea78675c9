// MARK: - allSatisfy

extension Publisher {
    /// Sends `false` as soon as the upstream sends a value that fails a predicate, or `true` when
    /// it finishes without one.
    ///
    /// The answer is known at the first value that fails `predicate`: `allSatisfy` then cancels
    /// the upstream (S15) and sends `false`, then `.finished`. If the upstream finishes first, it
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
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the answer waits
    ///   until the downstream has asked for a value (S1). `request(.none)` is accepted and does
    ///   nothing (S9), as in Combine.
    /// - Completion: the answer and `.finished`, once the downstream has asked for a value (S5);
    ///   an upstream failure before the answer is passed on at once.
    /// - Cancellation: cancels the upstream (S7); it also does so itself at the first value that
    ///   fails the predicate (S15).
    /// - Threading: the answer goes out on the thread that delivers the deciding value or the
    ///   completion, or on the thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Sends `false` as soon as the upstream sends a value that fails a throwing predicate, or
    /// `true` when it finishes without one; a thrown error fails the stream.
    ///
    /// It works like ``allSatisfy(_:)``. When the predicate throws, `tryAllSatisfy` cancels the
    /// upstream and fails with the error at once (S14). The failure type becomes `any Error`.
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
    /// - Demand: as ``allSatisfy(_:)``.
    /// - Completion: the answer and `.finished`, or a failure with the thrown error (upstream
    ///   cancelled) or the upstream's error.
    /// - Cancellation: cancels the upstream (S7).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value beyond the predicate.
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

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
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the answer.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: AllSatisfyReduction(predicate: predicate), name: "AllSatisfy")
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
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the answer.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == any Error {
            let reduction = AllSatisfyReduction(predicate: predicate)
            upstream.subscribe(subscriber, reducing: reduction, name: "TryAllSatisfy")
        }
    }
}

// MARK: - Reduction

/// `allSatisfy`: `false` at the first value that fails, `true` at the end.
@usableFromInline
struct AllSatisfyReduction<Input>: Reduction {
    @usableFromInline let predicate: (Input) throws -> Bool

    @inlinable
    init(predicate: @escaping (Input) throws -> Bool) {
        self.predicate = predicate
    }

    @inlinable
    mutating func reduce(_ input: Input) throws -> ReductionStep<Bool> {
        try predicate(input) ? .consumed : .finish(false)
    }

    @inlinable
    mutating func result() -> Bool? { true }
}
