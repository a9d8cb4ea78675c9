// MARK: - switchToLatest

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Flattens a publisher of publishers by following only the latest one.
    ///
    /// Each publisher the upstream sends is subscribed at once, and the one before it is
    /// cancelled: only the newest inner publisher's values get through. The classic use is a
    /// search field: each query becomes a request publisher, and a new query cancels the
    /// request still running for the old one, so a slow old answer can never overwrite a newer
    /// one.
    ///
    /// <!-- marble switchToLatest: u in u[0].map { $0 == "a" ? u[1] : u[2] }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b------|
    /// a:        --1-2---3-|       (cancelled when b arrives, at tick 6: 3 never comes)
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8---|    (`;`: a is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest](marble-switchToLatest)
    ///
    /// ```swift
    /// let queries = PassthroughSubject<String, Never>()
    /// let c = queries
    ///     .map { query in [query + "1", query + "2"].publisher }
    ///     .switchToLatest()
    ///     .sink { print($0) }
    /// queries.send("cat")
    /// queries.send("dog")
    /// // Prints: cat1, cat2, dog1, dog2 (one per line)
    /// ```
    ///
    /// - Demand: asks the upstream for `.unlimited` (as Combine does) and counts the
    ///   subscriber's demand itself (requested plus returned, minus delivered). Requests go to
    ///   the current inner publisher; a new inner publisher is asked for everything still
    ///   outstanding, so switching never gives the inner publishers together more than the
    ///   subscriber asked for (S1). Asking for `.none` is an API violation (S9).
    /// - Completion: `.finished` once the upstream and the current inner publisher have both
    ///   finished. A failure of either cancels the other and goes down next (after a value sent
    ///   while the subscriber was being called, which waits for that call to return). What the upstream
    ///   or an inner publisher sends before its subscription or after its end is ignored, and a
    ///   second subscription is cancelled (S2).
    /// - Cancellation: cancels the upstream and the current inner publisher, and lets go of the
    ///   subscriber (S6, S7).
    /// - Threading: values are delivered on the thread of the inner publisher that sends them.
    ///   The upstream and the inner publishers may send from different threads; the subscriber
    ///   is still called by one thread at a time (S3): a value that arrives while another
    ///   thread is delivering is handed to that thread, which delivers it next.
    /// - Combine compatibility: as Combine. A value an inner publisher sends without demand
    ///   (which breaks S1) is dropped, where Combine stops the program.
    /// - Complexity: O(1) per value: the subscription's one lock, taken twice (before and after
    ///   the delivery).
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Flattens a publisher of publishers that cannot fail by following only the latest one;
    /// the inner publishers may fail.
    ///
    /// The upstream gets the inner publishers' failure type with `setFailureType(to:)`; see
    /// the general `switchToLatest()` for how it works.
    ///
    /// <!-- marble switchToLatest-neverFailingUpstream: u in u[0].assertNoFailure().map { $0 == "a" ? u[1] : u[2] }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b------|
    /// a:        --1-2---3-|
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8---|    (`;`: a is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest-neverFailingUpstream](marble-switchToLatest-neverFailingUpstream)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = ["a"].publisher
    ///     .map { Just($0).setFailureType(to: Offline.self) }
    ///     .switchToLatest()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: a
    /// //         finished
    /// ```
    ///
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general `switchToLatest()`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Flattens a publisher of publishers, none of which can fail, by following only the
    /// latest one.
    ///
    /// See the general `switchToLatest()` for how it works.
    ///
    /// <!-- marble switchToLatest-neverFailing: u in u[0].assertNoFailure().map { $0 == "a" ? u[1].assertNoFailure() : u[2].assertNoFailure() }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b------|
    /// a:        --1-2---3-|
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8---|    (`;`: a is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest-neverFailing](marble-switchToLatest-neverFailing)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.map { Just($0 * 10) }.switchToLatest().sink { print($0) }
    /// // Prints: 10, 20 (one per line)
    /// ```
    ///
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general `switchToLatest()`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Flattens a publisher of publishers that cannot fail by following only the latest one;
    /// the upstream may fail.
    ///
    /// Each inner publisher gets the upstream's failure type with `setFailureType(to:)`; see
    /// the general `switchToLatest()` for how it works.
    ///
    /// <!-- marble switchToLatest-upstreamFails: u in u[0].map { $0 == "a" ? u[1].assertNoFailure() : u[2].assertNoFailure() }.switchToLatest() -->
    /// ```text
    /// upstream: -a----b---^
    /// a:        --1-2---3-|
    /// b:        -------7-8-|
    ///           switchToLatest()
    /// output:   --1-2-;7-8[;^]    (`;`: a, then b, is cancelled)
    /// ```
    ///
    /// ![Marble diagram of switchToLatest-upstreamFails](marble-switchToLatest-upstreamFails)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = [1].publisher.setFailureType(to: Offline.self)
    ///     .map { Just($0) }
    ///     .switchToLatest()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1
    /// //         finished
    /// ```
    ///
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general `switchToLatest()`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Publishers.SetFailureType<Output, Failure>,
        Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>>
    {
        Publishers.SwitchToLatest(upstream: Publishers.Map(upstream: self) { Publishers.SetFailureType(upstream: $0) })
    }
}

