// Engine: Engines/ReducingSubscription.swift.

// MARK: - first

extension Publisher {
    /// Passes on the first value, then finishes.
    ///
    /// As soon as the first value arrives, `first` cancels the upstream (it needs nothing more
    /// from it), then sends the value and finishes, once the subscriber has asked for a value.
    /// If the upstream completes before sending a value, that completion is passed on and
    /// nothing else.
    ///
    /// <!-- marble first: $0.first() -->
    /// ```text
    /// upstream: -a-b-c-|
    ///           first()
    /// output:   -[;a|]         (; = upstream cancelled)
    /// ```
    ///
    /// ![Marble diagram of first](marble-first)
    ///
    /// ```swift
    /// let c = [-10, 0, 10].publisher.first()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: -10
    /// //         finished
    /// ```
    ///
    /// - Returns: A publisher that sends the upstream's first value, if any, then finishes.
    /// - Demand: asks the upstream for `.unlimited` once the subscriber has its subscription;
    ///   the subscriber's requests are not passed on. The first value is held until the
    ///   subscriber has asked for something, then sent with `.finished` ([S5]). So with
    ///   `CurrentValueSubject(1).first()`, a `send(0)` before the first request still gives 1.
    ///   `request(.none)` is ignored.
    /// - Completion: `.finished` right after the first value; an upstream `.finished` with no
    ///   value waits for a request too ([S5]); a failure is passed on at once.
    /// - Cancellation: cancels the upstream as soon as the first value arrives ([S15]). The
    ///   subscriber gets a subscription of its own (`First` in `print()`): `cancel()` cancels
    ///   the upstream once, or drops a held value; after it, or after the end, requests and
    ///   cancels are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine, including the up-front `.unlimited` and the held
    ///   answer.
    /// - Complexity: O(1) per value.
    ///
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Passes on the first value that satisfies a predicate, then finishes.
    ///
    /// Values that fail `predicate` are dropped. At the first value that passes, the upstream
    /// is cancelled, and the value is sent and the stream finished once the subscriber has
    /// asked for a value. If the upstream completes first, its completion is passed on.
    ///
    /// <!-- marble firstWhere: $0.ints.first { $0.isMultiple(of: 2) } -->
    /// ```text
    /// upstream: -1-3-4-5-|
    ///           first { $0.isMultiple(of: 2) }
    /// output:   -----[;4|]
    /// ```
    ///
    /// ![Marble diagram of firstWhere](marble-firstWhere)
    ///
    /// ```swift
    /// let c = [1, 3, 4, 5, 6].publisher.first { $0.isMultiple(of: 2) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 4
    /// //         finished
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it is the one to
    ///   pass on.
    /// - Returns: A publisher that sends the first value that satisfies `predicate`, if any, then
    ///   finishes.
    /// - Demand: as ``first()``: `.unlimited` up front, and the matching value is held until
    ///   the subscriber has asked for something ([S5]).
    /// - Completion: `.finished` right after the matching value; an upstream `.finished` with
    ///   no match waits for a request too ([S5]); a failure is passed on at once.
    /// - Cancellation: cancels the upstream as soon as a value matches ([S15]); otherwise as
    ///   ``first()``. The subscription is `TryFirst` in `print()`, Combine's name for it.
    /// - Combine compatibility: as ``first()``.
    /// - Complexity: O(1) per value plus the predicate.
    ///
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Passes on the first value that satisfies a throwing predicate, then finishes; a thrown
    /// error fails the stream.
    ///
    /// As ``first(where:)``; when `predicate` throws, `tryFirst` cancels the upstream and
    /// finishes with `.failure(error)` ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryFirstWhere: $0.tryFirst { Int(try failOnX($0))!.isMultiple(of: 2) } -->
    /// ```text
    /// upstream: -1-x-4-|       (the predicate throws for x)
    ///           tryFirst { ... }
    /// output:   ---[;^]
    /// ```
    ///
    /// ![Marble diagram of tryFirstWhere](marble-tryFirstWhere)
    ///
    /// ```swift
    /// struct Bad: Error {}
    /// let c = [1, -1, 4].publisher
    ///     .tryFirst { n in
    ///         if n < 0 { throw Bad() }
    ///         return n.isMultiple(of: 2)
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Bad())
    /// ```
    ///
    /// - Parameter predicate: A closure that takes a value and returns whether it is the one to
    ///   pass on; it may throw to fail the stream.
    /// - Returns: A publisher that sends the first value that satisfies `predicate`, if any, then
    ///   finishes, or fails with the error `predicate` throws.
    /// - Demand: as ``first(where:)``.
    /// - Completion: `.finished` right after the matching value (held until a request, [S5]), a
    ///   failure with the thrown error, or the upstream's completion if it comes first.
    /// - Cancellation: cancels the upstream as soon as a value matches or the predicate throws
    ///   ([S14], [S15]); otherwise as ``first()``, with the subscription named `TryFirstWhere`.
    /// - Combine compatibility: as ``first()``.
    /// - Complexity: O(1) per value plus the predicate.
    ///
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S14]: doc:/Contract/StreamContract#S14
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.First`, `Publishers.FirstWhere` and `Publishers.TryFirstWhere`)
// hold the operators' parameters; each one's `receive(subscriber:)` subscribes through the logic
// below.

extension Publishers {
    /// The publisher of ``Publisher/first()``: the upstream's first value, then `.finished`.
    public struct First<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first value is passed on.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s first value.
        ///
        /// - Parameter upstream: The publisher whose first value is passed on.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the first value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: SearchReduction.first { _ in true }, name: "First")
        }
    }

    /// The publisher of ``Publisher/first(where:)``: the upstream's first value that satisfies
    /// a predicate, then `.finished`.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition the value to pass on satisfies.
        public let predicate: (Output) -> Bool

        /// Creates a publisher of `upstream`'s first value that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The condition the value to pass on satisfies.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the first matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Combine's name for this subscription, too.
            upstream.subscribe(subscriber, reducing: SearchReduction.first(where: predicate), name: "TryFirst")
        }
    }

    /// The publisher of ``Publisher/tryFirst(where:)``: the upstream's first value that
    /// satisfies a throwing predicate, then `.finished`.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition the value to pass on satisfies; may throw.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher of `upstream`'s first value that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The condition the value to pass on satisfies; may throw.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the first matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: SearchReduction.first(where: predicate), name: "TryFirstWhere")
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
extension Publishers.First: Sendable where Upstream: Sendable {}

// MARK: - Reduction

extension SearchReduction where Output == Input {
    /// `first(where:)`'s search: the first value that satisfies `predicate` is the answer; an
    /// upstream that finishes without one gives no value, only `.finished`.
    @inlinable
    static func first(where predicate: @escaping (Input) throws -> Bool) -> Self {
        Self(predicate: predicate, stopsAt: true, found: { $0 }, notFound: nil)
    }
}
