// MARK: - flatMap

extension Publisher {
    /// Turns each value into a publisher and merges the values of all those publishers into
    /// one stream.
    ///
    /// For each upstream value, `transform` makes an inner publisher, which is subscribed at
    /// once; the values of all live inner publishers are sent on as they come, interleaved.
    /// `maxPublishers` limits how many inner publishers are live at once: the upstream is asked
    /// for that many values, and for one more each time an inner publisher finishes. The
    /// stream finishes once the upstream and every inner publisher have finished.
    ///
    /// <!-- marble flatMap: u in u[0].flatMap { $0 == "a" ? u[1] : u[2] } -->
    /// ```text
    /// upstream: -a---b-------|
    /// a:        --1---2-|
    /// b:        ------7---8-|
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]---8--|
    /// ```
    ///
    /// ![Marble diagram of flatMap](marble-flatMap)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher
    ///     .flatMap { n in [n, n * 10].publisher }
    ///     .sink { print($0) }
    /// // Prints: 1, 10, 2, 20, 3, 30 (one per line)
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: How many inner publishers may be live at once; `.unlimited` by
    ///     default.
    ///   - transform: Makes the inner publisher for an upstream value.
    /// - Demand: the upstream is asked for `maxPublishers` values when it subscribes, and for
    ///   one more each time an inner publisher finishes (not at all for `.none`). The
    ///   subscriber's demand is shared by the inner publishers without ever being exceeded
    ///   (S1): each inner publisher is asked for one value at a time, and again once that value
    ///   is delivered; a value that finds no demand waits, one per inner publisher, until the
    ///   subscriber asks for more. Once the subscriber's demand is `.unlimited`, every inner
    ///   publisher is asked for `.unlimited`. Asking for `.none` is an API violation (S9).
    /// - Completion: `.finished` once the upstream and all inner publishers have finished and
    ///   every waiting value is delivered. The first failure, of the upstream or of an inner
    ///   publisher, cancels the upstream and every other inner publisher and goes down next: after
    ///   the values the subscriber had already asked for (a value sent while the subscriber was
    ///   being called waits for that call to return, S11), and instead of the values still
    ///   waiting for demand, which are dropped. What the upstream or an inner publisher sends before its
    ///   subscription or after its end is ignored, and a second subscription is cancelled (S2).
    /// - Cancellation: cancels the upstream and every inner publisher, and lets go of the
    ///   subscriber, `transform` and the waiting values (S6, S7).
    /// - Threading: `transform` runs on the upstream's thread; values are delivered on the
    ///   thread of the inner publisher that sends them. Inner publishers may send from several
    ///   threads at once; the subscriber is still called by one thread at a time (S3): a value
    ///   that arrives while another thread is delivering is handed to that thread, which
    ///   delivers it next, and the sending thread returns at once.
    /// - Combine compatibility: as Combine (the same demand asked of the upstream and of each
    ///   inner publisher, one waiting value per inner publisher, values still waiting for
    ///   demand dropped on failure), with two differences. When an inner publisher fails, Combine leaves the
    ///   upstream subscription uncancelled; here it is cancelled, as every publisher that ends
    ///   early does (S15). With `maxPublishers: .none`, Combine requests `.none` from the
    ///   upstream, an API violation here (S9); nothing is requested instead.
    /// - Complexity: O(1) per value and per inner publisher. No object is allocated per inner
    ///   publisher (its state is a slot in the subscription, reused once the inner is over; a
    ///   slot array is allocated only once two inners are live at once). One lock guards it
    ///   all; a value delivered at once takes it twice (before and after the delivery).
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Turns each value into a publisher that cannot fail and merges their values; the
    /// upstream may fail.
    ///
    /// Each inner publisher gets the upstream's failure type with `setFailureType(to:)`; see
    /// the general `flatMap(maxPublishers:_:)` for how it works.
    ///
    /// <!-- marble flatMap-upstreamFails: u in u[0].flatMap { $0 == "a" ? u[1] : u[2] } -->
    /// ```text
    /// upstream: -a---b---^
    /// a:        --1---2-|
    /// b:        ------7---8-|
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]--[;^]     (`;`: b is cancelled)
    /// ```
    ///
    /// ![Marble diagram of flatMap-upstreamFails](marble-flatMap-upstreamFails)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = [1, 2].publisher.setFailureType(to: Offline.self)
    ///     .flatMap { Just($0 * 10) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 10
    /// //         20
    /// //         finished
    /// ```
    ///
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general
    ///   `flatMap(maxPublishers:_:)`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            Publishers.SetFailureType(upstream: transform($0))
        }
    }
}

