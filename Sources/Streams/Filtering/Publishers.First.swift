// MARK: - first

extension Publisher {
    /// Passes on the first value, then finishes.
    ///
    /// As soon as the first value arrives, `first` sends it, cancels the upstream (it needs
    /// nothing more from it) and finishes. If the upstream completes before sending a value,
    /// that completion is passed on and nothing else.
    ///
    /// ```text
    /// upstream: -a-b-c-|
    ///           first()
    /// output:   -[a;|]         (; = upstream cancelled)
    /// ```
    ///
    /// ```swift
    /// let c = [-10, 0, 10].publisher.first()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: -10
    /// //         finished
    /// ```
    ///
    /// - Demand: passes the downstream's demand through to upstream.
    /// - Completion: `.finished` right after the first value; before it, the upstream's
    ///   completion as is.
    /// - Cancellation: cancels the upstream as soon as the first value arrives (S15); a cancel
    ///   from downstream goes straight to the upstream.
    /// - Combine compatibility: the same values and completion as Combine. Combine asks the
    ///   upstream for `.unlimited` on the first request; this operator passes the downstream's
    ///   demand on instead, which asks upstream for no more than is needed.
    /// - Complexity: O(1); one allocation per subscription.
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Passes on the first value that satisfies a predicate, then finishes.
    ///
    /// Values that fail `predicate` are dropped (upstream is asked for one more in their
    /// place). The first value that passes is sent, the upstream is cancelled and the stream
    /// finishes. If the upstream completes first, its completion is passed on.
    ///
    /// ```text
    /// upstream: -1-3-4-5-|
    ///           first { $0.isMultiple(of: 2) }
    /// output:   -----[4;|]
    /// ```
    ///
    /// ```swift
    /// let c = [1, 3, 4, 5, 6].publisher.first { $0.isMultiple(of: 2) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 4
    /// //         finished
    /// ```
    ///
    /// - Demand: passes through; each value that fails the predicate gives back `.max(1)`.
    /// - Completion: `.finished` right after the matching value; before it, the upstream's
    ///   completion as is.
    /// - Cancellation: cancels the upstream as soon as a value matches (S15).
    /// - Combine compatibility: as ``first()``.
    /// - Complexity: O(1) per value plus the predicate; no lock and no allocation per value.
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Passes on the first value that satisfies a throwing predicate, then finishes; a thrown
    /// error fails the stream.
    ///
    /// As ``first(where:)``; when `predicate` throws, `tryFirst` cancels the upstream and
    /// finishes with `.failure(error)` (S14). The failure type becomes `any Error`.
    ///
    /// ```text
    /// upstream: -1-x-4-|       (the predicate throws for x)
    ///           tryFirst { ... }
    /// output:   ---[;^]
    /// ```
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
    /// - Demand: as ``first(where:)``.
    /// - Completion: `.finished` right after the matching value, a failure with the thrown
    ///   error, or the upstream's completion if it comes first.
    /// - Cancellation: cancels the upstream as soon as a value matches or the predicate throws
    ///   (S14, S15).
    /// - Combine compatibility: as ``first()``.
    /// - Complexity: O(1) per value plus the predicate; no lock and no allocation per value.
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

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
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the first value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FirstSubscriber(downstream: subscriber))
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
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the first matching value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FirstWhereSubscriber(downstream: subscriber, predicate: predicate))
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
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the first matching value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.receive(subscriber: TryFirstWhereSubscriber<Upstream.Failure, S>(
                downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
extension Publishers.First: Sendable where Upstream: Sendable {}

// MARK: - Subscribers

@usableFromInline
final class FirstSubscriber<Downstream: Subscriber>:
    EndingRelaySubscriber<Downstream.Input, Downstream.Failure, Downstream>
{
    @inlinable
    init(downstream: Downstream) {
        super.init(downstream: downstream, name: "First")
    }

    @inlinable
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        sendLast(input)
        return .none
    }
}

@usableFromInline
final class FirstWhereSubscriber<Downstream: Subscriber>:
    EndingRelaySubscriber<Downstream.Input, Downstream.Failure, Downstream>
{
    @usableFromInline let predicate: (Downstream.Input) -> Bool

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Downstream.Input) -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream, name: "FirstWhere")
    }

    @inlinable
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard downstream != nil else { return .none }
        guard predicate(input) else { return .max(1) }
        sendLast(input)
        return .none
    }
}

@usableFromInline
final class TryFirstWhereSubscriber<UpstreamFailure: Error, Downstream: Subscriber>:
    EndingRelaySubscriber<Downstream.Input, UpstreamFailure, Downstream>
where Downstream.Failure == any Error {
    @usableFromInline let predicate: (Downstream.Input) throws -> Bool

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Downstream.Input) throws -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream, name: "TryFirstWhere")
    }

    @inlinable
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard downstream != nil else { return .none }
        do {
            guard try predicate(input) else { return .max(1) }
        } catch {
            finish(.failure(error))
            return .none
        }
        sendLast(input)
        return .none
    }
}
