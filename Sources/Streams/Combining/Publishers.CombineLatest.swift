// MARK: - combineLatest

// The types for three and four publishers (`CombineLatest3`, `CombineLatest4` and their latest
// values) are in Publishers.CombineLatest.generated.swift, made by Scripts/generate-arities from
// Scripts/templates/Publishers.CombineLatest.generated.swift.template.

extension Publisher {
    /// Sends a tuple of the latest value of this publisher and of another whenever either sends
    /// a value, once both have sent one.
    ///
    /// CombineLatest remembers the latest value of each upstream. Nothing goes out until each
    /// has sent at least one; from then on, every value from either upstream sends the pair of
    /// latest values. Use it to keep something up to date with several inputs (a form that
    /// depends on two fields, say); to pair values one to one, use `zip(_:)`.
    ///
    /// <!-- marble combineLatest: $0[0].combineLatest($0[1]).map { "(\($0), \($1))" } -->
    /// ```text
    /// self:   -1---2-3---|
    /// other:  ---a-----b-|
    ///         combineLatest(other)
    /// output: ---w-x-y-z-|      (w = (1, a), x = (2, a), y = (3, a), z = (3, b))
    /// ```
    ///
    /// ![Marble diagram of combineLatest](marble-combineLatest)
    ///
    /// ```swift
    /// let width = PassthroughSubject<Int, Never>()
    /// let height = PassthroughSubject<Int, Never>()
    /// let c = width.combineLatest(height).sink { print($0) }
    /// width.send(1)
    /// width.send(2)
    /// height.send(10)
    /// width.send(3)
    /// // Prints: (2, 10)
    /// //         (3, 10)
    /// ```
    ///
    /// - Demand: each of the downstream's requests, and demand it returns from `receive(_:)`,
    ///   is passed to every upstream. A tuple goes out only against demand (S1): when a value
    ///   arrives while the downstream has no demand, its tuple is dropped, but the value is
    ///   remembered, so the next tuple sent has it. Asking for `.none` does nothing and is not
    ///   passed on, as in Combine (S9).
    /// - Completion: `.finished` once every upstream has finished (if one finishes without ever
    ///   sending a value, nothing is ever sent, and the stream still waits for the others). The
    ///   first failure cancels the other upstreams and goes down at once. What an upstream sends
    ///   before its subscription or after its end is ignored, and a second subscription is
    ///   cancelled (S2).
    /// - Cancellation: cancels every upstream and lets go of the downstream and the latest
    ///   values (S7).
    /// - Threading: the upstreams may send from several threads at once; the downstream is
    ///   called one signal at a time (S3), by the thread whose value completes a tuple or the one
    ///   already delivering.
    /// - Combine compatibility: as Combine, which also drops a tuple that finds no demand.
    ///   Combine returns the demand that the downstream returns only to the upstream that sent
    ///   the value, so the other upstreams can stall; here every upstream gets it. The
    ///   downstream has its subscription before the upstreams are subscribed.
    /// - Complexity: O(1) per value; the tuple copies the latest value of each upstream.
    @inlinable
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Sends what a closure makes of the latest values of this publisher and of another,
    /// whenever either sends a value, once both have sent one.
    ///
    /// The same as `combineLatest(_:)` followed by `map`.
    ///
    /// <!-- marble combineLatest-transform: $0[0].ints.combineLatest($0[1].ints) { $0 * $1 } -->
    /// ```text
    /// self:   -1---2---|
    /// other:  ---3---4-|
    ///         combineLatest(other) { $0 * $1 }
    /// output: ---a-b-c-|      (a = 3, b = 6, c = 8)
    /// ```
    ///
    /// ![Marble diagram of combineLatest-transform](marble-combineLatest-transform)
    ///
    /// ```swift
    /// let width = PassthroughSubject<Int, Never>()
    /// let height = PassthroughSubject<Int, Never>()
    /// let c = width.combineLatest(height) { $0 * $1 }.sink { print($0) }
    /// width.send(2)
    /// height.send(5)
    /// width.send(3)
    /// // Prints: 10
    /// //         15
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`; `transform` runs
    ///   on the thread that delivers.
    /// - Combine compatibility: as Combine (a `Publishers.Map` of a `Publishers.CombineLatest`).
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        Publishers.Map(upstream: Publishers.CombineLatest(self, other)) { transform($0.0, $0.1) }
    }

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
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`.
    /// - Combine compatibility: as `combineLatest(_:)`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q> where P.Failure == Failure, Q.Failure == Failure {
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
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`.
    /// - Combine compatibility: as `combineLatest(_:)`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
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

// MARK: - Publishers

extension Publishers {
    /// The publisher of `combineLatest(_:)`: the latest values of two publishers, whenever
    /// either sends one.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to combine.
        public let a: A
        /// The second publisher to combine.
        public let b: B

        /// Creates a publisher that combines the latest values of `a` and `b`.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = LatestRules<Latest2<A.Output, B.Output>>
            let combiner = CombiningSubscription<S, Rules>(downstream: subscriber, upstreamCount: 2)
            combiner.start()
            guard combiner.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(combiner, index: 0) { $0.a = $1 })
            guard combiner.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(combiner, index: 1) { $0.b = $1 })
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

// MARK: - Rules

/// The latest value of each upstream of a combineLatest, typed: the only part of the
/// combineLatest state machine that depends on the arity.
@usableFromInline
protocol LatestValues {
    /// The tuple of the latest values.
    associatedtype Output
    /// No values yet.
    init()
    /// The latest values, once every upstream has sent one.
    var combination: Output? { get }
}

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

/// What a combineLatest (`CombineLatest`, `CombineLatest3`, `CombineLatest4`) does with its
/// upstreams' values.
///
/// Each value replaces its upstream's latest in `storage`. Once every upstream has sent one,
/// each value makes a tuple, paid for from the downstream's demand, or dropped when there is
/// none. The downstream's demand, requested or returned, is passed to every upstream as it is.
@usableFromInline
struct LatestRules<Storage: LatestValues>: StoringRules {
    @usableFromInline var storage = Storage()

    @inlinable static var name: StaticString { "CombineLatest" }

    @inlinable init() {}

    @inlinable
    mutating func valueStored(at index: Int, _ core: inout CombiningCore<Storage.Output>) -> Storage.Output? {
        guard core.demand != .none, let tuple = storage.combination else { return nil }
        core.demand -= 1
        return tuple
    }

    @inlinable
    func initialDemand(for index: Int, _ core: CombiningCore<Storage.Output>) -> Subscribers.Demand {
        core.requested
    }

    @inlinable
    mutating func demandDidGrow(by added: Subscribers.Demand, _ core: inout CombiningCore<Storage.Output>) {
        core.requestFromEveryUpstream(added)
    }

    @inlinable
    mutating func upstreamFinished(at index: Int, _ core: inout CombiningCore<Storage.Output>) {
        if core.finishedCount == core.upstreamCount { core.end(Subscribers.Completion<Never>.finished) }
    }
}
