// MARK: - dropFirst

extension Publisher {
    /// Drops the first `count` values and passes on the rest.
    ///
    /// The first `count` values are not sent; each one asks upstream for one more in its place,
    /// so the downstream's demand is met by the values after them. Everything else passes
    /// through.
    ///
    /// ```text
    /// upstream: -a-b-c-d-|
    ///           dropFirst(2)
    /// output:   -----c-d-|
    /// ```
    ///
    /// ```swift
    /// let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    /// let c = numbers.publisher.dropFirst(5).sink { print($0) }
    /// // Prints: 6, 7, 8, 9, 10 (one per line)
    /// ```
    ///
    /// - Parameter count: How many values to drop; 1 by default. It must not be negative (a
    ///   negative count stops the program with a message saying so).
    /// - Demand: passes through; each dropped value gives back `.max(1)` to upstream.
    /// - Completion: passes through unchanged, also while values are still being dropped.
    /// - Cancellation: goes straight to the upstream subscription.
    /// - Combine compatibility: the same values and completion as Combine. On a
    ///   ``Publishers/Sequence`` it is applied to the sequence itself and returns a
    ///   `Publishers.Sequence`, as in Combine.
    /// - Complexity: O(1) per value; no lock and no allocation per value.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/dropFirst(_:)``: the upstream's values after the first
    /// `count`.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are dropped.
        public let upstream: Upstream
        /// How many values to drop.
        public let count: Int

        /// Creates a publisher of `upstream`'s values after the first `count`, which must not be
        /// negative.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            if count < 0 {
                fatalError("dropFirst(\(count)): the number of values to drop must not be negative")
            }
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber` to the values after the first `count`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DropSubscriber(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}
extension Publishers.Drop: Sendable where Upstream: Sendable {}

// MARK: - Subscribers

@usableFromInline
final class DropSubscriber<Downstream: Subscriber>:
    RelaySubscriber<Downstream.Input, Downstream.Failure, Downstream>
{
    /// Values still to drop.
    @exclusivity(unchecked) @usableFromInline var remaining: Int

    @inlinable
    init(downstream: Downstream, count: Int) {
        remaining = count
        super.init(downstream: downstream)
    }

    @usableFromInline override var description: String { "Drop" }

    @inlinable
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard downstream != nil else { return .none }
        if remaining > 0 {
            remaining -= 1
            return .max(1)
        }
        return forward(input)
    }
}
