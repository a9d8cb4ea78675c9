import Synchronization

/// The engine of `flatMap` (`Sources/Streams/Combining/Publishers.FlatMap.swift`): the
/// subscriber to the upstream, the subscription the downstream receives, and the hub of the
/// inner publishers, each subscribed with an ``Inner`` that names its slot here. This file is
/// the general path, whole; the fast path is FlatMapInPlace.swift, behind one seam (below).
///
/// **State.** An inner's state is a slot (``FlatMapInnerSlot``), reused once its inner is over
/// under a new generation, so that a late signal of the inner that had it before is told apart.
/// A subscription that may not be there yet (the upstream's, a slot's) is a ``NoSubscription``
/// until it is, a flag saying which: every engine's idiom (NoSubscription.swift).
///
/// **Demand.** The downstream's demand is counted here (requested plus returned, minus
/// delivered). Each inner is asked for one value at a time (for `.unlimited` once the
/// downstream's demand is), and asked for the next once its value has gone down: at most one
/// value per inner waits (in `pending`), and the downstream never gets more than it asked ([S1]).
///
/// **Locking and delivery.** One lock guards everything and is never held while calling out.
/// Only the holder of the drain token (`token`, a ``DrainToken``, taken and given back under the
/// lock) calls the downstream, and owns `downstream` meanwhile; a thread that finds it taken
/// queues its value for the holder (``drainLocked()``, [S3]). A request from inside `receive(_:)`
/// only adds to the count ([S8]). The end lets go of everything after unlocking ([S7]).
///
/// **The seam.** In ``receive(_:)``, a thread that finds the token free keeps it while it calls
/// `transform` and subscribes the new inner *in place* (``subscribeInPlace(_:)``); what that
/// inner sends on this thread meanwhile takes the fast path (``isInPlace(_:_:)``, first thing in
/// the inner's signals). No-ops unless an inner is subscribed in place: ``commitInPlaceLocked()``,
/// first thing under the lock (it makes that inner an ordinary live one), and
/// ``takeTransformLocked()`` wherever `transform` is let go of.
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class FlatMapSubscription<UpstreamOutput, NewPublisher: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // every `var` is guarded by `lock` (the `inPlace…` ones: see FlatMapInPlace.swift)
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    @usableFromInline typealias Input = UpstreamOutput
    @usableFromInline typealias Failure = NewPublisher.Failure
    /// A value waiting to go down, and the inner that sent it.
    @usableFromInline typealias Waiting = (value: Downstream.Input, slot: Int, generation: Int)

    @usableFromInline let lock = Lock()
    @usableFromInline let maxPublishers: Subscribers.Demand
    // `@exclusivity(unchecked)`: every access is under `lock` (or by the token holder, or in place).
    /// Owned by the token holder while the token is taken; `nil` once the stream is over.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    @exclusivity(unchecked) @usableFromInline var transform: ((UpstreamOutput) -> NewPublisher)?
    /// The upstream's subscription once `upstreamSubscribed` and until the upstream is over.
    @exclusivity(unchecked) @usableFromInline var upstream: any Subscription = NoSubscription()
    /// Whether the upstream has sent its subscription (a second one is cancelled).
    @exclusivity(unchecked) @usableFromInline var upstreamSubscribed = false
    @exclusivity(unchecked) @usableFromInline var upstreamFinished = false
    /// Slot 0, inline; slots 1, 2, ... (slot `i` is `otherSlots[i - 1]`) are allocated only once
    /// two inners are live at once.
    @exclusivity(unchecked) @usableFromInline var firstSlot = FlatMapInnerSlot()
    @exclusivity(unchecked) @usableFromInline var otherSlots: ContiguousArray<FlatMapInnerSlot> = []
    /// Freed slots, last freed first; empty while `otherSlots` is (slot 0 is then free unless live).
    @exclusivity(unchecked) @usableFromInline var freeSlots: ContiguousArray<Int> = []
    @exclusivity(unchecked) @usableFromInline var liveInners = 0
    /// The downstream's outstanding demand.
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// Values waiting for demand or for the token holder.
    @exclusivity(unchecked) @usableFromInline var pending = FIFOQueue<Waiting>()
    @usableFromInline let token = DrainToken(held: false)
    /// The completion the token holder is to deliver (a `Failure`, kept as `any Error`).
    @exclusivity(unchecked) @usableFromInline var pendingCompletion: Subscribers.Completion<any Error>?
    /// `false` once a completion is decided or the downstream cancelled: signals are ignored.
    @exclusivity(unchecked) @usableFromInline var isActive = true
    /// The completion was delivered or the downstream cancelled: nothing more goes out.
    @exclusivity(unchecked) @usableFromInline var isTerminated = false

    // The in-place window: the fast path's state (FlatMapInPlace.swift). Not one struct: some are
    // the lock's, some the subscribing thread's, and an access to a struct's field is to all of it.
    @usableFromInline let inPlaceThread = Atomic<UInt>(0)
    @exclusivity(unchecked) @usableFromInline var inPlaceSlot = 0
    @exclusivity(unchecked) @usableFromInline var inPlaceGeneration = 0
    @exclusivity(unchecked) @usableFromInline var inPlaceCommitted = true
    @exclusivity(unchecked) @usableFromInline var inPlaceUnlimited = false
    @exclusivity(unchecked) @usableFromInline var inPlaceSubscription: any Subscription = NoSubscription()
    @exclusivity(unchecked) @usableFromInline var inPlaceKept = false
    @exclusivity(unchecked) @usableFromInline var inPlaceSubscribed = false
    @exclusivity(unchecked) @usableFromInline var inPlaceEnded = false
    @exclusivity(unchecked) @usableFromInline var inPlaceFailed = false
    @exclusivity(unchecked) @usableFromInline var inPlaceCompletion: Subscribers.Completion<any Error>?

    @inlinable
    init(
        downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (UpstreamOutput) -> NewPublisher
    ) {
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
        NoSubscription.hold(subscription, in: &upstream)
        lock.unlock()
        if maxPublishers != .none { subscription.request(maxPublishers) }
    }

    @inlinable
    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        lock.lock()
        // Ignored (S2) before the upstream's subscription, after its end, and from inside
        // `transform` (which breaks S3: `transform` is then out of its field, FlatMapInPlace.swift).
        guard isActive, upstreamSubscribed, transform != nil else {
            lock.unlock()
            return .none
        }
        commitInPlaceLocked()  // a call made from inside another inner's subscribe
        // The seam: with the token free, subscribe the inner in place (FlatMapInPlace.swift).
        if token.takeLocked() { return subscribeInPlace(input) }
        let slot = takeSlot()
        let generation = withSlot(slot) {
            $0.generation &+= 1
            $0.isLive = true
            return $0.generation
        }
        liveInners += 1
        let transform = self.transform.unsafelyUnwrapped
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
        commitInPlaceLocked()  // only an upstream that breaks S3 completes during a subscribe
        upstreamFinished = true
        let upstream = NoSubscription.take(from: &self.upstream)
        let transform = takeTransformLocked()
        endIfOverLocked(after: completion)
        keepAlive(upstream, transform)
    }

    // MARK: The inner publishers' signals

    /// Takes the lock; returns `true` with it held if the stream is active and `slot` still holds
    /// the subscribed (or in-place) inner of `generation` ([S2]), else `false` with it released.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @inlinable @inline(__always)
    func lockIfLive(_ slot: Int, _ generation: Int) -> Bool {
        lock.lock()
        commitInPlaceLocked()
        guard isActive,
            withSlot(slot, { $0.isLive && ($0.isSubscribed || $0.isInPlace) && $0.generation == generation })
        else {
            lock.unlock()
            return false
        }
        return true
    }

    /// The inner of `slot` and `generation` sent its subscription.
    @inlinable
    func innerSubscribed<S: Subscription>(_ subscription: S, slot: Int, generation: Int) {
        if isInPlace(slot, generation) { return inPlaceSubscribed(subscription) }
        lock.lock()
        commitInPlaceLocked()
        guard isActive, withSlot(slot, { $0.isLive && $0.generation == generation && !$0.isSubscribed }) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let unlimited = demand == .unlimited
        withSlot(slot) {
            $0.isSubscribed = true
            NoSubscription.hold(subscription, in: &$0.subscription)
            $0.isUnlimited = unlimited
        }
        lock.unlock()
        subscription.request(unlimited ? .unlimited : .max(1))
    }

    /// The inner of `slot` and `generation` sent a value; returns the demand to give it back.
    @inlinable
    func innerValue(_ value: Downstream.Input, slot: Int, generation: Int) -> Subscribers.Demand {
        if isInPlace(slot, generation) { return inPlaceValue(value, slot: slot, generation: generation) }
        guard lockIfLive(slot, generation) else { return .none }
        // Nothing waits while the token is free and there is demand: no value is overtaken.
        if demand == .none || !token.takeLocked() {
            pending.append((value, slot, generation))
            lock.unlock()
            return .none
        }
        demand -= 1
        let downstream = self.downstream.take().unsafelyUnwrapped  // the token holder's, for the call
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
        if pending.isEmpty && pendingCompletion == nil && !isTerminated && unlimiting == nil {
            token.giveBackLocked()
            lock.unlock()
            return next
        }
        lock.unlock()
        if let unlimiting { for subscription in unlimiting { subscription.request(.unlimited) } }
        lock.lock()
        drainLocked()
        return next
    }

    /// The inner of `slot` and `generation` completed.
    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Failure>, slot: Int, generation: Int) {
        if isInPlace(slot, generation) { return inPlaceCompleted(completion) }
        guard lockIfLive(slot, generation) else { return }
        let ended = release(slot)
        // Finished, with room for one more inner: the upstream is asked for it after unlocking.
        let finished = if case .finished = completion { true } else { false }
        let asksUpstream = finished && !upstreamFinished && maxPublishers != .unlimited
        let upstream: any Subscription = asksUpstream ? self.upstream : NoSubscription()
        endIfOverLocked(after: completion)
        upstream.request(.max(1))
        keepAlive(ended)
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
        let mustDrain = !pending.isEmpty && token.takeLocked()
        lock.unlock()
        if let unlimiting { for subscription in unlimiting { subscription.request(.unlimited) } }
        if mustDrain {
            lock.lock()
            drainLocked()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        commitInPlaceLocked()
        isTerminated = true
        isActive = false
        var subscriptions = ContiguousArray<any Subscription>()
        releaseAll(into: &subscriptions)
        let upstream = NoSubscription.take(from: &self.upstream)
        let transform = takeTransformLocked()
        let waiting = pending.takeAll()
        // The token holder owns the downstream: it lets go of it when it sees the cancel.
        var downstream: Downstream?
        if token.takeLocked() {
            downstream = self.downstream.take()
            token.giveBackLocked()
        }
        lock.unlock()
        upstream.cancel()
        for subscription in subscriptions { subscription.cancel() }
        keepAlive(transform, waiting, downstream)
    }

    // MARK: Bookkeeping (lock held)

    /// Adds to the downstream's demand; if it becomes `.unlimited`, marks every live inner so and
    /// returns their subscriptions, to be asked for `.unlimited` after unlocking.
    @inlinable
    func addDemand(_ more: Subscribers.Demand) -> ContiguousArray<any Subscription>? {
        if demand == .unlimited { return nil }
        demand += more
        guard demand == .unlimited else { return nil }
        if liveInners == 0 { return nil }
        var subscriptions = ContiguousArray<any Subscription>()
        for slot in 0...otherSlots.count {
            // One without its subscription yet asks for `.unlimited` when it gets it.
            withSlot(slot) { inner in
                guard inner.isLive, inner.isSubscribed, !inner.isUnlimited else { return }
                inner.isUnlimited = true
                subscriptions.append(inner.subscription)
            }
        }
        return subscriptions
    }

    /// Runs `body` on slot `slot`: `firstSlot` or one of `otherSlots`.
    @inlinable
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

    /// Frees the slot of an inner that is over; returns its subscription (a ``NoSubscription``
    /// if it had none), to be let go of after unlocking.
    @inlinable
    func release(_ slot: Int) -> any Subscription {
        liveInners -= 1
        if !otherSlots.isEmpty { freeSlots.append(slot) }
        return withSlot(slot) {
            ($0.isLive, $0.isSubscribed, $0.isUnlimited, $0.isInPlace) = (false, false, false, false)
            return NoSubscription.take(from: &$0.subscription)
        }
    }

    /// Frees every live inner's slot; adds the subscriptions of those subscribed to
    /// `subscriptions`, to be cancelled after unlocking.
    @inlinable
    func releaseAll(into subscriptions: inout ContiguousArray<any Subscription>) {
        guard liveInners > 0 else { return }
        for slot in 0...otherSlots.count where withSlot(slot, { $0.isLive }) {
            let subscribed = withSlot(slot) { $0.isSubscribed }
            let subscription = release(slot)  // a `NoSubscription` if not `subscribed`
            if subscribed { subscriptions.append(subscription) }
        }
    }

    // MARK: Ending and delivering

    /// After the upstream's or an inner's `completion`: a failure ends the stream, and so does
    /// `.finished` once the upstream and every inner are over; at once if nothing is left to do
    /// before it (``completeAtOnceLocked(_:)``). Call with the lock held and `isActive`; returns
    /// with it released.
    @inlinable
    func endIfOverLocked(after completion: Subscribers.Completion<Failure>) {
        if completeAtOnceLocked(completion) { return }
        switch completion {
        case .finished where upstreamFinished && liveInners == 0: endLocked(with: .finished)
        case .finished: lock.unlock()
        case .failure(let failure): endLocked(with: .failure(failure))
        }
    }

    /// Ends the stream with `completion`: stops taking signals, takes the upstream and every live
    /// inner, and on a failure drops the values waiting for demand (those the subscriber asked for
    /// stay). After unlocking, cancels those subscriptions (and `cancelling`), then the token
    /// holder delivers the completion: this thread if it holds the token (`tokenHeld`) or finds
    /// it free. Call with the lock held and `isActive`; returns with it released.
    @inlinable
    func endLocked(
        with completion: Subscribers.Completion<Failure>, tokenHeld: Bool = false, cancelling: (any Subscription)? = nil
    ) {
        isActive = false
        var subscriptions = ContiguousArray<any Subscription>()
        if upstreamSubscribed && !upstreamFinished { subscriptions.append(NoSubscription.take(from: &upstream)) }
        releaseAll(into: &subscriptions)
        var dropped = FIFOQueue<Waiting>()
        if case .failure = completion {
            dropped = pending.takeAll()
            var owed = demand
            while owed > .none, let waiting = dropped.popFirst() {
                pending.append(waiting)
                owed -= 1
            }
        }
        pendingCompletion = completion.mapError { $0 }
        let transform = takeTransformLocked()
        defer { _ = (transform, dropped) }  // let go of after unlocking
        let mustDrain = tokenHeld || token.takeLocked()
        if subscriptions.isEmpty && cancelling == nil {
            if mustDrain { drainLocked() } else { lock.unlock() }
            return
        }
        lock.unlock()
        for subscription in subscriptions { subscription.cancel() }
        cancelling?.cancel()
        if mustDrain {
            lock.lock()
            drainLocked()
        }
    }

    /// Delivers `completion` at once, without the drain loop, if nothing is left to do before it:
    /// no inner live, no value waiting, the upstream over, the token free (then taken for good).
    /// Call with the lock held; returns `true` with it released, `false` with it still held.
    @inlinable
    func completeAtOnceLocked(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard liveInners == 0, upstreamFinished, pending.isEmpty, token.takeLocked() else { return false }
        isActive = false
        isTerminated = true
        let downstream = self.downstream.take().unsafelyUnwrapped
        let transform = takeTransformLocked()
        lock.unlock()
        downstream.receive(completion: completion)
        keepAlive(transform)
        return true
    }

    /// The token holder's loop: delivers waiting values as demand allows (asking each inner for its
    /// next once its value has gone), then the decided completion: `.finished` once nothing waits,
    /// a failure once nothing more can go now. Lock held, token taken; returns with the lock
    /// released and the token given back (kept for good after the completion).
    @inlinable
    func drainLocked() {
        var returned = Subscribers.Demand.none
        while true {
            if isTerminated {  // cancelled while the token was held: the holder lets go
                let downstream = self.downstream.take()
                token.giveBackLocked()
                lock.unlock()
                keepAlive(downstream)
                return
            }
            if returned != .none, let unlimiting = addDemand(returned) {
                returned = .none
                lock.unlock()
                for subscription in unlimiting { subscription.request(.unlimited) }
                lock.lock()
                continue
            }
            returned = .none
            if let ending = pendingCompletion {
                let isDue = if case .failure = ending { pending.isEmpty || demand == .none } else { pending.isEmpty }
                if isDue {
                    pendingCompletion = nil
                    isTerminated = true
                    let downstream = self.downstream.take()
                    let dropped = pending.takeAll()
                    lock.unlock()
                    downstream?.receive(completion: ending.mapError { $0 as! Failure })  // stored from a `Failure`
                    keepAlive(dropped)
                    return  // nothing follows the completion: the token stays taken
                }
            }
            guard demand != .none, let waiting = pending.popFirst() else {
                token.giveBackLocked()
                lock.unlock()
                return
            }
            demand -= 1
            let next = withSlot(waiting.slot) {
                $0.isLive && $0.isSubscribed && $0.generation == waiting.generation && !$0.isUnlimited
                    ? $0.subscription : NoSubscription()
            }
            lock.unlock()
            returned = downstream.unsafelyUnwrapped.receive(waiting.value)
            next.request(.max(1))
            lock.lock()
        }
    }

    /// The subscriber of one inner publisher: a struct naming the inner's slot and generation,
    /// so that nothing is allocated per inner, and a late signal of an inner that is over (its
    /// slot reused under a new generation) is told apart and ignored ([S2], [S4]). It holds this
    /// object strongly until the inner completes or is cancelled ([S7]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S7]: doc:/Contract/StreamContract#S7
    @usableFromInline
    struct Inner: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = NewPublisher.Output
        @usableFromInline typealias Failure = NewPublisher.Failure

        @usableFromInline let parent: FlatMapSubscription
        @usableFromInline let slot: Int
        @usableFromInline let generation: Int

        @inlinable
        init(parent: FlatMapSubscription, slot: Int, generation: Int) {
            self.parent = parent
            self.slot = slot
            self.generation = generation
        }

        /// The parent's: every inner of one stream is the same subscriber, as in Combine.
        @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }
        @usableFromInline var description: String { parent.description }

        @inlinable func receive(subscription: any Subscription) {
            parent.innerSubscribed(subscription, slot: slot, generation: generation)
        }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand {
            parent.innerValue(input, slot: slot, generation: generation)
        }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            parent.innerCompleted(completion, slot: slot, generation: generation)
        }
    }
}

/// One inner publisher's state in a ``FlatMapSubscription``, guarded by its lock.
@usableFromInline
struct FlatMapInnerSlot {
    /// The inner's subscription while `isSubscribed`, else a ``NoSubscription``.
    @usableFromInline var subscription: any Subscription = NoSubscription()
    /// Counts the inners that had this slot; the live one's signals carry it.
    @usableFromInline var generation = 0
    @usableFromInline var isLive = false
    @usableFromInline var isSubscribed = false
    @usableFromInline var isUnlimited = false
    /// Being subscribed in place: its subscription, if any, is in `inPlaceSubscription`.
    @usableFromInline var isInPlace = false

    @inlinable
    init() {}
}