extension Publishers {
    /// The publisher of ``Publisher/switchToLatest()-7j10o``: the values of the latest publisher the
    /// upstream has sent.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = P.Output
        /// The failure type of the upstream and the inner publishers.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates a publisher that follows the latest of `upstream`'s publishers.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: subscription)
        }
    }
}

extension Publishers.SwitchToLatest: Equatable where Upstream: Equatable {}
extension Publishers.SwitchToLatest: Sendable where Upstream: Sendable {}

// MARK: - Subscription

/// The subscription of `switchToLatest`: the subscriber to the upstream (of publishers), the
/// subscription the downstream receives, and, through ``SwitchToLatestInnerSubscriber``s
/// stamped with a generation, the subscriber to each inner publisher.
///
/// The downstream's demand is counted here (requested plus returned, minus delivered).
/// Requests go on to the current inner publisher; a new one is asked for all that is
/// outstanding when its subscription arrives. A value reserves one unit of demand as it comes
/// in, and one that finds no demand is dropped (only an inner publisher breaking S1 sends one),
/// so switching never lets more through than was asked for (S1).
///
/// Signals come from the upstream's thread and the current inner publisher's, which may
/// differ, and an old inner publisher may still be delivering when a new one starts. So the
/// downstream is called only by the holder of the *drain token* (`isDraining`): the thread
/// that finds it free takes it, delivers, and before giving it back delivers whatever other
/// threads queued meanwhile, in order, in a loop (S3, S8). Demand the downstream returns for a
/// queued value is requested from the current inner publisher. The completion goes through the
/// same token, after the queued values (every one of them was asked for), a failure too.
///
/// `cancel()` and the completion let go of the downstream, both subscriptions and the queue,
/// after unlocking (S7); the token holder lets go of the downstream if `cancel()` came while it
/// was delivering.
@usableFromInline
final class SwitchToLatestSubscription<Inner: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // all mutable state is guarded by `lock`
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
    @usableFromInline typealias Input = Inner
    @usableFromInline typealias Failure = Inner.Failure

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
    @exclusivity(unchecked) @usableFromInline var isDraining = false
    /// Values waiting for the token holder; their demand is already reserved.
    @exclusivity(unchecked) @usableFromInline var queue = FIFOQueue<Downstream.Input>()
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
        input.receive(subscriber: SwitchToLatestInnerSubscriber(parent: self, generation: generation))
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
    func innerSubscribed(_ subscription: any Subscription, generation: Int) {
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
    func innerValue(_ value: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        // An inner's value before its subscription, or after its end, is ignored (S2).
        guard isActive, generation == innerGeneration, hasInner, innerAttached, demand != .none else {
            lock.unlock()
            return .none
        }
        demand -= 1
        if isDraining {
            queue.append(value)
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
        if queue.isEmpty && pendingCompletion == nil && !isTerminated && forward == nil {
            isDraining = false
            lock.unlock()
            return returned
        }
        lock.unlock()
        forward?.request(more)
        lock.lock()
        drain()
        return returned
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Failure>, generation: Int) {
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
        let queued = queue.takeAll()
        // The token holder is calling the downstream: it lets go of it when it sees the cancel.
        let downstream = isDraining ? nil : self.downstream.take()
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
        let mustDrain = !isDraining
        isDraining = true
        lock.unlock()
        upstream?.cancel()
        inner?.cancel()
        if mustDrain {
            lock.lock()
            drain()
        }
    }

    /// Delivers queued values and a decided completion, in order, until nothing is left; then
    /// gives the token back. Call with the lock held and the token taken; returns with the lock
    /// released.
    @inlinable
    func drain() {
        while true {
            if isTerminated {
                isDraining = false
                let downstream = self.downstream.take()
                lock.unlock()
                _ = downstream
                return
            }
            if let completion = pendingCompletion {
                if queue.isEmpty {
                    pendingCompletion = nil
                    isTerminated = true
                    isDraining = false
                    let downstream = self.downstream.take()
                    lock.unlock()
                    downstream?.receive(completion: completion)
                    return
                }
            }
            guard let value = queue.popFirst() else {
                isDraining = false
                lock.unlock()
                return
            }
            let downstream = self.downstream.take().unsafelyUnwrapped
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            self.downstream = downstream
            if more != .none && !isTerminated {
                self.demand += more
                if let inner = innerSubscription {
                    lock.unlock()
                    inner.request(more)
                    lock.lock()
                }
            }
        }
    }
}

/// The subscriber `switchToLatest` subscribes each inner publisher with: it passes the
/// signals on, stamped with the inner publisher's generation. A struct: nothing is allocated
/// per inner publisher.
@usableFromInline
struct SwitchToLatestInnerSubscriber<Inner: Publisher, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
    @usableFromInline typealias Input = Inner.Output
    @usableFromInline typealias Failure = Inner.Failure

    @usableFromInline let parent: SwitchToLatestSubscription<Inner, Downstream>
    @usableFromInline let generation: Int

    @inlinable
    init(parent: SwitchToLatestSubscription<Inner, Downstream>, generation: Int) {
        self.parent = parent
        self.generation = generation
    }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }
    @usableFromInline var description: String { "SwitchToLatest" }

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
