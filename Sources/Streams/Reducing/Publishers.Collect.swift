// MARK: - collect

extension Publisher {
    /// Collects all of the upstream's values into one array, and sends it when the upstream
    /// finishes.
    ///
    /// Nothing goes downstream while the upstream is running. When it finishes, the array of
    /// everything it sent, in order, goes down, then `.finished`; an upstream without values gives
    /// an empty array. Every value is kept until then, so a long upstream costs memory.
    ///
    /// ```text
    /// upstream: -1-2-3-|
    ///           collect()
    /// output:   -------[a|]     (a = [1, 2, 3])
    /// ```
    ///
    /// ```swift
    /// let c = (1...4).publisher.collect().sink { print($0) }
    /// // Prints: [1, 2, 3, 4]
    /// ```
    ///
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed; the array waits
    ///   until the downstream has asked for a value (S1).
    /// - Completion: the array and `.finished` after the upstream finishes; an upstream failure
    ///   is passed on at once and the values collected so far are dropped.
    /// - Cancellation: cancels the upstream; nothing is sent afterwards (S6, S7).
    /// - Threading: the array goes out on the thread that completes the upstream, or on the
    ///   thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine.
    /// - Complexity: amortized O(1) per value, no lock; O(n) memory.
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
    /// ```text
    /// upstream: -1-2-3-4-5-|
    ///           collect(2)
    /// output:   ---a---b---[c|]     (a = [1, 2], b = [3, 4], c = [5])
    /// ```
    ///
    /// ```swift
    /// let c = (1...5).publisher.collect(2).sink { print($0) }
    /// // Prints: [1, 2]
    /// //         [3, 4]
    /// //         [5]
    /// ```
    ///
    /// - Parameter count: The most values in one array; at least 1.
    /// - Demand: a request for `n` arrays asks the upstream for `n * count` values, and demand
    ///   returned from the downstream's `receive(_:)` is multiplied the same way. So the upstream
    ///   never sends a value that no array has been asked for (S1).
    /// - Completion: the last, shorter array (if any) and `.finished`; a failure is passed on at
    ///   once, without the values of the unfinished array.
    /// - Cancellation: cancels the upstream; nothing is sent afterwards (S6, S7).
    /// - Threading: arrays go out on the upstream's thread.
    /// - Combine compatibility: as Combine. A `count` below 1 stops the program.
    /// - Complexity: amortized O(1) per value, no lock per value (one per array); O(`count`)
    ///   memory.
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
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the array of values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingSubscription<CollectReduction<Upstream.Output>, Failure, S>(
                downstream: subscriber, reduction: CollectReduction(), name: "Collect"))
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
        /// - Precondition: `count` is at least 1.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "collect(_:) needs a count of at least 1, not \(count)")
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber` to the arrays.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByCountSubscription(downstream: subscriber, count: count))
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
    mutating func reduce(_ input: Input) -> [Input]? {
        values.append(input)
        return nil
    }

    @inlinable
    mutating func result() -> [Input]? {
        // Hands over the only reference, so the downstream can change the array without a copy.
        defer { values = [] }
        return values
    }
}

// MARK: - collect(_:): subscription

/// The subscriber to the upstream and the subscription of the downstream of `collect(_:)`.
///
/// Requests pass through multiplied by `count`. The unfinished array is only touched from the
/// upstream's serialized signals (S3): no lock per value. The lock guards what `cancel()` and
/// `request` touch from other threads: the upstream subscription and the downstream, read once
/// per full array.
@usableFromInline
final class CollectByCountSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // state, downstream: guarded by `lock`; buffer: upstream signals only
where Downstream.Input == [Input], Downstream.Failure == UpstreamFailure {
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline
    enum State {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Collecting.
        case collecting(Subscription)
        /// The upstream finished and the last array is being sent; `cancel()` now only stops the
        /// `.finished` that follows.
        case finishing
        /// Completed or cancelled.
        case done
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var state = State.awaitingSubscription
    @usableFromInline var downstream: Downstream?
    @usableFromInline let count: Int
    /// The values of the unfinished array.
    @exclusivity(unchecked) @usableFromInline var buffer: [Input] = []
    /// Set once the upstream completed: anything it still sends is ignored (S4).
    @exclusivity(unchecked) @usableFromInline var upstreamIsDone = false

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.count = count
    }

    @usableFromInline var description: String { "CollectByCount" }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .collecting(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard !upstreamIsDone else { return .none }
        buffer.append(input)
        guard buffer.count == count else { return .none }
        let values = buffer
        buffer = []
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        guard let downstream else { return .none }
        return downstream.receive(values) * count
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard !upstreamIsDone else { return }
        upstreamIsDone = true
        let values = buffer
        buffer = []
        lock.lock()
        guard case .collecting = state, let downstream else {
            lock.unlock()
            return
        }
        switch completion {
        case .failure(let error):
            state = .done
            self.downstream = nil
            lock.unlock()
            downstream.receive(completion: .failure(error))
        case .finished where values.isEmpty:
            state = .done
            self.downstream = nil
            lock.unlock()
            downstream.receive(completion: .finished)
        case .finished:
            // There is demand for this array: the upstream only sent its values because an array
            // was asked for (`count` values per array requested).
            state = .finishing
            self.downstream = nil
            lock.unlock()
            _ = downstream.receive(values)
            lock.lock()
            let wasCancelled = if case .finishing = state { false } else { true }
            state = .done
            lock.unlock()
            if !wasCancelled { downstream.receive(completion: .finished) }
        }
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "CollectByCount") else { return }
        lock.lock()
        guard case .collecting(let upstream) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand * count)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let previous = state
        if case .done = previous {
            lock.unlock()
            return
        }
        state = .done
        let downstream = self.downstream.take()
        lock.unlock()
        if case .collecting(let upstream) = previous { upstream.cancel() }
        _ = downstream
    }
}
