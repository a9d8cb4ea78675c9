// Engine: Engines/ReducingSubscription.swift.

// MARK: - collect

extension Publisher {
    /// Collects all of the upstream's values into one array, and sends it when the upstream
    /// finishes.
    ///
    /// Nothing goes downstream while the upstream is running. When it finishes, the array of
    /// everything it sent, in order, goes down, then `.finished`; an upstream without values gives
    /// an empty array. Every value is kept until then, so a long upstream costs memory.
    ///
    /// <!-- marble collect: $0.ints.collect() -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           collect()
    /// output:   -------[a|]     (a = [1, 2, 3])
    /// ```
    ///
    /// ![Marble diagram of collect](marble-collect)
    ///
    /// ```swift
    /// let c = (1...4).publisher.collect().sink { print($0) }
    /// // Prints: [1, 2, 3, 4]
    /// ```
    ///
    /// - Returns: A publisher that sends one array of all the upstream's values when the upstream
    ///   finishes.
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the array waits
    ///   until the downstream has asked for a value ([S1]). `request(.none)` is accepted and does
    ///   nothing ([S9]), as in Combine.
    /// - Completion: the array and `.finished` after the upstream finishes, once the downstream
    ///   has asked for a value ([S5]); an upstream failure is passed on at once and the values
    ///   collected so far are dropped.
    /// - Cancellation: cancels the upstream; nothing is sent afterwards ([S6], [S7]).
    /// - Threading: the array goes out on the thread that completes the upstream, or on the
    ///   thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: amortized O(1) per value; O(n) memory.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }

    /// Collects the upstream's values into arrays of `count`, sending each array as soon as it is
    /// full, and the rest when the upstream finishes.
    ///
    /// The values are sent in order, `count` to an array. When the upstream finishes, the values
    /// of an array that is not full yet are sent as a shorter array, then `.finished`. When the
    /// upstream fails, those values are dropped and the failure is passed on.
    ///
    /// <!-- marble collectCount: $0.ints.collect(2) -->
    /// ```text
    /// upstream: -1-2-3-4-5-|
    ///           collect(2)
    /// output:   ---a---b---[c|]     (a = [1, 2], b = [3, 4], c = [5])
    /// ```
    ///
    /// ![Marble diagram of collectCount](marble-collectCount)
    ///
    /// ```swift
    /// let c = (1...5).publisher.collect(2).sink { print($0) }
    /// // Prints: [1, 2]
    /// //         [3, 4]
    /// //         [5]
    /// ```
    ///
    /// - Parameter count: The most values in one array; at least 1.
    /// - Returns: A publisher that sends the upstream's values in arrays of `count`, and the last
    ///   ones in a shorter array when the upstream finishes.
    /// - Demand: a request for `n` arrays asks the upstream for `n * count` values, and demand
    ///   returned from the downstream's `receive(_:)` is multiplied the same way. So the upstream
    ///   never sends a value that no array has been asked for ([S1]). `request(.none)` is an API
    ///   violation ([S9]), as Combine traps.
    /// - Completion: the last, shorter array (if any) and `.finished`, at once (the upstream only
    ///   sent those values because another array was asked for), as in Combine; a failure is
    ///   passed on at once, without the values of the unfinished array.
    /// - Cancellation: cancels the upstream; nothing is sent afterwards ([S6], [S7]).
    /// - Threading: arrays go out on the upstream's thread.
    /// - Combine compatibility: as Combine. A `count` below 1 stops the program.
    /// - Complexity: amortized O(1) per value; O(`count`) memory.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/collect()``: all values in one array, sent when the upstream
    /// finishes.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// An array of the upstream's values.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream

        /// Creates a publisher that collects `upstream`'s values.
        ///
        /// - Parameter upstream: The publisher whose values are collected.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the array of values.
        ///
        /// - Parameter subscriber: The subscriber that receives the array and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: CollectReduction(), name: "Collect")
        }
    }

    /// The publisher of ``Publisher/collect(_:)``: the values in arrays of a given size.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// An array of at most ``count`` of the upstream's values.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream
        /// The most values in one array.
        public let count: Int

        /// Creates a publisher that collects `upstream`'s values in arrays of `count`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are collected.
        ///   - count: The most values in one array; at least 1.
        /// - Precondition: `count` is at least 1.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "collect(_:) needs a count of at least 1, not \(count)")
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber` to the arrays.
        ///
        /// - Parameter subscriber: The subscriber that receives the arrays and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: CollectByCountReduction(count: count), name: "CollectByCount")
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}
extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

// MARK: - collect(): reduction

/// The values collected so far by `collect()`.
@usableFromInline
struct CollectReduction<Input>: Reduction {
    @usableFromInline var values: [Input] = []

    @inlinable init() {}

    @inlinable
    mutating func reduce(_ input: Input) -> ReductionStep<[Input]> {
        values.append(input)
        return .consumed
    }

    @inlinable
    mutating func result() -> [Input]? {
        // Hands over the only reference, so the downstream can change the array without a copy.
        defer { values = [] }
        return values
    }
}

// MARK: - collect(_:): reduction

/// The unfinished array of `collect(_:)`: full arrays are sent on as they fill up, and requests
/// reach the upstream multiplied by `count`.
@usableFromInline
struct CollectByCountReduction<Input>: Reduction {
    @usableFromInline let count: Int
    @usableFromInline var values: [Input] = []

    @inlinable
    init(count: Int) {
        self.count = count
    }

    @inlinable var demandFactor: Int? { count }
    /// Combine traps for `request(.none)` here ([S9]).
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable var rejectsRequestForNone: Bool { true }

    @inlinable
    mutating func reduce(_ input: Input) -> ReductionStep<[Input]> {
        values.append(input)
        guard values.count == count else { return .consumed }
        defer { values = [] }
        return .send(values)
    }

    @inlinable
    mutating func result() -> [Input]? {
        // The upstream only sent these values because another array was asked for (`count`
        // values per array), so the downstream is waiting for it.
        guard !values.isEmpty else { return nil }
        defer { values = [] }
        return values
    }
}
