// Engine: Engines/SerialDelivery.swift (the one-at-a-time delivery loop the buffer drains through).

// MARK: - buffer

extension Publisher {
    /// Keeps up to `size` values that the downstream has not asked for yet, and hands them out
    /// in order as it asks.
    ///
    /// A buffer sits between an upstream that sends faster than the downstream takes values
    /// (a subject, a timer, an upstream asked for everything) and a downstream that asks for a
    /// few at a time (`flatMap(maxPublishers:)`, a subscriber that requests one by one). Values
    /// the downstream has no demand for wait in the buffer instead of being lost. `prefetch`
    /// says how much to ask the upstream for, `whenFull` what to do with a value that arrives
    /// when `size` values are already waiting.
    ///
    /// <!-- marble buffer demand=1: $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest) -->
    /// ```text
    /// upstream: -1-2-3-4-|
    ///           buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
    ///           (the downstream asks for one value only)
    /// output:   -1--------   (4 pushes 2 out; 3, 4 and `.finished` wait for demand)
    /// ```
    ///
    /// ![Marble diagram of buffer](marble-buffer)
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// var subscription: (any Subscription)?
    /// let subscriber = AnySubscriber<Int, Never>(
    ///     receiveSubscription: { subscription = $0 },
    ///     receiveValue: { print($0); return .none })
    /// subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
    /// subject.send(1)
    /// subject.send(2)
    /// subject.send(3)          // the buffer is full: 1 is dropped
    /// subscription?.request(.unlimited)
    /// // Prints: 2
    /// //         3
    /// ```
    ///
    /// - Parameters:
    ///   - size: How many values the buffer holds; at least 1 (a smaller size stops the program
    ///     with a message saying so).
    ///   - prefetch: ``Publishers/PrefetchStrategy/keepFull`` asks the upstream for `size` values
    ///     at subscription and for one more each time a value leaves the buffer, so a
    ///     well-behaved upstream never overfills it. ``Publishers/PrefetchStrategy/byRequest``
    ///     asks the upstream for `.unlimited` at subscription.
    ///   - whenFull: What to do with a value that arrives when the buffer is full:
    ///     ``Publishers/BufferingStrategy/dropNewest`` drops it,
    ///     ``Publishers/BufferingStrategy/dropOldest`` drops the oldest waiting value to make
    ///     room, ``Publishers/BufferingStrategy/customError(_:)`` cancels the upstream and fails
    ///     with the closure's error.
    /// - Returns: A publisher that sends the upstream's values as the downstream asks for them,
    ///   keeping up to `size` of them while they wait.
    /// - Demand: the upstream is asked as `prefetch` says, never for what the downstream asks,
    ///   and before the downstream gets its subscription (as Combine does), so values a
    ///   synchronous upstream sends at once are already in the buffer (or dropped from it) when
    ///   the downstream first asks. Values go downstream only against its demand ([S1]), oldest
    ///   first. `request(.none)` is accepted and does nothing ([S9]).
    /// - Completion: `.finished` waits until every buffered value has been delivered and the
    ///   downstream has demand left, as Combine does ([S5]): after the last value it waits for a
    ///   request. An upstream failure goes out at once if the downstream has no demand, or after
    ///   the buffered values its demand allows; values still waiting are discarded. The
    ///   `customError` failure cancels the upstream at once and goes out at the downstream's
    ///   next request, after the buffered values that request allows.
    /// - Misbehaving upstream: a value or completion before the subscription or after the
    ///   upstream's end is ignored; a second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream and discards the buffered values ([S7]).
    /// - Threading: values from the upstream and requests from the downstream may come on
    ///   different threads; the downstream is called by one of them at a time ([S3]), in a loop
    ///   rather than by recursion ([S8]). Nothing is called while the operator's lock is held.
    /// - Combine compatibility: as Combine, including the order: the prefetch request, then the
    ///   downstream's subscription. Combine's documentation says that `.byRequest` "forwards the
    ///   downstream's requests", but Combine asks the upstream for `.unlimited` at subscription,
    ///   which is what makes the buffer fill; this library does the same so that code ported
    ///   from Combine behaves the same. Two differences. Right below a relay operator
    ///   (`prefix(while:)`, `output(in:)`, `tryMap`, `removeDuplicates`, ...) over a
    ///   synchronous upstream, the buffer fills after its downstream has its subscription, not
    ///   before: the relay passes on a request made while its subscriber receives its
    ///   subscription once that call has returned, so that nothing reaches the subscriber from
    ///   another thread meanwhile ([S3]), where Combine passes it on at once. And Combine asks an
    ///   upstream that has finished, or that `customError` cancelled, for the `.keepFull`
    ///   refill; this asks it for nothing more.
    /// - Complexity: O(1) amortized per value; memory for up to `size` values.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S8]: doc:/Contract/StreamContract#S8
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// How ``Publisher/buffer(size:prefetch:whenFull:)`` asks its upstream for values.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Ask for the buffer's size at subscription, then for one more each time a value leaves
        /// the buffer, so that it stays full.
        case keepFull
        /// Ask for `.unlimited` at subscription (as Combine does; see
        /// ``Publisher/buffer(size:prefetch:whenFull:)``).
        case byRequest
    }

    /// What ``Publisher/buffer(size:prefetch:whenFull:)`` does with a value that arrives when
    /// the buffer is full.
    public enum BufferingStrategy<Failure: Error> {
        /// Drop the value that just arrived.
        case dropNewest
        /// Drop the oldest buffered value and keep the new one.
        case dropOldest
        /// Cancel the upstream and fail with the error the closure makes.
        case customError(() -> Failure)
    }

    /// The publisher of ``Publisher/buffer(size:prefetch:whenFull:)``: keeps values the
    /// downstream has not asked for yet.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are buffered.
        public let upstream: Upstream
        /// How many values the buffer holds.
        public let size: Int
        /// How the upstream is asked for values.
        public let prefetch: Publishers.PrefetchStrategy
        /// What happens to a value that arrives when the buffer is full.
        public let whenFull: Publishers.BufferingStrategy<Failure>

        /// Creates a publisher that buffers up to `size` (at least 1) of `upstream`'s values.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are buffered.
        ///   - size: The most values that wait in the buffer; at least 1.
        ///   - prefetch: How much to ask the upstream for: `.keepFull` or `.byRequest`.
        ///   - whenFull: What to do with a value that arrives when the buffer is full: drop the
        ///     newest, drop the oldest, or fail with a custom error.
        @inlinable
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            if size < 1 {
                fatalError("buffer(size: \(size)): the buffer must hold at least 1 value")
            }
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Subscribes `subscriber` through a buffer of its own.
        ///
        /// - Parameter subscriber: The subscriber that receives the buffered values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: BufferSubscription(
                    downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