extension Publisher where Failure == Never {
    /// Turns each value of a publisher that cannot fail into a publisher and merges their
    /// values; the inner publishers may fail.
    ///
    /// The upstream gets the inner publishers' failure type with `setFailureType(to:)`; see
    /// the general `flatMap(maxPublishers:_:)` for how it works.
    ///
    /// <!-- marble flatMap-innerFails: u in u[0].flatMap { $0 == "a" ? u[1] : u[2] } -->
    /// ```text
    /// upstream: -a---b-------|
    /// a:        --1---2-|
    /// b:        ------7-^
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]-[;^]      (`;`: the upstream is cancelled)
    /// ```
    ///
    /// ![Marble diagram of flatMap-innerFails](marble-flatMap-innerFails)
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let c = ["a", "b"].publisher
    ///     .flatMap { _ in Fail<String, Offline>(error: Offline()) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Offline())
    /// ```
    ///
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general
    ///   `flatMap(maxPublishers:_:)`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers,
                           transform: transform)
    }

    /// Turns each value into a publisher and merges their values; nothing can fail.
    ///
    /// See the general `flatMap(maxPublishers:_:)` for how it works.
    ///
    /// <!-- marble flatMap-never: u in u[0].assertNoFailure().flatMap { $0 == "a" ? u[1].assertNoFailure() : u[2].assertNoFailure() } -->
    /// ```text
    /// upstream: -a---b-------|
    /// a:        --1---2-|
    /// b:        ------7---8-|
    ///           flatMap { $0 == "a" ? a : b }
    /// output:   --1---[27]---8--|
    /// ```
    ///
    /// ![Marble diagram of flatMap-never](marble-flatMap-never)
    ///
    /// ```swift
    /// let c = (1...3).publisher.flatMap { Just($0 * 2) }.sink { print($0) }
    /// // Prints: 2, 4, 6 (one per line)
    /// ```
    ///
    /// - Demand, Completion, Cancellation, Threading, Complexity: as for the general
    ///   `flatMap(maxPublishers:_:)`.
    /// - Combine compatibility: as Combine.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/flatMap(maxPublishers:_:)-60vvr``: the merged values of the
    /// publishers a closure makes of the upstream's values.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = NewPublisher.Output
        /// The failure type of the upstream and the inner publishers.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are turned into publishers.
        public let upstream: Upstream
        /// How many inner publishers may be live at once.
        public let maxPublishers: Subscribers.Demand
        /// Makes the inner publisher for an upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that merges the publishers `transform` makes of `upstream`'s
        /// values, at most `maxPublishers` at a time.
        @inlinable
        public init(upstream: Upstream, maxPublishers: Subscribers.Demand,
                    transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapSubscription<Upstream.Output, NewPublisher, S>(
                downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: subscription)
        }
    }
}

// MARK: - Subscription

