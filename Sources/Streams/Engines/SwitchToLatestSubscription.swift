/// The engine of `switchToLatest` (`Sources/Streams/Combining/Publishers.SwitchToLatest.swift`):
/// the subscriber to the upstream (of publishers), the subscription the downstream receives,
/// and, through ``Inner``s stamped with a generation, the subscriber to each inner publisher.
///
/// The downstream's demand is counted here (requested plus returned, minus delivered).
/// Requests go on to the current inner publisher; a new one is asked for all that is
/// outstanding when its subscription arrives. A value reserves one unit of demand as it comes
/// in, and one that finds no demand is dropped (only an inner publisher breaking [S1] sends one),
/// so switching never lets more through than was asked for ([S1]).
///
/// Signals come from the upstream's thread and the current inner publisher's, which may
/// differ, and an old inner publisher may still be delivering when a new one starts. So the
/// downstream is called only by the holder of the *drain token* (`isDraining`, under the lock):
/// the thread that finds it free takes it, delivers, and before giving it back delivers
/// whatever other threads queued meanwhile (`pending`), in order, in a loop (``drainLocked()``,
/// [S3], [S8]). Demand the downstream returns for a queued value is requested from the current
/// inner publisher. The completion goes through the same token, after the queued values (every
/// one of them was asked for), a failure too.
///
/// `cancel()` and the completion let go of the downstream, both subscriptions and the queue,
/// after unlocking ([S7]); the token holder lets go of the downstream if `cancel()` came while it
/// was delivering. A subscription that may not be there (the upstream's, the current inner's)
/// is an `any Subscription` holding a ``NoSubscription`` while there is none, as in every
/// engine (NoSubscription.swift); `upstreamSubscribed` and `innerAttached` say which.
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class SwitchToLatestSubscription<NewPublisher: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // all mutable state is guarded by `lock`
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    @usableFromInline typealias Input = NewPublisher
    @usableFromInline typealias Failure = NewPublisher.Failure

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)`: every access is under `lock`; the runtime's dynamic check
    // would only add cost per value.
    /// Owned by the token holder while the token is taken; `nil` once the stream is over.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// The upstream's subscription once `upstreamSubscribed` and until the upstream is over.
    @exclusivity(unchecked) @usableFromInline var upstream: any Subscription = NoSubscription()
    /// Whether the upstream has sent its subscription (a second one is cancelled).
    @exclusivity(unchecked) @usableFromInline var upstreamSubscribed = false
    @exclusivity(unchecked) @usableFromInline var upstreamFinished = false
    /// The generation of the latest inner publisher; signals stamped otherwise are ignored.
    @exclusivity(unchecked) @usableFromInline var innerGeneration = 0
    /// Whether the latest inner publisher is live (subscribed and not yet completed).
    @exclusivity(unchecked) @usableFromInline var hasInner = false
    /// The latest inner publisher's subscription while `innerAttached`.
    @exclusivity(unchecked) @usableFromInline var innerSubscription: any Subscription = NoSubscription()
    /// Whether the latest inner publisher has sent its subscription.
    @exclusivity(unchecked) @usableFromInline var innerAttached = false
    /// The downstream's outstanding demand, less the values queued for delivery.
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// Values waiting for the token holder (their demand is already reserved).
    @exclusivity(unchecked) @usableFromInline var pending = FIFOQueue<Downstream.Input>()
    /// The drain token: `true` while a thread is calling the downstream.
    @exclusivity(unchecked) @usableFromInline var isDraining = false
    /// The completion the token holder is to deliver.
    @exclusivity(unchecked) @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?
    /// `false` once a completion is decided or the downstream cancelled: signals are ignored.
    @exclusivity(unchecked) @usableFromInline var isActive = true
    /// The completion was delivered or the downstream cancelled: nothing more goes out.
    @exclusivity(unchecked) @usableFromInline var isTerminated = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard isActive, !upstreamSubscribed else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreamSubscribed = true
        NoSubscription.hold(subscription, in: &upstream)
        lock.unlock()
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: NewPublisher) -> Subscribers.Demand {
        lock.lock()
        // Before the upstream's subscription, or after its end, a publisher is ignored (S2).
        guard isActive, upstreamSubscribed, !upstreamFinished else {
            lock.unlock()
            return .none
        }
        innerGeneration += 1
        let generation = innerGeneration
        let previous = NoSubscription.take(from: &innerSubscription)
        innerAttached = false
        hasInner = true
        lock.unlock()
        previous.cancel()
        input.receive(subscriber: Inner(parent: self, generation: generation))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // Before the upstream's subscription, or after its end, a completion is ignored (S2).
        guard isActive, upstreamSubscribed, !upstreamFinished else {
            lock.unlock()
            return
        }
        upstreamFinished = true
        let upstream = NoSubscription.take(from: &self.upstream)
        switch completion {
        case .finished:
            if hasInner {
                lock.unlock()
            } else {
                end(with: .finished)
            }
        case .failure:
            end(with: completion)
        }
        keepAlive(upstream)
    }

    // MARK: The inner publishers' signals

    /// The inner publisher of `generation` sent its subscription.
    @inlinable
    func innerSubscribed(_ subscription: any Subscription, generation: Int) {
        lock.lock()
        guard isActive, generation == innerGeneration, hasInner, !innerAttached else {
            lock.unlock()
            subscription.cancel()
            return
        }
        innerAttached = true
        NoSubscription.hold(subscription, in: &innerSubscription)
        let demand = self.demand
        lock.unlock()
        if demand != .none { subscription.request(demand) }
    }

    /// The inner publisher of `generation` sent a value; returns the demand to give it back.
    @inlinable
    func innerValue(_ value: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        // An inner's value before its subscription, or after its end, is ignored (S2).
        guard isActive, generation == innerGeneration, hasInner, innerAttached, demand != .none else {
            lock.unlock()
            return .none
        }
        demand -= 1
        guard !isDraining else {
            pending.append(value)
            lock.unlock()
            return .none
        }
        isDraining = true
        // Moved out for the call and back in after it (the token holder owns it): no retain
        // and release per value.
        let downstream = self.downstream.take().unsafelyUnwrapped
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        self.downstream = downstream
        var returned = Subscribers.Demand.none
        var forwards = false
        if more != .none && !isTerminated {
            self.demand += more
            if generation == innerGeneration {
                returned = more
            } else {
                // Switched meanwhile: the new inner publisher is owed this demand.
                forwards = innerAttached
            }
        }
        if pending.isEmpty && pendingCompletion == nil && !isTerminated && !forwards {
            isDraining = false
            lock.unlock()
            return returned
        }
        let forward: any Subscription = forwards ? innerSubscription : NoSubscription()
        lock.unlock()
        forward.request(more)
        lock.lock()
        drainLocked()
        return returned
    }

    /// The inner publisher of `generation` completed.
    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Failure>, generation: Int) {
        lock.lock()
        guard isActive, generation == innerGeneration, hasInner, innerAttached else {
            lock.unlock()
            return
        }
        hasInner = false
        innerAttached = false
        let ended = NoSubscription.take(from: &innerSubscription)
        switch completion {
        case .finished:
            if upstreamFinished {
                end(with: .finished)
            } else {
                lock.unlock()
            }
        case .failure:
            end(with: completion)
        }
        keepAlive(ended)
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: Combine's switchToLatest traps on `.none`; it is reported.
        guard demand.isValidRequest(of: "SwitchToLatest") else { return }
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        // Between inners there is none: the next one is asked for all that is outstanding.
        let inner = innerSubscription
        lock.unlock()
        inner.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        isTerminated = true
        isActive = false
        let upstream = NoSubscription.take(from: &self.upstream)
        let inner = NoSubscription.take(from: &innerSubscription)
        let queued = pending.takeAll()
        // The token holder is calling the downstream: it lets go of it when it sees the cancel.
        let downstream = isDraining ? nil : self.downstream.take()
        lock.unlock()
        upstream.cancel()
        inner.cancel()
        keepAlive(queued, downstream)
    }

    // MARK: Ending and delivering

    /// Decides the completion: cancels what is still live (after unlocking) and has the token
    /// holder deliver it, taking the token if it is free. Call with the lock held; returns with
    /// it released.
    @inlinable
    func end(with completion: Subscribers.Completion<Failure>) {
        isActive = false
        let upstream = NoSubscription.take(from: &self.upstream)
        let inner = NoSubscription.take(from: &innerSubscription)
        hasInner = false
        innerAttached = false
        // The queued values were all asked for (a value is queued only while the subscriber is
        // being called): they go down before the completion, a failure included.
        pendingCompletion = completion
        let mustDrain = !isDraining
        isDraining = true
        lock.unlock()
        upstream.cancel()
        inner.cancel()
        if mustDrain {
            lock.lock()
            drainLocked()
        }
    }

    /// The token holder's loop: delivers the queued values, in order (their demand was
    /// reserved as they came), then the decided completion. Demand the subscriber returns for a
    /// queued value goes on to the current inner publisher. Call with the lock held and the
    /// token taken; returns with the lock released, and the token given back (kept for good
    /// once the completion went out).
    @inlinable
    func drainLocked() {
        var returned = Subscribers.Demand.none
        while true {
            if isTerminated {  // cancelled while the token was held: the holder lets go
                let downstream = self.downstream.take()
                isDraining = false
                lock.unlock()
                keepAlive(downstream)
                return
            }
            if returned != .none {
                demand += returned
                if innerAttached {
                    let inner = innerSubscription
                    lock.unlock()
                    inner.request(returned)
                    returned = .none
                    lock.lock()
                    continue
                }
                returned = .none
            }
            if let value = pending.popFirst() {
                lock.unlock()
                returned = downstream.unsafelyUnwrapped.receive(value)
                lock.lock()
                continue
            }
            if let completion = pendingCompletion {
                pendingCompletion = nil
                isTerminated = true
                let downstream = self.downstream.take()
                lock.unlock()
                downstream?.receive(completion: completion)
                return  // nothing follows the completion: the token stays taken
            }
            isDraining = false
            lock.unlock()
            return
        }
    }

    /// The subscriber of one inner publisher: a struct stamped with the inner's generation, so
    /// nothing is allocated per inner and a late signal of an inner that was replaced or is
    /// over is told apart and ignored ([S2], [S4]). It holds this object strongly until the
    /// inner completes or is cancelled ([S7]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S7]: doc:/Contract/StreamContract#S7
    @usableFromInline
    struct Inner: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = NewPublisher.Output
        @usableFromInline typealias Failure = NewPublisher.Failure

        @usableFromInline let parent: SwitchToLatestSubscription
        @usableFromInline let generation: Int

        @inlinable
        init(parent: SwitchToLatestSubscription, generation: Int) {
            self.parent = parent
            self.generation = generation
        }

        /// The parent's: every inner of one stream is the same subscriber, as in Combine.
        @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }
        @usableFromInline var description: String { parent.description }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.innerSubscribed(subscription, generation: generation)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.innerValue(input, generation: generation)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.innerCompleted(completion, generation: generation)
        }
    }
}
