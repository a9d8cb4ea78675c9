// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/Publishers.CombineLatest.generated.swift.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// MARK: - combineLatest with three and four publishers

extension Publisher {
    /// Sends a tuple of the latest values of this publisher and of two others whenever any of
    /// them sends a value, once all have sent one.
    ///
    /// <!-- marble combineLatest3: $0[0].combineLatest($0[1], $0[2]).map { "(\($0), \($1), \($2))" } -->
    /// ```text
    /// self:   -1-----2-|
    /// b:      ---a-----|
    /// c:      -----x---|
    ///         combineLatest(b, c)
    /// output: -----p-q-|      (p = (1, a, x), q = (2, a, x))
    /// ```
    ///
    /// ![Marble diagram of combineLatest3](marble-combineLatest3)
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = PassthroughSubject<Int, Never>()
    /// let cancellable = a.combineLatest(b, c).sink { print($0) }
    /// a.send(1)
    /// b.send(2)
    /// c.send(3)
    /// a.send(4)
    /// // Prints: (1, 2, 3)
    /// //         (4, 2, 3)
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: The second publisher to combine, after this one.
    ///   - publisher2: The third publisher to combine.
    /// - Returns: A ``Publishers/CombineLatest3`` that sends a tuple of the three publishers'
    ///   latest values each time one of them sends a value, once all three have sent one.
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`.
    /// - Combine compatibility: as `combineLatest(_:)`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Sends what a closure makes of the latest values of this publisher and of two others,
    /// whenever any of them sends a value, once all have sent one.
    ///
    /// The same as `combineLatest(_:_:)` followed by `map`.
    ///
    /// <!-- marble combineLatest3-transform: $0[0].ints.combineLatest($0[1].ints, $0[2].ints) { $0 + $1 + $2 } -->
    /// ```text
    /// self:   -1-----2-|
    /// b:      ---3-----|
    /// c:      -----5---|
    ///         combineLatest(b, c) { $0 + $1 + $2 }
    /// output: -----p-q-|      (p = 9, q = 10)
    /// ```
    ///
    /// ![Marble diagram of combineLatest3-transform](marble-combineLatest3-transform)
    ///
    /// ```swift
    /// let c = Just(1).combineLatest(Just(2), [3, 4].publisher) { $0 + $1 + $2 }.sink { print($0) }
    /// // Prints: 6
    /// //         7
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: The second publisher to combine, after this one.
    ///   - publisher2: The third publisher to combine.
    ///   - transform: A closure that takes the latest value of each publisher and returns the value
    ///     to send.
    /// - Returns: A publisher that sends what `transform` returns for the three publishers' latest
    ///   values each time one of them sends a value, once all three have sent one.
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`.
    /// - Combine compatibility: as `combineLatest(_:)`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Map(upstream: Publishers.CombineLatest3(self, publisher1, publisher2)) {
            transform($0.0, $0.1, $0.2)
        }
    }

    /// Sends a tuple of the latest values of this publisher and of three others whenever any of
    /// them sends a value, once all have sent one.
    ///
    /// <!-- marble combineLatest4: $0[0].combineLatest($0[1], $0[2], $0[3]).map { "(\($0), \($1), \($2), \($3))" } -->
    /// ```text
    /// self:   -1------2-|
    /// b:      --a-------|
    /// c:      ---x------|
    /// d:      ----7-----|
    ///         combineLatest(b, c, d)
    /// output: ----p---q-|      (p = (1, a, x, 7), q = (2, a, x, 7))
    /// ```
    ///
    /// ![Marble diagram of combineLatest4](marble-combineLatest4)
    ///
    /// ```swift
    /// let c = Just(1).combineLatest(Just("a"), Just(true), [2.5, 3.5].publisher).sink { print($0) }
    /// // Prints: (1, "a", true, 2.5)
    /// //         (1, "a", true, 3.5)
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: The second publisher to combine, after this one.
    ///   - publisher2: The third publisher to combine.
    ///   - publisher3: The fourth publisher to combine.
    /// - Returns: A ``Publishers/CombineLatest4`` that sends a tuple of the four publishers'
    ///   latest values each time one of them sends a value, once all four have sent one.
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`.
    /// - Combine compatibility: as `combineLatest(_:)`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Sends what a closure makes of the latest values of this publisher and of three others,
    /// whenever any of them sends a value, once all have sent one.
    ///
    /// The same as `combineLatest(_:_:_:)` followed by `map`.
    ///
    /// <!-- marble combineLatest4-transform: $0[0].ints.combineLatest($0[1].ints, $0[2].ints, $0[3].ints) { $0 + $1 + $2 + $3 } -->
    /// ```text
    /// self:   -1------2-|
    /// b:      --1-------|
    /// c:      ---1------|
    /// d:      ----1-----|
    ///         combineLatest(b, c, d) { $0 + $1 + $2 + $3 }
    /// output: ----p---q-|      (p = 4, q = 5)
    /// ```
    ///
    /// ![Marble diagram of combineLatest4-transform](marble-combineLatest4-transform)
    ///
    /// ```swift
    /// let c = Just(1).combineLatest(Just(2), Just(3), [4, 5].publisher) { $0 + $1 + $2 + $3 }
    ///     .sink { print($0) }
    /// // Prints: 10
    /// //         11
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: The second publisher to combine, after this one.
    ///   - publisher2: The third publisher to combine.
    ///   - publisher3: The fourth publisher to combine.
    ///   - transform: A closure that takes the latest value of each publisher and returns the value
    ///     to send.
    /// - Returns: A publisher that sends what `transform` returns for the four publishers' latest
    ///   values each time one of them sends a value, once all four have sent one.
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`.
    /// - Combine compatibility: as `combineLatest(_:)`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Map(upstream: Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)) {
            transform($0.0, $0.1, $0.2, $0.3)
        }
    }
}

// MARK: - Publishers.CombineLatest, CombineLatest3, CombineLatest4

extension Publishers {
    /// The publisher of `combineLatest(_:)`: the latest values of two publishers, whenever
    /// either sends one.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure {
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to combine.
        public let a: A
        /// The second publisher to combine.
        public let b: B

        /// Creates a publisher that combines the latest values of `a` and `b`.
        ///
        /// - Parameters:
        ///   - a: The first publisher to combine.
        ///   - b: The second publisher to combine.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the tuples and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = LatestRules<Latest2<A.Output, B.Output>>
            let combiner = CombiningSubscription<S?, Rules>(downstream: subscriber, upstreamCount: 2)
            combiner.start()
            guard combiner.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(combiner, index: 0) { $0.a = $1 })
            guard combiner.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(combiner, index: 1) { $0.b = $1 })
        }
    }

    /// The publisher of `combineLatest(_:_:)`: the latest values of three publishers, whenever
    /// any of them sends one.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to combine.
        public let a: A
        /// The second publisher to combine.
        public let b: B
        /// The third publisher to combine.
        public let c: C

        /// Creates a publisher that combines the latest values of `a`, `b` and `c`.
        ///
        /// - Parameters:
        ///   - a: The first publisher to combine.
        ///   - b: The second publisher to combine.
        ///   - c: The third publisher to combine.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the tuples and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = LatestRules<Latest3<A.Output, B.Output, C.Output>>
            let combiner = CombiningSubscription<S?, Rules>(downstream: subscriber, upstreamCount: 3)
            combiner.start()
            guard combiner.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(combiner, index: 0) { $0.a = $1 })
            guard combiner.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(combiner, index: 1) { $0.b = $1 })
            guard combiner.isRunning else { return }
            c.receive(subscriber: SlotSide<C.Output, S, Rules>(combiner, index: 2) { $0.c = $1 })
        }
    }

    /// The publisher of `combineLatest(_:_:_:)`: the latest values of four publishers, whenever
    /// any of them sends one.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to combine.
        public let a: A
        /// The second publisher to combine.
        public let b: B
        /// The third publisher to combine.
        public let c: C
        /// The fourth publisher to combine.
        public let d: D

        /// Creates a publisher that combines the latest values of `a`, `b`, `c` and `d`.
        ///
        /// - Parameters:
        ///   - a: The first publisher to combine.
        ///   - b: The second publisher to combine.
        ///   - c: The third publisher to combine.
        ///   - d: The fourth publisher to combine.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the tuples and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = LatestRules<Latest4<A.Output, B.Output, C.Output, D.Output>>
            let combiner = CombiningSubscription<S?, Rules>(downstream: subscriber, upstreamCount: 4)
            combiner.start()
            guard combiner.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(combiner, index: 0) { $0.a = $1 })
            guard combiner.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(combiner, index: 1) { $0.b = $1 })
            guard combiner.isRunning else { return }
            c.receive(subscriber: SlotSide<C.Output, S, Rules>(combiner, index: 2) { $0.c = $1 })
            guard combiner.isRunning else { return }
            d.receive(subscriber: SlotSide<D.Output, S, Rules>(combiner, index: 3) { $0.d = $1 })
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

// MARK: - Storage

/// The latest values of a two-upstream combineLatest.
@usableFromInline
struct Latest2<A, B>: LatestValues {
    @usableFromInline var a: A?
    @usableFromInline var b: B?

    @inlinable init() {}

    @inlinable
    var combination: (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}

/// The latest values of a three-upstream combineLatest.
@usableFromInline
struct Latest3<A, B, C>: LatestValues {
    @usableFromInline var a: A?
    @usableFromInline var b: B?
    @usableFromInline var c: C?

    @inlinable init() {}

    @inlinable
    var combination: (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }
}

/// The latest values of a four-upstream combineLatest.
@usableFromInline
struct Latest4<A, B, C, D>: LatestValues {
    @usableFromInline var a: A?
    @usableFromInline var b: B?
    @usableFromInline var c: C?
    @usableFromInline var d: D?

    @inlinable init() {}

    @inlinable
    var combination: (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }
}
