// Engine: Engines/RelaySubscription.swift.

// MARK: - scan

extension Publisher {
    /// Passes on a running result: each value combined with the result so far.
    ///
    /// `scan` starts from `initialResult`; for each value it calls
    /// `nextPartialResult(result, value)`, keeps the answer as the new result and sends it on.
    /// It is `reduce` that shows every step instead of only the last one.
    ///
    /// <!-- marble scan: $0.ints.scan(0) { $0 + $1 } -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           scan(0) { $0 + $1 }
    /// output:   -1-3-6-|
    /// ```
    ///
    /// ![Marble diagram of scan](marble-scan)
    ///
    /// ```swift
    /// let c = (1...5).publisher.scan(0) { $0 + $1 }.sink { print($0) }
    /// // Prints: 1, 3, 6, 10, 15 (one per line)
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The result the first value is combined with.
    ///   - nextPartialResult: A closure that takes the result so far and the next value, and
    ///     returns the new result, which is sent.
    /// - Returns: A publisher that sends each new result.
    /// - Demand: passes through unchanged: one result out for each value in.
    /// - Completion: passes through unchanged; `initialResult` alone is never sent.
    /// - Cancellation: goes straight to the upstream subscription: the subscriber gets the
    ///   upstream's own subscription, as in Combine. A value or completion after the completion
    ///   is ignored ([S2]).
    /// - Combine compatibility: as Combine. Each subscription starts again from `initialResult`.
    /// - Complexity: O(1) per value plus the closure.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @inlinable
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Passes on a running result computed by a throwing closure; a thrown error fails the
    /// stream.
    ///
    /// As ``scan(_:_:)``; when `nextPartialResult` throws, `tryScan` cancels the upstream and
    /// finishes with `.failure(error)` ([S14]). The failure type becomes `any Error`.
    ///
    /// <!-- marble tryScan: $0.ints.tryScan(10) { try divide($0, by: $1) } -->
    /// ```text
    /// upstream: -1-2-0-3-|
    ///           tryScan(10) { try divide($0, by: $1) }   (throws for 0)
    /// output:   -a-b-[;^]     (a = 10, b = 5)
    /// ```
    ///
    /// ![Marble diagram of tryScan](marble-tryScan)
    ///
    /// ```swift
    /// struct DivisionByZero: Error {}
    /// let c = [1, 2, 0, 3].publisher
    ///     .tryScan(10) { result, n in
    ///         guard n != 0 else { throw DivisionByZero() }
    ///         return result / n
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 10
    /// //         5
    /// //         failure(DivisionByZero())
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The result the first value is combined with.
    ///   - nextPartialResult: A closure that takes the result so far and the next value, and
    ///     returns the new result, which is sent; it may throw to fail the stream.
    /// - Returns: A publisher that sends each new result, and fails with the error
    ///   `nextPartialResult` throws.
    /// - Demand: passes through unchanged; `request(.none)` is ignored.
    /// - Completion: the upstream's, or a failure with the thrown error (upstream cancelled).
    /// - Cancellation: the subscriber gets a subscription of its own (`TryScan` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the closure.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.Scan` and `Publishers.TryScan`) hold the operators' parameters;
// each one's `receive(subscriber:)` subscribes through the logic below.

extension Publishers {
    /// The publisher of ``Publisher/scan(_:_:)``: the running result of a closure over the
    /// upstream's values.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The result the first value is combined with.
        public let initialResult: Output
        /// Combines the result so far with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher of the running result of `nextPartialResult` over `upstream`'s
        /// values, starting from `initialResult`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are accumulated.
        ///   - initialResult: The result the first value is combined with.
        ///   - nextPartialResult: Combines the result so far with the next value.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` through the accumulator, starting from `initialResult`.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: ScanSubscriber(
                    downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }
    }

    /// The publisher of ``Publisher/tryScan(_:_:)``: the running result of a throwing closure
    /// over the upstream's values.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The result the first value is combined with.
        public let initialResult: Output
        /// Combines the result so far with the next value; may throw.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher of the running result of `nextPartialResult` over `upstream`'s
        /// values, starting from `initialResult`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are accumulated.
        ///   - initialResult: The result the first value is combined with.
        ///   - nextPartialResult: Combines the result so far with the next value; may throw.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` through the accumulator, starting from `initialResult`.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = ScanStep(result: initialResult, nextPartialResult: nextPartialResult)
            upstream.subscribe(subscriber, through: step, name: "TryScan")
        }
    }
}

// MARK: - Subscribers

/// `scan`'s subscriber. As in Combine it hands the downstream the upstream's own subscription,
/// so `request` and `cancel` cost nothing here; it keeps the running result, and so ignores a
/// value or completion before its subscription or after the completion, and cancels a second
/// subscription ([S2]). Only the upstream's serialized signals ([S3]) touch it: no lock.
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
@usableFromInline
final class ScanSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let nextPartialResult: (Downstream.Input, Input) -> Downstream.Input
    /// The result so far.
    @usableFromInline var result: Downstream.Input
    /// `nil` once completed.
    @usableFromInline var downstream: Downstream?
    /// Whether the upstream's subscription has arrived.
    @usableFromInline var isSubscribed = false

    @inlinable
    init(
        downstream: Downstream, initialResult: Downstream.Input,
        nextPartialResult: @escaping (Downstream.Input, Input) -> Downstream.Input
    ) {
        self.downstream = downstream
        self.result = initialResult
        self.nextPartialResult = nextPartialResult
    }

    @usableFromInline var description: String { "Scan" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    @inlinable
    func receive(subscription: any Subscription) {
        guard !isSubscribed, let downstream else {
            subscription.cancel()
            return
        }
        isSubscribed = true
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard isSubscribed, let downstream = self.downstream.take() else { return .none }
        result = nextPartialResult(result, input)
        // Moved out and back rather than copied: no retain and release per value.
        let demand = downstream.receive(result)
        self.downstream = consume downstream
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard isSubscribed, let downstream = self.downstream.take() else { return }
        downstream.receive(completion: completion)
    }
}

/// `tryScan`'s step: sends each new running result.
@usableFromInline
struct ScanStep<Input, Output>: RelayStep {
    @usableFromInline let nextPartialResult: (Output, Input) throws -> Output
    /// The result so far.
    @usableFromInline var result: Output

    @inlinable
    init(result: Output, nextPartialResult: @escaping (Output, Input) throws -> Output) {
        self.result = result
        self.nextPartialResult = nextPartialResult
    }

    @inlinable
    mutating func next(_ input: Input) throws -> RelayAction<Output> {
        result = try nextPartialResult(result, input)
        return .send(result)
    }
}
