/// The subscription of `switchToLatest`: the subscriber to the upstream (of publishers), the
/// subscription the downstream receives, and, through ``InnerSubscriber``s stamped with a
/// generation (the slot is always 0: one inner at a time), the subscriber to each inner
/// publisher.
///
/// The downstream's demand is counted here (requested plus returned, minus delivered).
/// Requests go on to the current inner publisher; a new one is asked for all that is
/// outstanding when its subscription arrives. A value reserves one unit of demand as it comes
/// in, and one that finds no demand is dropped (only an inner publisher breaking [S1] sends one),
/// so switching never lets more through than was asked for ([S1]).
///
/// Signals come from the upstream's thread and the current inner publisher's, which may
/// differ, and an old inner publisher may still be delivering when a new one starts. So the
/// downstream is called only by the holder of the *drain token* (``SerialDelivery``: `serial`
/// holds the token and the queue): the thread that finds it free takes it, delivers, and before
/// giving it back delivers whatever other threads queued meanwhile, in order, in a loop ([S3], [S8]). Demand the downstream returns for a
/// queued value is requested from the current inner publisher. The completion goes through the
/// same token, after the queued values (every one of them was asked for), a failure too.
///
/// `cancel()` and the completion let go of the downstream, both subscriptions and the queue,
/// after unlocking ([S7]); the token holder lets go of the downstream if `cancel()` came while it
/// was delivering.
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class SwitchToLatestSubscription<Inner: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, InnerSubscriberParent, FlatteningSubscription, CustomStringConvertible,
    @unchecked Sendable  // all mutable state is guarded by `lock`
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
    @usableFromInline typealias Input = Inner
    @usableFromInline typealias Failure = Inner.Failure
    @usableFromInline typealias InnerInput = Inner.Output
    @usableFromInline typealias InnerFailure = Inner.Failure
    @usableFromInline typealias Item = Downstream.Input
    @usableFromInline typealias Delivery = FlatteningDelivery<Downstream, Downstream.Input>

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)`: every access is under `lock`; the runtime's dynamic check
    // would only add cost per value.
    /// Owned by the token holder while the token is taken; `nil` once the stream is over.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    /// Whether the upstream has sent its subscription (a second one is cancelled).
    @exclusivity(unchecked) @usableFromInline var upstreamSubscribed = false
    @exclusivity(unchecked) @usableFromInline var upstreamFinished = false
    /// The generation of the latest inner publisher; signals stamped otherwise are ignored.
    @exclusivity(unchecked) @usableFromInline var innerGeneration = 0
    /// Whether the latest inner publisher is live (subscribed and not yet completed).
    @exclusivity(unchecked) @usableFromInline var hasInner = false
    /// The latest inner publisher's subscription, once it has arrived.
    @exclusivity(unchecked) @usableFromInline var innerSubscription: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline var innerAttached = false
    /// The downstream's outstanding demand, less the values queued for delivery.
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// Values waiting for the token holder (their demand is already reserved), and the token.
    @exclusivity(unchecked) @usableFromInline var serial = SerialQueue<Downstream.Input>()
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
        upstream = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Inner) -> Subscribers.Demand {
        lock.lock()
        // Before the upstream's subscription, or after its end, a publisher is ignored (S2).
        guard isActive, upstreamSubscribed, !upstreamFinished else {
            lock.unlock()
            return .none
        }
        innerGeneration += 1
        let generation = innerGeneration
        let previous = innerSubscription.take()
        innerAttached = false
        hasInner = true
        lock.unlock()
        previous?.cancel()
        input.receive(subscriber: InnerSubscriber(parent: self, slot: 0, generation: generation))
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
        let upstream = self.upstream.take()
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
        _ = upstream
    }

    // MARK: The inner publishers' signals

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, slot: Int, generation: Int) {
        lock.lock()
        guard isActive, generation == innerGeneration, hasInner, !innerAttached else {
            lock.unlock()
            subscription.cancel()
            return
        }
        innerAttached = true
        innerSubscription = subscription
        let demand = self.demand
        lock.unlock()
        if demand != .none { subscription.request(demand) }
    }

    @inlinable
    func innerValue(_ value: Downstream.Input, slot: Int, generation: Int) -> Subscribers.Demand {
        lock.lock()
        // An inner's value before its subscription, or after its end, is ignored (S2).
        guard isActive, generation == innerGeneration, hasInner, innerAttached, demand != .none else {
            lock.unlock()
            return .none
        }
        demand -= 1
        guard serial.takeToken() else {
            serial.pending.append(value)
            lock.unlock()
            return .none
        }
        // Moved out for the call and back in after it (the token holder owns it): no retain
        // and release per value.
        let downstream = self.downstream.take().unsafelyUnwrapped
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        self.downstream = downstream
        var returned = Subscribers.Demand.none
        var forward: (any Subscription)?
        if more != .none && !isTerminated {
            self.demand += more
            if generation == innerGeneration {
                returned = more
            } else {
                // Switched meanwhile: the new inner publisher is owed this demand.
                forward = innerSubscription
            }
        }
        if serial.pending.isEmpty && pendingCompletion == nil && !isTerminated && forward == nil {
            serial.isDraining = false
            lock.unlock()
            return returned
        }
        lock.unlock()
        forward?.request(more)
        lock.lock()
        drainLocked()
        return returned
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Failure>, slot: Int, generation: Int) {
        lock.lock()
        guard isActive, generation == innerGeneration, hasInner, innerAttached else {
            lock.unlock()
            return
        }
        hasInner = false
        innerAttached = false
        let ended = innerSubscription.take()
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
        _ = ended
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
        let inner = innerSubscription
        lock.unlock()
        inner?.request(demand)
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
        let upstream = self.upstream.take()
        let inner = innerSubscription.take()
        let queued = serial.pending.takeAll()
        // The token holder is calling the downstream: it lets go of it when it sees the cancel.
        let downstream = serial.isDraining ? nil : self.downstream.take()
        lock.unlock()
        upstream?.cancel()
        inner?.cancel()
        _ = (queued, downstream)
    }

    // MARK: Ending and delivering

    /// Decides the completion: cancels what is still live (after unlocking) and has the token
    /// holder deliver it, taking the token if it is free. Call with the lock held; returns with
    /// it released.
    @inlinable
    func end(with completion: Subscribers.Completion<Failure>) {
        isActive = false
        let upstream = self.upstream.take()
        let inner = innerSubscription.take()
        hasInner = false
        // The queued values were all asked for (a value is queued only while the subscriber is
        // being called): they go down before the completion, a failure included.
        pendingCompletion = completion
        let mustDrain = serial.takeToken()
        lock.unlock()
        upstream?.cancel()
        inner?.cancel()
        if mustDrain {
            lock.lock()
            drainLocked()
        }
    }

    // MARK: SerialDelivery

    /// What the token holder delivers next: the queued values, in order (their demand was
    /// reserved as they came), then the decided completion. Demand the subscriber returns for a
    /// queued value goes on to the current inner publisher.
    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<FlatteningDelivery<Downstream, Downstream.Input>> {
        if isTerminated { return .stop(.letGo(downstream.take())) }
        if returned != .none {
            demand += returned
            if let inner = innerSubscription { return .deliver(.request(inner, returned)) }
        }
        if let value = serial.pending.popFirst() { return .deliver(.value(value, next: nil)) }
        if let completion = pendingCompletion {
            pendingCompletion = nil
            isTerminated = true
            return .deliver(.end(completion, downstream.take(), FIFOQueue()))
        }
        return .stop(nil)
    }
}