// MARK: - Subscription

/// The subscriber to the upstream and the downstream's subscription of ``Publishers/Buffer``.
///
/// Values from the upstream and requests from the downstream may arrive on different threads,
/// and both can make values go downstream, so the downstream is called only through the
/// serialized delivery of ``SerialDelivery``: the buffered values are its queue, and whoever
/// holds the drain token delivers them while there is demand, then the completion once it is
/// due; whoever finds the token taken only records its value or demand. A request made from
/// inside `receive(_:)` is one of those: it adds demand and returns ([S8]). The lock guards every
/// `var` and is never held while calling out.
///
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    SerialDelivery,
    @unchecked Sendable  // every `var` is guarded by `lock`
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// What the drain token holder hands out.
    @usableFromInline
    enum Delivery {
        case value(Input, Downstream)
        /// The completion, with the downstream (let go of after the call).
        case end(Subscribers.Completion<Failure>, Downstream?)
        /// What to ask the upstream for after a drain: one per value that left the buffer
        /// (`.keepFull`).
        case refill(Subscribers.Demand)
    }

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)` on the state below: `lock` already makes every access exclusive
    // (Docs/Performance.md, "`@exclusivity(unchecked)`").
    @usableFromInline let size: Int
    @usableFromInline let prefetch: Publishers.PrefetchStrategy
    /// `nil` once the stream has ended, to let go of a `customError` closure ([S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    @exclusivity(unchecked) @usableFromInline var whenFull: Publishers.BufferingStrategy<Failure>?
    /// `nil` once the stream has ended.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// The upstream's subscription while `holdsUpstream`, else a ``NoSubscription``
    /// (NoSubscription.swift).
    @exclusivity(unchecked) @usableFromInline var upstream: any Subscription = NoSubscription()
    /// Whether the upstream's subscription has arrived (a second one is cancelled).
    @exclusivity(unchecked) @usableFromInline var hasUpstream = false
    /// From the upstream's subscription until the upstream is done (finished, cancelled, or given
    /// up by `customError`).
    @exclusivity(unchecked) @usableFromInline var holdsUpstream = false
    /// The buffered values and the drain token.
    @exclusivity(unchecked) @usableFromInline var serial = SerialQueue<Input>()
    /// What the downstream has asked for and not received.
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// Values delivered by the running drain, for the refill.
    @exclusivity(unchecked) @usableFromInline var delivered = 0
    /// The upstream's completion (or the `customError` failure), waiting to be delivered.
    @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The completion was delivered, or the downstream cancelled.
    @exclusivity(unchecked) @usableFromInline var isDone = false

    @inlinable
    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        self.downstream = downstream
        self.size = size
        self.prefetch = prefetch
        self.whenFull = whenFull
    }

    @usableFromInline var description: String { "Buffer" }

    // MARK: Subscriber

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !hasUpstream, !isDone, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasUpstream = true
        holdsUpstream = true
        NoSubscription.hold(subscription, in: &upstream)
        // The drain token is held through the handover: what a synchronous upstream sends
        // inside the request below only fills the buffer, and the downstream's requests from
        // inside `receive(subscription:)` only add demand; the drain at the end delivers.
        _ = serial.takeToken()
        lock.unlock()
        // As Combine: the upstream is asked first, then the downstream gets its subscription.
        subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
        downstream.receive(subscription: self)
        lock.lock()
        refill(after: drainLocked())
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !isDone, completion == nil, holdsUpstream else {
            lock.unlock()
            return .none
        }
        var dropped: Input?
        if serial.pending.count >= size, let whenFull {
            switch whenFull {
            case .dropNewest:
                lock.unlock()
                return .none
            case .dropOldest:
                dropped = serial.pending.popFirst()
            case .customError(let makeError):
                // As Combine: the upstream is cancelled at once; the failure waits for the
                // next drain, after the buffered values the downstream's demand allows.
                let upstream = takeUpstreamLocked()
                lock.unlock()
                upstream.cancel()
                let error = makeError()
                lock.lock()
                if !isDone, completion == nil { completion = .failure(error) }
                lock.unlock()
                return .none
            }
        }
        let last = submitLocked(input)
        keepAlive(dropped)  // released after unlocking
        if case .refill(let more)? = last { return more }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard hasUpstream, !isDone, self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        let finished = takeUpstreamLocked()
        unlockOrDrainLocked()
        keepAlive(finished)  // released after unlocking
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: Combine accepts `.none` here; it changes nothing.
        if demand == .none { return }
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        self.demand += demand
        refill(after: unlockOrDrainLocked())
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        completion = nil
        let upstream = takeUpstreamLocked()
        let downstream = self.downstream.take()
        let whenFull = self.whenFull.take()
        let buffered = serial.pending.takeAll()
        lock.unlock()
        keepAlive(downstream, whenFull, buffered)
        upstream.cancel()
    }

    /// Takes the upstream subscription (finished, cancelled, or given up by `customError`), to
    /// be cancelled or let go of after unlocking: a ``NoSubscription`` if there is none. Call with
    /// the lock held.
    @inlinable
    func takeUpstreamLocked() -> any Subscription {
        holdsUpstream = false
        return NoSubscription.take(from: &upstream)
    }

    /// Asks the upstream for the refill a drain ended with, if any.
    @inlinable
    func refill(after last: Delivery?) {
        guard case .refill(let more)? = last else { return }
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream.request(more)
    }

    // MARK: SerialDelivery

    /// A buffered value while there is demand, then the completion once it is due; at the end,
    /// the refill (`.keepFull`: one per value delivered).
    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Delivery> {
        demand += returned
        if !isDone {
            if demand != .none, let downstream, let value = serial.pending.popFirst() {
                demand -= 1
                delivered += 1
                return .deliver(.value(value, downstream))
            }
            // `.finished` is due once nothing is left and the downstream has demand (S5, as
            // Combine); a failure once no more buffered values can go out now.
            if let completion, Self.isDue(completion, buffered: serial.pending.count, demand: demand) {
                isDone = true
                delivered = 0
                return .deliver(.end(completion, downstream.take()))
            }
        }
        let refill = prefetch == .keepFull && holdsUpstream && !isDone ? delivered : 0
        delivered = 0
        return .stop(refill > 0 ? .refill(.max(refill)) : nil)
    }

    /// Whether `completion` can go out now: a `.finished` once nothing is buffered and the
    /// downstream has demand, a failure at once.
    @inlinable
    static func isDue(_ completion: Subscribers.Completion<Failure>, buffered: Int, demand: Subscribers.Demand) -> Bool
    {
        if case .finished = completion { return buffered == 0 && demand != .none }
        return true
    }

    @inlinable
    func deliver(_ delivery: Delivery) -> DeliveryResult {
        switch delivery {
        case .value(let value, let downstream):
            return .returned(downstream.receive(value))
        case .end(let completion, let downstream):
            // What the stream ends with is let go of after unlocking (S7); nothing touches it
            // once `isDone` is set.
            lock.lock()
            let leftovers = (whenFull.take(), serial.pending.takeAll())
            lock.unlock()
            keepAlive(leftovers)
            downstream?.receive(completion: completion)
            return .leave  // the token stays taken: nothing follows the completion
        case .refill:
            return .returned(.none)  // only ever the last step's payload
        }
    }
}