/// The subscription of `flatMap`: the subscriber to the upstream, the subscription the
/// downstream receives, and the hub of the inner publishers, each subscribed with a
/// ``FlatMapInnerSubscriber`` that names its slot here.
///
/// One lock guards everything, the inners' state included. An inner's state is a slot (its
/// subscription, and whether it was asked for `.unlimited`): slot 0 is `firstSlot`, stored
/// inline, the others are in `otherSlots`, allocated only once two inners are live at once. A
/// slot is reused once its inner is over, under a new generation, so a late signal of the
/// inner that had it before is told apart. No object is allocated per inner publisher.
///
/// The downstream's demand is counted here (requested plus returned, minus delivered). Each
/// inner publisher is asked for one value at a time (for `.unlimited` once the downstream's
/// demand is): a value is delivered if there is demand and the inner is asked for the next,
/// or it waits in `buffer`, and the inner is asked for the next once it has gone out. So at
/// most one value per inner waits (more only from an inner publisher that breaks S1), and the
/// downstream never gets more than it asked for (S1).
///
/// Values come from the inner publishers' threads, the completion from the upstream's or an
/// inner's. The downstream is called only by the holder of the *drain token* (`isDraining`),
/// who owns `downstream` while it holds the token: the thread that finds the token free (and
/// demand, so nothing waits) delivers its value in place; one that finds it taken queues the
/// value and returns at once, and the holder delivers it before giving the token back (S3). A
/// request from inside `receive(_:)` only adds to the count, and the holder's loop carries on,
/// so the stack does not grow (S8). The completion goes through the token too: `.finished`
/// after the waiting values; a failure after the values the subscriber had asked for when it
/// came, before the others (they are dropped, as in Combine).
///
/// `cancel()` and the completion let go of the downstream, the upstream and inner
/// subscriptions, `transform` and the waiting values, after unlocking (S7); if `cancel()`
/// comes while the token holder is delivering, the holder lets go of the downstream when it
/// is done. An inner publisher holds this object through its subscriber until it completes
/// or is cancelled; the ending cancels every inner still live.
@usableFromInline
final class FlatMapSubscription<UpstreamOutput, NewPublisher: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // all mutable state, the inners' slots included, is guarded by `lock`
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    @usableFromInline typealias Input = UpstreamOutput
    @usableFromInline typealias Failure = NewPublisher.Failure
    @usableFromInline typealias Inner = FlatMapInnerSubscriber<UpstreamOutput, NewPublisher, Downstream>

    /// A value waiting to go down, and the inner that sent it.
    @usableFromInline
    struct Waiting {
        @usableFromInline let value: Downstream.Input
        @usableFromInline let slot: Int
        @usableFromInline let generation: Int

        @inlinable
        init(value: Downstream.Input, slot: Int, generation: Int) {
            self.value = value
            self.slot = slot
            self.generation = generation
        }
    }

    @usableFromInline let lock = Lock()
    @usableFromInline let maxPublishers: Subscribers.Demand
    // `@exclusivity(unchecked)`: every access is under `lock` (or, for `downstream`, by the
    // token holder); the runtime's dynamic check would only add cost per value.
    /// Owned by the token holder while the token is taken; `nil` once the stream is over.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    @exclusivity(unchecked) @usableFromInline var transform: ((UpstreamOutput) -> NewPublisher)?
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    /// Whether the upstream has sent its subscription (a second one is cancelled).
    @exclusivity(unchecked) @usableFromInline var upstreamSubscribed = false
    @exclusivity(unchecked) @usableFromInline var upstreamFinished = false
    /// Slot 0, inline: a flatMap whose inners come one after another allocates no slot array.
    @exclusivity(unchecked) @usableFromInline var firstSlot = FlatMapInnerSlot()
    /// Slots 1, 2, ...: slot `i` is `otherSlots[i - 1]`.
    @exclusivity(unchecked) @usableFromInline var otherSlots: ContiguousArray<FlatMapInnerSlot> = []
    /// Freed slots, reused last freed first. While `otherSlots` is empty it stays empty: slot 0
    /// is then the only slot, free when not live.
    @exclusivity(unchecked) @usableFromInline var freeSlots: ContiguousArray<Int> = []
    @exclusivity(unchecked) @usableFromInline var liveInners = 0
    /// The downstream's outstanding demand.
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// Values waiting for demand or for the token holder.
    @exclusivity(unchecked) @usableFromInline var buffer = FIFOQueue<Waiting>()
    @exclusivity(unchecked) @usableFromInline var isDraining = false
    /// The completion the token holder is to deliver; its failure, a `Failure`, is kept as
    /// `any Error`. (Of type `Completion<Failure>?`, the field cost the class's deinit, which
    /// is never specialized, two generic metadata lookups per subscription.)
    @exclusivity(unchecked) @usableFromInline var pendingCompletion: Subscribers.Completion<any Error>?
    /// `false` once a completion is decided or the downstream cancelled: signals are ignored.
    @exclusivity(unchecked) @usableFromInline var isActive = true
    /// The completion was delivered or the downstream cancelled: nothing more goes out.
    @exclusivity(unchecked) @usableFromInline var isTerminated = false

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand,
         transform: @escaping (UpstreamOutput) -> NewPublisher) {
        self.downstream = downstream
        self.maxPublishers = maxPublishers
        self.transform = transform
    }

    @usableFromInline var description: String { "FlatMap" }

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
        if maxPublishers != .none { subscription.request(maxPublishers) }
    }

    @inlinable
    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        lock.lock()
        // Before the upstream's subscription, or after its end, a value is ignored (S2).
        guard isActive, upstreamSubscribed, let transform else {
            lock.unlock()
            return .none
        }
        let slot = takeSlot()
        let generation = withSlot(slot) {
            $0.generation &+= 1
            $0.isLive = true
            return $0.generation
        }
        liveInners += 1
        lock.unlock()
        transform(input).receive(subscriber: Inner(parent: self, slot: slot, generation: generation))
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
        let transform = self.transform.take()
        switch completion {
        case .finished:
            if liveInners == 0 {
                end(with: .finished)
            } else {
                lock.unlock()
            }
        case .failure:
            end(with: completion)
        }
        _ = (upstream, transform)
    }

    // MARK: The inner publishers' signals

    /// Whether `slot` still belongs to the inner of `generation`, and that inner has sent its
    /// subscription: only then are its value and completion taken (S2). Call with the lock held.
    @inlinable
    func isLive(_ slot: Int, _ generation: Int) -> Bool {
        withSlot(slot) { $0.isLive && $0.isSubscribed && $0.generation == generation }
    }

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, slot: Int, generation: Int) {
        lock.lock()
        guard isActive, withSlot(slot, { $0.isLive && $0.generation == generation && !$0.isSubscribed }) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let unlimited = demand == .unlimited
        withSlot(slot) {
            $0.isSubscribed = true
            $0.subscription = subscription
            $0.isUnlimited = unlimited
        }
        lock.unlock()
        subscription.request(unlimited ? .unlimited : .max(1))
    }

    @inlinable
    func innerValue(_ value: Downstream.Input, slot: Int, generation: Int) -> Subscribers.Demand {
        lock.lock()
        guard isActive, isLive(slot, generation) else {
            lock.unlock()
            return .none
        }
        // Nothing waits while the token is free and there is demand, so a value delivered in
        // place never overtakes a waiting one.
        if isDraining || demand == .none {
            buffer.append(Waiting(value: value, slot: slot, generation: generation))
            lock.unlock()
            return .none
        }
        isDraining = true
        demand -= 1
        // Moved out for the call and back in after it (the token holder owns it): no retain
        // and release per value.
        let downstream = self.downstream.take().unsafelyUnwrapped
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        self.downstream = downstream
        var unlimiting: ContiguousArray<any Subscription>?
        if more != .none && !isTerminated { unlimiting = addDemand(more) }
        // The value used the inner's one unit of demand: ask it for the next.
        let next: Subscribers.Demand = withSlot(slot) {
            $0.isLive && $0.generation == generation && !$0.isUnlimited ? .max(1) : .none
        }
        if buffer.isEmpty && pendingCompletion == nil && !isTerminated && unlimiting == nil {
            isDraining = false
            lock.unlock()
            return next
        }
        lock.unlock()
        if let unlimiting { for subscription in unlimiting { subscription.request(.unlimited) } }
        lock.lock()
        drain()
        return next
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Failure>, slot: Int, generation: Int) {
        lock.lock()
        guard isActive, isLive(slot, generation) else {
            lock.unlock()
            return
        }
        let ended = release(slot)
        switch completion {
        case .finished:
            let upstream = upstreamFinished || maxPublishers == .unlimited ? nil : self.upstream
            if upstreamFinished && liveInners == 0 {
                end(with: .finished)
            } else {
                lock.unlock()
            }
            upstream?.request(.max(1))
        case .failure:
            end(with: completion)
        }
        _ = ended
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: Combine's flatMap traps on `.none`; it is reported.
        guard demand.isValidRequest(of: "FlatMap") else { return }
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        let unlimiting = addDemand(demand)
        let mustDrain = !isDraining && !buffer.isEmpty
        if mustDrain { isDraining = true }
        lock.unlock()
        if let unlimiting { for subscription in unlimiting { subscription.request(.unlimited) } }
        if mustDrain {
            lock.lock()
            drain()
        }
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
        let subscriptions = releaseAll()
        let upstream = self.upstream.take()
        let transform = self.transform.take()
        let waiting = buffer.takeAll()
        // The token holder owns the downstream: it lets go of it when it sees the cancel.
        let downstream = isDraining ? nil : self.downstream.take()
        lock.unlock()
        upstream?.cancel()
        for subscription in subscriptions { subscription.cancel() }
        _ = (transform, waiting, downstream)
    }

    // MARK: Bookkeeping (lock held)

    /// Adds to the downstream's demand. When that makes it `.unlimited`, marks every live
    /// inner unlimited and returns their subscriptions, to be asked for `.unlimited` after
    /// unlocking.
    @inlinable
    func addDemand(_ more: Subscribers.Demand) -> ContiguousArray<any Subscription>? {
        if demand == .unlimited { return nil }
        demand += more
        guard demand == .unlimited else { return nil }
        var subscriptions = ContiguousArray<any Subscription>()
        for slot in 0...otherSlots.count {
            // One without its subscription yet asks for `.unlimited` when it gets it.
            let subscription = withSlot(slot) { inner -> (any Subscription)? in
                guard inner.isLive, !inner.isUnlimited, let subscription = inner.subscription else { return nil }
                inner.isUnlimited = true
                return subscription
            }
            if let subscription { subscriptions.append(subscription) }
        }
        return subscriptions
    }

    /// Frees the slot of an inner that is over; returns its subscription, to be let go after
    /// unlocking.
    @inlinable
    func release(_ slot: Int) -> (any Subscription)? {
        liveInners -= 1
        if !otherSlots.isEmpty { freeSlots.append(slot) }
        return withSlot(slot) {
            $0.isLive = false
            $0.isSubscribed = false
            $0.isUnlimited = false
            return $0.subscription.take()
        }
    }

    /// Runs `body` on slot `slot`: `firstSlot` or one of `otherSlots`. (Not a `_modify`
    /// subscript: its coroutine frame was allocated on the heap.)
    @inlinable @inline(__always)
    func withSlot<Result>(_ slot: Int, _ body: (inout FlatMapInnerSlot) -> Result) -> Result {
        slot == 0 ? body(&firstSlot) : body(&otherSlots[slot - 1])
    }

    /// A free slot for a new inner: the last one freed, or a new one.
    @inlinable
    func takeSlot() -> Int {
        if otherSlots.isEmpty && !firstSlot.isLive { return 0 }
        if let free = freeSlots.popLast() { return free }
        otherSlots.append(FlatMapInnerSlot())
        return otherSlots.count
    }

    /// Frees every live inner's slot; returns their subscriptions, to be cancelled after
    /// unlocking.
    @inlinable
    func releaseAll() -> ContiguousArray<any Subscription> {
        var subscriptions = ContiguousArray<any Subscription>()
        for slot in 0...otherSlots.count where withSlot(slot, { $0.isLive }) {
            if let subscription = release(slot) { subscriptions.append(subscription) }
        }
        return subscriptions
    }

    // MARK: Ending and delivering

    /// Decides the completion: the upstream and every live inner are cancelled (after
    /// unlocking), and the token holder delivers it, this thread if the token is free. Call
    /// with the lock held; returns with it released.
    @inlinable
    func end(with completion: Subscribers.Completion<Failure>) {
        isActive = false
        let subscriptions = releaseAll()
        let upstream = self.upstream.take()
        let transform = self.transform.take()
        var dropped = FIFOQueue<Waiting>()
        if case .failure = completion {
            // Values the subscriber has asked for (held only because it was being called) go
            // down before the failure; values waiting for demand are dropped.
            dropped = buffer.takeAll()
            var owed = demand
            while owed > .none, let waiting = dropped.popFirst() {
                buffer.append(waiting)
                owed -= 1
            }
        }
        pendingCompletion = switch completion {
        case .finished: .finished
        case .failure(let failure): .failure(failure)
        }
        let mustDrain = !isDraining
        isDraining = true
        lock.unlock()
        // Cancelled before the failure goes down, as Combine does.
        upstream?.cancel()
        for subscription in subscriptions { subscription.cancel() }
        _ = (transform, dropped)
        if mustDrain {
            lock.lock()
            drain()
        }
    }

    /// Delivers waiting values as demand allows, and a decided completion, in order, until
    /// nothing more can go; then gives the token back. Call with the lock held and the token
    /// taken; returns with the lock released.
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
            if let pending = pendingCompletion {
                let completion: Subscribers.Completion<Failure>? = switch pending {
                case .failure(let failure):  // stored from a `Failure`
                    buffer.isEmpty || demand == .none ? .failure(failure as! Failure) : nil
                case .finished: buffer.isEmpty ? .finished : nil
                }
                if let completion {
                    pendingCompletion = nil
                    isTerminated = true
                    isDraining = false
                    let downstream = self.downstream.take()
                    let dropped = buffer.takeAll()
                    lock.unlock()
                    _ = dropped
                    downstream?.receive(completion: completion)
                    return
                }
            }
            guard demand != .none, let waiting = buffer.popFirst() else {
                isDraining = false
                lock.unlock()
                return
            }
            demand -= 1
            // The value waited with its inner's demand used up: ask the inner for the next.
            let next = withSlot(waiting.slot) {
                $0.isLive && $0.generation == waiting.generation && !$0.isUnlimited ? $0.subscription : nil
            }
            let downstream = self.downstream.take().unsafelyUnwrapped
            lock.unlock()
            let more = downstream.receive(waiting.value)
            next?.request(.max(1))
            lock.lock()
            self.downstream = downstream
            if more != .none && !isTerminated, let unlimiting = addDemand(more) {
                lock.unlock()
                for subscription in unlimiting { subscription.request(.unlimited) }
                lock.lock()
            }
        }
    }
}

