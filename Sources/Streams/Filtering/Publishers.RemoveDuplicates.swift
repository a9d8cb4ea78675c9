// Engine: Engines/RelaySubscription.swift.

// MARK: - removeDuplicates

extension Publisher where Output: Equatable {
    /// Passes on only the values that differ from the value passed on before them.
    ///
    /// `removeDuplicates` remembers the last value it passed on and drops each following value
    /// equal to it. Only *consecutive* repeats are removed: a value that comes back after a
    /// different one is passed on again. A dropped value asks upstream for one more in its place.
    ///
    /// <!-- marble removeDuplicates: $0.removeDuplicates() -->
    /// ```text
    /// upstream: -1-1-2-2-1-|
    ///           removeDuplicates()
    /// output:   -1---2---1-|
    /// ```
    ///
    /// ![Marble diagram of removeDuplicates](marble-removeDuplicates)
    ///
    /// ```swift
    /// let c = [1, 1, 2, 2, 2, 3, 1].publisher.removeDuplicates().sink { print($0) }
    /// // Prints: 1, 2, 3, 1 (one per line)
    /// ```
    ///
    /// - Returns: A publisher that sends the upstream's values without consecutive repeats.
    /// - Demand: passes through; each dropped duplicate gives back `.max(1)` to upstream.
    ///   `request(.none)` is ignored.
    /// - Completion: passes through unchanged.
    /// - Cancellation: the subscriber gets a subscription of its own (`RemoveDuplicates` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine: a ``Publishers/RemoveDuplicates`` comparing with `==`.
    /// - Complexity: O(1) per value; no allocation per value.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Passes on only the values that a closure does not call duplicates of the value passed on
    /// before them.
    ///
    /// For each value after the first, `predicate(previous, current)` is asked whether `current`
    /// repeats `previous`, the last value passed on; if it returns `true` the value is dropped
    /// and upstream is asked for one more in its place. The first value is always passed on.
    ///
    /// <!-- marble removeDuplicatesBy: $0.removeDuplicates { $0.lowercased() == $1.lowercased() } -->
    /// ```text
    /// upstream: -a-A-b-B-a-|
    ///           removeDuplicates { $0.lowercased() == $1.lowercased() }
    /// output:   -a---b---a-|
    /// ```
    ///
    /// ![Marble diagram of removeDuplicatesBy](marble-removeDuplicatesBy)
    ///
    /// ```swift
    /// let c = ["a", "A", "b", "B", "a"].publisher
    ///     .removeDuplicates { $0.lowercased() == $1.lowercased() }
    ///     .sink { print($0) }
    /// // Prints: a, b, a (one per line)
    /// ```
    ///
    /// - Parameter predicate: A closure that takes the last value passed on and the new value, and
    ///   returns `true` if the new one is a duplicate to drop.
    /// - Returns: A publisher that sends the upstream's values without those `predicate` calls
    ///   duplicates of the value before them.
    /// - Demand: passes through; each dropped duplicate gives back `.max(1)` to upstream.
    ///   `request(.none)` is ignored.
    /// - Completion: passes through unchanged.
    /// - Cancellation: the subscriber gets a subscription of its own (`RemoveDuplicates` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine; `previous` is the last value *passed on*, not the
    ///   last value received.
    /// - Complexity: O(1) per value plus the predicate; no allocation per value.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    @inlinable
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Passes on only the values that a throwing closure does not call duplicates of the value
    /// passed on before them; a thrown error fails the stream.
    ///
    /// As ``removeDuplicates(by:)``; when `predicate` throws, `tryRemoveDuplicates` cancels the
    /// upstream and finishes with `.failure(error)` ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryRemoveDuplicates: $0.tryRemoveDuplicates { try failOnX($1) == $0 } -->
    /// ```text
    /// upstream: -1-1-2-x-3-|     (the predicate throws when it sees x)
    ///           tryRemoveDuplicates { ... }
    /// output:   -1---2-[;^]
    /// ```
    ///
    /// ![Marble diagram of tryRemoveDuplicates](marble-tryRemoveDuplicates)
    ///
    /// ```swift
    /// struct Bad: Error {}
    /// let c = [1, 1, 2, -1, 3].publisher
    ///     .tryRemoveDuplicates { previous, next in
    ///         if next < 0 { throw Bad() }
    ///         return previous == next
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1
    /// //         2
    /// //         failure(Bad())
    /// ```
    ///
    /// - Parameter predicate: A closure that takes the last value passed on and the new value, and
    ///   returns `true` if the new one is a duplicate to drop; it may throw to fail the stream.
    /// - Returns: A publisher that sends the upstream's values without those `predicate` calls
    ///   duplicates, and fails with the error `predicate` throws.
    /// - Demand: as ``removeDuplicates(by:)``.
    /// - Completion: the upstream's, or a failure with the thrown error (upstream cancelled).
    /// - Cancellation: the subscriber gets a subscription of its own (`TryRemoveDuplicates` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the predicate; no allocation per value.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/removeDuplicates()`` and ``Publisher/removeDuplicates(by:)``:
    /// the upstream's values without consecutive duplicates.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose duplicates are removed.
        public let upstream: Upstream
        /// Tells whether the second value repeats the first (the last one passed on).
        public let predicate: (Output, Output) -> Bool

