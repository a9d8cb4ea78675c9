// Engine: Engines/RelaySubscription.swift.

// MARK: - dropFirst

extension Publisher {
    /// Drops the first `count` values and passes on the rest.
    ///
    /// The first `count` values are not sent; they are asked of the upstream up front, so the
    /// downstream's demand is met by the values after them. Everything else passes through.
    ///
    /// <!-- marble dropFirst: $0.dropFirst(2) -->
    /// ```text
    /// upstream: -a-b-c-d-|
    ///           dropFirst(2)
    /// output:   -----c-d-|
    /// ```
    ///
    /// ![Marble diagram of dropFirst](marble-dropFirst)
    ///
    /// ```swift
    /// let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    /// let c = numbers.publisher.dropFirst(5).sink { print($0) }
    /// // Prints: 6, 7, 8, 9, 10 (one per line)
    /// ```
    ///
    /// - Parameter count: How many values to drop; 1 by default. It must not be negative (a
    ///   negative count stops the program with a message saying so).
    /// - Returns: A publisher that sends the upstream's values after the first `count`.
    /// - Demand: the subscriber gets its subscription before the upstream is subscribed; when
    ///   the upstream's subscription arrives, the operator asks it for everything the subscriber
    ///   has asked for until then plus `count`, the values that will be dropped (`count` alone
    ///   if it has asked for nothing yet); later requests pass through. `request(.none)` is an
    ///   API violation ([S9]), as in Combine.
    /// - Completion: passes through unchanged, also while values are still being dropped. One
    ///   that comes before the upstream's subscription is ignored ([S2]).
    /// - Cancellation: the subscriber gets a subscription of its own (`Drop` in `print()`):
    ///   `cancel()` cancels the upstream once (a cancel before the upstream's subscription has
    ///   arrived cancels it when it does); after it, or after the completion, requests and
    ///   cancels are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine, including the order (the subscriber's subscription
    ///   first, then the upstream's) and the up-front demand. Combine passes on a completion
    ///   that comes before the upstream's subscription ([S2]), and does not cancel an upstream
    ///   subscription that arrives after a cancel ([S6]). On a ``Publishers/Sequence`` it is
    ///   applied to the sequence itself and returns a `Publishers.Sequence`, as in Combine.
    /// - Complexity: O(1) per value.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S9]: doc:/Contract/StreamContract#S9
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
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose first values are dropped.
        ///   - count: How many values to drop; must not be negative.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            if count < 0 {
                fatalError("dropFirst(\(count)): the number of values to drop must not be negative")
            }
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber` to the values after the first `count`.
        ///
        /// - Parameter subscriber: The subscriber that receives the values after the first `count`
        ///   and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // As Combine: the subscriber gets its subscription first, and the values to drop are
            // asked for up front, with what the subscriber has asked for when the upstream's
            // subscription arrives, so a dropped value needs no replacement demand.
            upstream.subscribe(
                subscriber, through: DropStep(remaining: count), name: "Drop", upFrontDemand: .max(count),
                reportsNoneRequests: true, handsOverFirst: true)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}
extension Publishers.Drop: Sendable where Upstream: Sendable {}

// MARK: - Step

/// Drops the first `remaining` values.
@usableFromInline
struct DropStep<Input>: RelayStep {
    /// Values still to drop.
    @usableFromInline var remaining: Int

    @inlinable
    init(remaining: Int) {
        self.remaining = remaining
    }

    @inlinable
    mutating func next(_ input: Input) -> RelayAction<Input> {
        guard remaining > 0 else { return .send(input) }
        remaining -= 1
        return .ignore
    }
}