/// One inner publisher's state in a ``FlatMapSubscription``, guarded by its lock.
@usableFromInline
struct FlatMapInnerSlot {
    @usableFromInline var subscription: (any Subscription)?
    /// Counts the inners that had this slot; the live one's signals carry it.
    @usableFromInline var generation = 0
    @usableFromInline var isLive = false
    @usableFromInline var isSubscribed = false
    @usableFromInline var isUnlimited = false

    @inlinable
    init() {}
}

/// The subscriber `flatMap` subscribes each inner publisher with: it passes the inner's
/// signals on, with the slot and generation that name the inner. A struct: nothing is
/// allocated per inner publisher.
@usableFromInline
struct FlatMapInnerSubscriber<UpstreamOutput, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    @usableFromInline typealias Input = NewPublisher.Output
    @usableFromInline typealias Failure = NewPublisher.Failure

    @usableFromInline let parent: FlatMapSubscription<UpstreamOutput, NewPublisher, Downstream>
    @usableFromInline let slot: Int
    @usableFromInline let generation: Int

    @inlinable
    init(parent: FlatMapSubscription<UpstreamOutput, NewPublisher, Downstream>, slot: Int, generation: Int) {
        self.parent = parent
        self.slot = slot
        self.generation = generation
    }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }
    @usableFromInline var description: String { "FlatMap" }

    @inlinable
    func receive(subscription: any Subscription) {
        parent.innerSubscribed(subscription, slot: slot, generation: generation)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.innerValue(input, slot: slot, generation: generation)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        parent.innerCompleted(completion, slot: slot, generation: generation)
    }
}