        /// Creates a publisher of `upstream`'s values without those `predicate` calls duplicates.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are checked.
        ///   - predicate: A closure that takes the last value passed on and the new value, and
        ///     returns `true` if the new one is a duplicate.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` through the duplicate check.
        ///
        /// - Parameter subscriber: The subscriber that receives the values that are not duplicates
        ///   and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: RemoveDuplicatesSubscriber(downstream: subscriber, predicate: predicate))
        }
    }

    /// The publisher of ``Publisher/tryRemoveDuplicates(by:)``: the upstream's values without
    /// consecutive duplicates, as told by a throwing closure.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose duplicates are removed.
        public let upstream: Upstream
        /// Tells whether the second value repeats the first (the last one passed on); may throw.
        public let predicate: (Output, Output) throws -> Bool

        /// Creates a publisher of `upstream`'s values without those `predicate` calls duplicates.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are checked.
        ///   - predicate: A throwing closure that takes the last value passed on and the new value,
        ///     and returns `true` if the new one is a duplicate.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` through the duplicate check.
        ///
        /// - Parameter subscriber: The subscriber that receives the values that are not duplicates
        ///   and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.receive(
                subscriber: TryRemoveDuplicatesSubscriber<Upstream.Failure, S>(
                    downstream: subscriber, predicate: predicate))
        }
    }
}

// MARK: - Subscribers

@usableFromInline
final class RemoveDuplicatesSubscriber<Downstream: Subscriber>:
    RelaySubscriber<Downstream.Input, Downstream.Failure, Downstream>
{
    @usableFromInline let predicate: (Downstream.Input, Downstream.Input) -> Bool
    /// The last value passed on; `nil` before the first.
    @exclusivity(unchecked) @usableFromInline final var previous: Downstream.Input?

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Downstream.Input, Downstream.Input) -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream, name: "RemoveDuplicates")
    }

    @inlinable
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard isLive else { return .none }
        if let previous, predicate(previous, input) { return .max(1) }
        previous = input
        return forward(input)
    }
}

@usableFromInline
final class TryRemoveDuplicatesSubscriber<UpstreamFailure: Error, Downstream: Subscriber>:
    RelaySubscriber<Downstream.Input, UpstreamFailure, Downstream>
where Downstream.Failure == any Error {
    @usableFromInline let predicate: (Downstream.Input, Downstream.Input) throws -> Bool
    /// The last value passed on; `nil` before the first.
    @exclusivity(unchecked) @usableFromInline final var previous: Downstream.Input?

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Downstream.Input, Downstream.Input) throws -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream, name: "TryRemoveDuplicates")
    }

    @inlinable
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard isLive else { return .none }
        if let previous {
            do {
                if try predicate(previous, input) { return .max(1) }
            } catch {
                finish(.failure(error))
                return .none
            }
        }
        previous = input
        return forward(input)
    }
}
