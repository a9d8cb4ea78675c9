#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The subscription of `flatMap`: the subscriber to the upstream, the subscription the
/// downstream receives, and the hub of the inner publishers, each subscribed with an
/// ``InnerSubscriber`` that names its slot here.
///
/// **State.** An inner's state is a slot (``FlatMapInnerSlot``: its subscription, generation,
/// whether it is live, subscribed, asked for `.unlimited`). Slot 0 is `firstSlot`, stored
/// inline; the others are in `otherSlots`, allocated only once two inners are live at once. A
/// slot is reused once its inner is over, under a new generation, so a late signal of the inner
/// that had it before is told apart. No object is allocated per inner publisher.
///
/// **Demand.** The downstream's demand is counted here (requested plus returned, minus
/// delivered). Each inner is asked for one value at a time (for `.unlimited` once the
/// downstream's demand is): a value is delivered if there is demand, and the inner is asked for
/// the next; otherwise it waits in the queue (`serial.pending`), and the inner is asked for the next once it has gone
/// out. So at most one value per inner waits (more only from an inner that breaks [S1]), and the
/// downstream never gets more than it asked for ([S1]).
///
/// **Locking and delivery.** One lock guards everything, the slots included, and is never held
/// while calling out. The downstream is called only by the holder of the *drain token*
/// (``SerialDelivery``; `serial` holds the token and the queue), who owns `downstream` while it holds the token: a thread that finds the token
/// free (and demand, so nothing waits) delivers its value in place; one that finds it taken
/// queues the value and returns at once, and the holder delivers it before giving the token back
/// ([S3]). A request from inside `receive(_:)` only adds to the count, and the holder's loop
/// carries on, so the stack does not grow ([S8]). The completion goes through the token too:
/// `.finished` after the waiting values; a failure after the values the subscriber had asked
/// for when it came, before the others (they are dropped, as in Combine).
///
/// **Subscribing in place.** The upstream's thread takes the token (if it is free) before it
/// calls `transform` and subscribes the new inner, and gives it back when that call returns.
/// An inner that answers synchronously, inside that call (`Just`, a sequence, `Empty`, `Fail`, a
/// `CurrentValueSubject`, anything already finished...), is then handled *in place*: its
/// subscription and completion are noted in fields only the subscribing thread touches
/// (`inPlace...`, recognised by `inPlaceThread`, the subscribing thread's id), with no lock; its
/// values are delivered with one lock, or none (below). Its slot is only *reserved*: it is
/// made live (*committed*, ``makeInPlaceLiveLocked()``) only if something needs it to be,
/// that is, when another thread, or a nested call, takes the lock while the window is open
/// (every locked entry point but the subscribing thread's own in-place path starts with
/// ``commitInPlaceLocked()``), or when the window is settled under the lock. An inner that
/// finishes in place and that nobody committed never becomes live: when the call returns (and
/// `maxPublishers` is `.unlimited`: otherwise the upstream is asked for one more inner, under
/// the lock), the subscribing thread closes the window and gives the token back with one compare-and-swap,
/// without the lock. An inner that answers later, or from another thread, goes through the
/// general path above; while the token is held for the subscribe, other threads' values wait in
/// the queue and are delivered by the subscribing thread, under the lock, before it gives the
/// token back. The token is a ``DrainToken``: whoever finds it held and leaves work for the
/// holder (queues a value, ends the stream, cancels, commits the in-place inner) marks it, so
/// under unlimited demand an in-place value whose token is unmarked goes down without the
/// lock, and a window whose token is unmarked is closed without it. (`W6`: one lock round trip
/// per inner instead of 5; see Docs/Performance.md.) While the window is open, `transform` is
/// the subscribing thread's: it moves it out of its field for the call and back, with no
/// retain or release, and whoever ends the stream meanwhile leaves it to that thread
/// (``takeTransformLocked()``), which lets go of it when it closes the window.
///
/// **Ending.** `cancel()` and the completion let go of the downstream, the upstream and inner
/// subscriptions, `transform` and the waiting values, after unlocking ([S7]); if `cancel()` comes
/// while the token holder is delivering, the holder lets go of the downstream when it is done,
/// and if it comes while an inner is subscribed in place, the subscribing thread lets go of
/// `transform` when the subscribe call has returned. Subscriptions are held as
/// ``HeldSubscription``s, not `Optional`s (see its doc).
/// A completion that finds nothing left to do before it (no live inner, no waiting value, the
/// upstream over, the token free) goes down at once (``completeAtOnceLocked(_:)``), without
/// the drain loop.
/// An inner publisher holds this object through its subscriber until it completes or is
/// cancelled; the ending cancels every inner still live.
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class FlatMapSubscription<UpstreamOutput, NewPublisher: Publisher, Downstream: Subscriber, HeldDownstream: OptionalValue>:
    Subscriber, Subscription, InnerSubscriberParent, FlatteningSubscription, CustomStringConvertible,
    @unchecked Sendable  // all mutable state, the inners' slots included, is guarded by `lock`
    // (the `inPlace...` fields: by the thread named in `inPlaceThread`, see the type's doc)
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure,
      HeldDownstream.Wrapped == Downstream {
    @usableFromInline typealias Input = UpstreamOutput
    @usableFromInline typealias Failure = NewPublisher.Failure
    @usableFromInline typealias InnerInput = NewPublisher.Output
    @usableFromInline typealias InnerFailure = NewPublisher.Failure
    @usableFromInline typealias Inner = InnerSubscriber<FlatMapSubscription>
    @usableFromInline typealias Item = Waiting
    @usableFromInline typealias Delivery = FlatteningDelivery<Downstream, Waiting>

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
    // token holder; for `inPlace...`, by the subscribing thread); the runtime's dynamic check
    // would only add cost per value.
    /// Owned by the token holder while the token is taken; `nil` once the stream is over.
    @exclusivity(unchecked) @usableFromInline var heldDownstream: HeldDownstream
    /// `heldDownstream`, as what it is: `Downstream?`.
    @inlinable var downstream: Downstream? {
        _read { yield heldDownstream.asOptional }
        _modify { yield &heldDownstream.asOptional }
    }
    @exclusivity(unchecked) @usableFromInline var transform: ((UpstreamOutput) -> NewPublisher)?
    @exclusivity(unchecked) @usableFromInline var upstream = HeldSubscription.none
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
    /// Values waiting for demand or for the token holder. (The drain token is `token`, not the
    /// queue's flag.)
    @exclusivity(unchecked) @usableFromInline var serial = SerialQueue<Waiting>()
    /// The drain token (``DrainToken``): taken under the lock; the subscribing thread of an
    /// inner answering in place reads it without the lock to learn that nobody left work.
    @usableFromInline let token = DrainToken(held: false)
    /// The completion the token holder is to deliver; its failure, a `Failure`, is kept as
    /// `any Error`. (Of type `Completion<Failure>?`, the field cost the class's deinit, which
    /// is never specialized, two generic metadata lookups per subscription.)
    @exclusivity(unchecked) @usableFromInline var pendingCompletion: Subscribers.Completion<any Error>?
    /// `false` once a completion is decided or the downstream cancelled: signals are ignored.
    @exclusivity(unchecked) @usableFromInline var isActive = true
    /// The completion was delivered or the downstream cancelled: nothing more goes out.
    @exclusivity(unchecked) @usableFromInline var isTerminated = false

    // The inner being subscribed in place (see the type's doc). `inPlaceSlot`,
    // `inPlaceGeneration` and `inPlaceUnlimited` are written under the lock when the window
    // opens; the subscription and completion only by the subscribing thread, and read back by
    // it under the lock when the window closes.
    /// The id of the thread inside the subscribe call (``currentThreadID()``), 0 when none is.
    @usableFromInline let inPlaceThread = Atomic<UInt>(0)
    @exclusivity(unchecked) @usableFromInline var inPlaceSlot = 0
    @exclusivity(unchecked) @usableFromInline var inPlaceGeneration = 0
    /// Whether the inner's slot was made live (``makeInPlaceLiveLocked()``); until then it is
    /// only reserved. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var inPlaceCommitted = true
    /// Whether the inner was (or is to be) asked for `.unlimited` rather than one at a time.
    @exclusivity(unchecked) @usableFromInline var inPlaceUnlimited = false
    /// The inner's subscription, kept only if the inner had not completed when the request
    /// made in `innerSubscribed` returned (an inner that completes during it needs it no more).
    @exclusivity(unchecked) @usableFromInline var inPlaceSubscription = HeldSubscription.none
    /// Whether `inPlaceSubscription` is set (a flag: reading the enum's case from the field
    /// copies the existential).
    @exclusivity(unchecked) @usableFromInline var inPlaceKept = false
    /// Whether the inner has sent its subscription (its values are taken from then on, [S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @exclusivity(unchecked) @usableFromInline var inPlaceSubscribed = false
    /// Whether the inner has completed.
    @exclusivity(unchecked) @usableFromInline var inPlaceEnded = false
    /// Whether it failed: `inPlaceCompletion` is set.
    @exclusivity(unchecked) @usableFromInline var inPlaceFailed = false
    /// Its failure, kept as `any Error` (as `pendingCompletion`); `.finished` is only `inPlaceEnded`.
    @exclusivity(unchecked) @usableFromInline var inPlaceCompletion: Subscribers.Completion<any Error>?

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand,
         transform: @escaping (UpstreamOutput) -> NewPublisher) {
        self.heldDownstream = HeldDownstream(downstream)
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
        upstream = .some(subscription)
        lock.unlock()
        if maxPublishers != .none { subscription.request(maxPublishers) }
    }

    @inlinable
    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        lock.lock()
        // Before the upstream's subscription, or after its end, a value is ignored (S2); so is
        // one an upstream sends from inside `transform`, nested in the call that delivers the
        // value before it (it breaks S3; `transform` is then out of its field, see below).
        guard isActive, upstreamSubscribed, transform != nil else {
            lock.unlock()
            return .none
        }
        commitInPlaceLocked()  // a call made from inside another inner's subscribe
        let inPlace = takeTokenLocked()
        let slot = inPlace ? reserveSlot() : takeSlot()
        let generation = withSlot(slot) {
            $0.generation &+= 1
            // An inner subscribed in place becomes live only if someone commits it.
            if !inPlace { $0.isLive = true }
            return $0.generation
        }
        if inPlace {
            inPlaceSlot = slot
            inPlaceGeneration = generation
            inPlaceUnlimited = demand == .unlimited
            inPlaceCommitted = false
            inPlaceThread.store(currentThreadID(), ordering: .relaxed)
        } else {
            liveInners += 1
            let transform = self.transform.unsafelyUnwrapped
            lock.unlock()
            transform(input).receive(subscriber: Inner(parent: self, slot: slot, generation: generation))
            return .none
        }
        lock.unlock()
        // While the window is open, `transform` is this thread's (``takeTransformLocked()``):
        // it is moved out for the call and back, without a copy.
        let transform = self.transform.take().unsafelyUnwrapped
        let publisher = transform(input)
        putBack(transform: consume transform)
        publisher.receive(subscriber: Inner(parent: self, slot: slot, generation: generation))
        closeInPlace()
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
        let upstream = self.upstream.take()
        let transform = takeTransformLocked()
        if completeAtOnceLocked(completion) { return }
        switch completion {
        case .finished:
            if liveInners == 0 {
                deliverEnding(end(with: .finished))
            } else {
                lock.unlock()
            }
        case .failure(let failure):
            deliverEnding(end(with: .failure(failure)))
        }
        _ = (upstream, transform)
    }

    // MARK: The inner publishers' signals

    /// Whether this thread is inside the call that subscribes the inner of `slot` and
    /// `generation`, so that the inner's signal can be handled in place.
    @inlinable @inline(__always)
    func isInPlace(_ slot: Int, _ generation: Int) -> Bool {
        inPlaceThread.load(ordering: .relaxed) == currentThreadID()
            && inPlaceSlot == slot && inPlaceGeneration == generation
    }

    /// Whether `slot` still belongs to the inner of `generation`, and that inner has sent its
    /// subscription (or is being subscribed in place): only then are its value and completion
    /// taken ([S2]). Call with the lock held.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @inlinable @inline(__always)
    func isLive(_ slot: Int, _ generation: Int) -> Bool {
        withSlot(slot) { $0.isLive && ($0.isSubscribed || $0.isInPlace) && $0.generation == generation }
    }

    /// Commits the inner being subscribed in place, if a window is open and it is not yet
    /// committed: another thread (or a nested call) is about to look at the inners' state, so
    /// the inner's slot is made live, as it would be for an inner subscribed in general, and the
    /// token is marked, so that the subscribing thread settles the window under the lock. Call
    /// with the lock held, at the start of every locked entry point that is not the subscribing
    /// thread's own in-place path.
    @inlinable @inline(__always)
    func commitInPlaceLocked() {
        guard inPlaceThread.load(ordering: .acquiring) != 0, !inPlaceCommitted else { return }
        if takeTokenLocked() {
            // The token was free: the window closed meanwhile (its thread closes it before it
            // gives the token back, and this load may not have seen that yet). Nothing to
            // commit. (If another thread had taken the token since, it did so under this lock,
            // after the give-back: this load would have seen the window closed.)
            giveBackTokenLocked()
            return
        }
        makeInPlaceLiveLocked()
    }

    /// Makes the in-place inner's slot live (once; not once the stream is over). Call with the
    /// lock held.
    @inlinable
    func makeInPlaceLiveLocked() {
        guard !inPlaceCommitted, isActive else { return }
        inPlaceCommitted = true
        liveInners += 1
        withSlot(inPlaceSlot) {
            $0.isLive = true
            $0.isInPlace = true
        }
        // A reserved slot other than an only slot 0 is still among the free ones.
        if !otherSlots.isEmpty, let index = freeSlots.lastIndex(of: inPlaceSlot) {
            freeSlots.remove(at: index)
        }
    }

    /// Takes `transform`, to be let go of after unlocking, unless an in-place window is open:
    /// its thread may be calling `transform`, which it does without a copy (``receive(_:)``),
    /// so `transform` is then left to it, and the token marked so that it closes the window
    /// under the lock and lets go of `transform` there (``closeInPlace()``). Call with the lock
    /// held.
    @inlinable
    func takeTransformLocked() -> ((UpstreamOutput) -> NewPublisher)? {
        if inPlaceThread.load(ordering: .acquiring) != 0 {
            guard takeTokenLocked() else { return nil }  // marked: the window's thread lets go of it
            // The token was free: the window closed meanwhile (see ``commitInPlaceLocked()``).
            giveBackTokenLocked()
        }
        return transform.take()
    }

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, slot: Int, generation: Int) {
        innerSubscribed(opened: subscription, slot: slot, generation: generation)
    }

    /// ``innerSubscribed(_:slot:generation:)``, on the subscription's own type: it is boxed
    /// into an existential (a retain) only where it is kept.
    @inlinable
    func innerSubscribed<S: Subscription>(opened subscription: S, slot: Int, generation: Int) {
        if isInPlace(slot, generation) {
            // Settled under the lock when the subscribe call returns.
            guard !inPlaceSubscribed, !inPlaceEnded else {
                subscription.cancel()
                return
            }
            inPlaceSubscribed = true
            subscription.request(inPlaceUnlimited ? .unlimited : .max(1))
            // An inner that completed during the request (`Just`, a sequence...) needs its
            // subscription no more: it is not kept (no retain, no release through `Optional`).
            if !inPlaceEnded {
                inPlaceKept = true
                inPlaceSubscription = .some(subscription)
            }
            return
        }
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
            $0.subscription = .some(subscription)
            $0.isUnlimited = unlimited
        }
        lock.unlock()
        subscription.request(unlimited ? .unlimited : .max(1))
    }

    @inlinable
    func innerValue(_ value: Downstream.Input, slot: Int, generation: Int) -> Subscribers.Demand {
        if isInPlace(slot, generation) { return inPlaceValue(value, slot: slot, generation: generation) }
        lock.lock()
        commitInPlaceLocked()
        guard isActive, isLive(slot, generation) else {
            lock.unlock()
            return .none
        }
        // Nothing waits while the token is free and there is demand, so a value delivered in
        // place never overtakes a waiting one.
        if demand == .none || !takeTokenLocked() {
            serial.pending.append(Waiting(value: value, slot: slot, generation: generation))
            lock.unlock()
            return .none
        }
        demand -= 1
        // Moved out for the call and back in after it (the token holder owns it).
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
        if serial.pending.isEmpty && pendingCompletion == nil && !isTerminated && unlimiting == nil {
            giveBackTokenLocked()
            lock.unlock()
            return next
        }
        lock.unlock()
        if let unlimiting { for subscription in unlimiting { subscription.request(.unlimited) } }
        lock.lock()
        drainLocked()
        return next
    }

    /// A value of the inner being subscribed in place, on the subscribing thread: the token is
    /// already held, so the value is delivered, or queued, under one lock.
    @inlinable
    func inPlaceValue(_ value: Downstream.Input, slot: Int, generation: Int) -> Subscribers.Demand {
        // Before the inner's subscription, or after its completion, a value is ignored (S2).
        guard inPlaceSubscribed, !inPlaceEnded else { return .none }
        // Unlimited demand, and nobody has left work for the token holder (this thread) since
        // the window opened: nothing waits, the stream is not over, and no cancel came, so the
        // value goes down without the lock. (Whoever ends the stream, cancels it or queues a
        // value takes the token under the lock first, and so marks it.)
        if inPlaceUnlimited && token.isIdle {
            let downstream = self.downstream.take().unsafelyUnwrapped
            _ = downstream.receive(value)  // more demand than `.unlimited` changes nothing
            putBack(downstream)
            return .none
        }
        lock.lock()
        // Uncommitted, the inner is live unless the stream is over; committed, its slot says.
        guard isActive, !inPlaceCommitted || withSlot(slot, { $0.isLive && $0.generation == generation }) else {
            lock.unlock()
            return .none
        }
        // The downstream's demand became `.unlimited` since the inner was asked: so is the inner.
        let upgraded = !inPlaceUnlimited && demand == .unlimited
        if upgraded { inPlaceUnlimited = true }
        let next: Subscribers.Demand = upgraded ? .unlimited : inPlaceUnlimited ? .none : .max(1)
        // Queued behind what other threads sent meanwhile, or for demand.
        if !serial.pending.isEmpty || demand == .none {
            serial.pending.append(Waiting(value: value, slot: slot, generation: generation))
            lock.unlock()
            return upgraded ? .unlimited : .none
        }
        demand -= 1
        let downstream = self.downstream.take().unsafelyUnwrapped
        lock.unlock()
        let more = downstream.receive(value)
        // No lock to put it back: the token is this thread's until the window closes.
        putBack(downstream)
        guard more != .none && !inPlaceUnlimited else { return next }
        lock.lock()
        var unlimiting: ContiguousArray<any Subscription>?
        if !isTerminated { unlimiting = addDemand(more) }
        let nowUnlimited = demand == .unlimited
        lock.unlock()
        if let unlimiting { for subscription in unlimiting { subscription.request(.unlimited) } }
        if nowUnlimited {
            inPlaceUnlimited = true
            return .unlimited
        }
        return next
    }

    /// Puts back the downstream that the token holder took out for a call: the field is `nil`
    /// (whatever happened during the call left the downstream to the holder), so it is
    /// initialized over, which skips releasing the `nil` (Docs/Performance.md, "The downstream
    /// put back without a release").
    @inlinable @inline(__always)
    func putBack(_ downstream: __owned Downstream) {
        withUnsafeMutablePointer(to: &heldDownstream) { $0.initialize(to: HeldDownstream(downstream)) }
    }

    /// Puts back `transform`, moved out of its (then `nil`) field for a call, the same way.
    @inlinable @inline(__always)
    func putBack(transform: __owned @escaping (UpstreamOutput) -> NewPublisher) {
        withUnsafeMutablePointer(to: &self.transform) { $0.initialize(to: transform) }
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Failure>, slot: Int, generation: Int) {
        if isInPlace(slot, generation) {
            // Settled under the lock when the subscribe call returns.
            guard inPlaceSubscribed, !inPlaceEnded else { return }
            inPlaceEnded = true
            // An ended inner's subscription is not kept (see `innerSubscribed`): once ended,
            // `inPlaceSubscription` is `.none`.
            if inPlaceKept {
                inPlaceKept = false
                inPlaceSubscription = .none
            }
            if case .failure(let failure) = completion {
                inPlaceFailed = true
                inPlaceCompletion = .failure(failure)
            }
            return
        }
        lock.lock()
        commitInPlaceLocked()
        guard isActive, isLive(slot, generation) else {
            lock.unlock()
            return
        }
        let ended = release(slot)
        if upstreamFinished && completeAtOnceLocked(completion) {
            _ = ended
            return
        }
        switch completion {
        case .finished:
            let upstream = upstreamFinished || maxPublishers == .unlimited ? .none : self.upstream
            if upstreamFinished && liveInners == 0 {
                deliverEnding(end(with: .finished))
            } else {
                lock.unlock()
            }
            upstream.request(.max(1))
        case .failure(let failure):
            deliverEnding(end(with: .failure(failure)))
        }
        _ = ended
    }

    /// Closes the in-place window once the subscribe call has returned: settles the inner's
    /// subscription and completion in its slot, then gives the token back, delivering first
    /// whatever other threads queued meanwhile.
    @inlinable
    func closeInPlace() {
        // The common case, without the lock: the inner finished in place, nobody committed it
        // or left other work for the token holder (the token is unmarked), and the upstream
        // is not to be asked for more. Its slot was never made live: closing the window and
        // giving the token back is all there is to do.
        if inPlaceEnded && !inPlaceFailed && maxPublishers == .unlimited {
            // Closed first: a thread that then takes the token sees the window closed.
            inPlaceThread.store(0, ordering: .releasing)
            if token.giveBackIfIdle() {
                inPlaceSubscribed = false
                inPlaceEnded = false
                return
            }
            lock.lock()
            token.reclaimLocked()  // work was left: settled below, under the lock
        } else {
            lock.lock()
        }
        // The stream ended, or the upstream finished, while the window was open: `transform`,
        // left to this thread (``takeTransformLocked()``), is let go of after unlocking.
        let leftover = isActive && !upstreamFinished ? nil : transform.take()
        defer { withExtendedLifetime(leftover) {} }
        makeInPlaceLiveLocked()
        inPlaceThread.store(0, ordering: .relaxed)
        // The common case, first: the inner finished in place, and nothing else is to be done.
        if inPlaceEnded && !inPlaceFailed && isActive && serial.pending.isEmpty
            && (maxPublishers == .unlimited || upstreamFinished) && !(upstreamFinished && liveInners == 1)
            && withSlot(inPlaceSlot, { $0.isLive && !$0.isSubscribed && $0.generation == inPlaceGeneration }) {
            liveInners -= 1
            if !otherSlots.isEmpty { freeSlots.append(inPlaceSlot) }
            withSlot(inPlaceSlot) {
                $0.isLive = false
                $0.isInPlace = false
            }
            inPlaceSubscribed = false
            inPlaceEnded = false
            giveBackTokenLocked()
            lock.unlock()  // an ended inner's subscription was not kept: nothing to let go of
            return
        }
        closeInPlaceInGeneral()
    }

    /// ``closeInPlace()``'s general case. Call with the lock held; returns with it released.
    @inlinable
    func closeInPlaceInGeneral() {
        let slot = inPlaceSlot
        let generation = inPlaceGeneration
        let subscription = inPlaceKept ? inPlaceSubscription.take().optional : nil
        inPlaceKept = false
        let ended = inPlaceEnded
        let failure = inPlaceFailed ? inPlaceCompletion.take() : nil
        inPlaceSubscribed = false
        inPlaceEnded = false
        inPlaceFailed = false
        var cancelling: (any Subscription)?
        var unlimiting: (any Subscription)?
        var askUpstream: (any Subscription)?
        var ending: Ending?
        let stillLive = withSlot(slot) {
            $0.isInPlace = false
            return $0.isLive && $0.generation == generation
        }
        if !isActive || !stillLive {
            // The stream ended, or another thread completed the inner, during the call.
            cancelling = subscription
        } else if ended {
            cancelling = release(slot).optional  // a second subscription, from another thread
            if case .failure(let failure) = failure {  // stored from a `Failure`
                ending = end(with: .failure(failure as! Failure))
            } else if upstreamFinished && liveInners == 0 {
                ending = end(with: .finished)
            } else if !upstreamFinished && maxPublishers != .unlimited {
                askUpstream = upstream.optional
            }
        } else if let subscription {
            if withSlot(slot, { $0.isSubscribed }) {
                cancelling = subscription  // a second subscription: another thread's came first
            } else {
                let unlimited = inPlaceUnlimited || demand == .unlimited
                if unlimited && !inPlaceUnlimited { unlimiting = subscription }
                withSlot(slot) {
                    $0.isSubscribed = true
                    $0.subscription = .some(subscription)
                    $0.isUnlimited = unlimited
                }
            }
        } else if !withSlot(slot, { $0.isSubscribed }) && !serial.pending.isEmpty {
            // No subscription yet: what another thread sent for it came before it (S2).
            var kept = FIFOQueue<Waiting>()
            var waiting = serial.pending.takeAll()
            while let value = waiting.popFirst() {
                if value.slot != slot || value.generation != generation { kept.append(value) }
            }
            serial.pending = kept
        }
        if let ending {
            deliverEnding(ending, tokenHeld: true, cancelling: cancelling)
            return
        }
        if cancelling == nil && unlimiting == nil && serial.pending.isEmpty && pendingCompletion == nil && !isTerminated {
            giveBackTokenLocked()
            lock.unlock()
        } else {
            lock.unlock()
            cancelling?.cancel()
            unlimiting?.request(.unlimited)
            lock.lock()
            drainLocked()
        }
        askUpstream?.request(.max(1))
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
        let mustDrain = !serial.pending.isEmpty && takeTokenLocked()
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
        let upstream = self.upstream.take()
        let transform = takeTransformLocked()
        let waiting = serial.pending.takeAll()
        // The token holder owns the downstream: it lets go of it when it sees the cancel.
        var downstream: Downstream?
        if takeTokenLocked() {
            downstream = self.downstream.take()
            giveBackTokenLocked()
        }
        lock.unlock()
        upstream.cancel()
        for subscription in subscriptions { subscription.cancel() }
        _ = (transform, waiting, downstream)
    }

    // MARK: Bookkeeping (lock held)

    /// Adds to the downstream's demand. When that makes it `.unlimited` and inners are live,
    /// marks each of them unlimited and returns their subscriptions, to be asked for
    /// `.unlimited` after unlocking.
    @inlinable
    func addDemand(_ more: Subscribers.Demand) -> ContiguousArray<any Subscription>? {
        if demand == .unlimited { return nil }
        demand += more
        guard demand == .unlimited else { return nil }
        if liveInners == 0 { return nil }
        var subscriptions = ContiguousArray<any Subscription>()
        for slot in 0...otherSlots.count {
            // One without its subscription yet asks for `.unlimited` when it gets it.
            let subscription = withSlot(slot) { inner -> (any Subscription)? in
                guard inner.isLive, !inner.isUnlimited, case .some(let subscription) = inner.subscription else { return nil }
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
    func release(_ slot: Int) -> HeldSubscription {
        liveInners -= 1
        if !otherSlots.isEmpty { freeSlots.append(slot) }
        return withSlot(slot) {
            $0.isLive = false
            $0.isSubscribed = false
            $0.isUnlimited = false
            $0.isInPlace = false
            return $0.subscription.take()
        }
    }

    /// Runs `body` on slot `slot`: `firstSlot` or one of `otherSlots`. (Not a `_modify`
    /// subscript: its coroutine frame was allocated on the heap.)
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

    /// A free slot for an inner subscribed in place, left free (and, once `otherSlots` is in
    /// use, in `freeSlots`) until the inner is committed (``makeInPlaceLiveLocked()``): an inner
    /// that completes in place never takes it. While its window is open, nothing else takes a
    /// slot (a nested `receive(_:)` commits it first).
    @inlinable
    func reserveSlot() -> Int {
        if otherSlots.isEmpty && !firstSlot.isLive { return 0 }
        if let free = freeSlots.last { return free }
        otherSlots.append(FlatMapInnerSlot())
        freeSlots.append(otherSlots.count)
        return otherSlots.count
    }

    /// Frees every live inner's slot; adds their subscriptions to `subscriptions`, to be
    /// cancelled after unlocking.
    @inlinable
    func releaseAll(into subscriptions: inout ContiguousArray<any Subscription>) {
        guard liveInners > 0 else { return }
        for slot in 0...otherSlots.count where withSlot(slot, { $0.isLive }) {
            if case .some(let subscription) = release(slot) { subscriptions.append(subscription) }
        }
    }

    // MARK: Ending and delivering

    /// What `end(with:)` takes: the subscriptions to cancel (the upstream first), and what to
    /// let go of after unlocking.
    @usableFromInline
    struct Ending {
        @usableFromInline var subscriptions: ContiguousArray<any Subscription>
        @usableFromInline var leftovers: (((UpstreamOutput) -> NewPublisher)?, FIFOQueue<Waiting>)

        @inlinable
        init(subscriptions: ContiguousArray<any Subscription>,
             leftovers: (((UpstreamOutput) -> NewPublisher)?, FIFOQueue<Waiting>)) {
            self.subscriptions = subscriptions
            self.leftovers = leftovers
        }
    }

    /// Decides the completion: stops taking signals, takes the upstream and every live inner
    /// (to be cancelled), and, on a failure, drops the values waiting for demand. Call with
    /// the lock held; then call ``deliverEnding(_:tokenHeld:cancelling:)``.
    @inlinable
    func end(with completion: Subscribers.Completion<Failure>) -> Ending {
        isActive = false
        var subscriptions = ContiguousArray<any Subscription>()
        if case .some(let upstream) = self.upstream.take() { subscriptions.append(upstream) }
        releaseAll(into: &subscriptions)
        var dropped = FIFOQueue<Waiting>()
        if case .failure = completion {
            // Values the subscriber has asked for (held only because it was being called) go
            // down before the failure; values waiting for demand are dropped.
            dropped = serial.pending.takeAll()
            var owed = demand
            while owed > .none, let waiting = dropped.popFirst() {
                serial.pending.append(waiting)
                owed -= 1
            }
        }
        pendingCompletion = switch completion {
        case .finished: .finished
        case .failure(let failure): .failure(failure)
        }
        return Ending(subscriptions: subscriptions, leftovers: (takeTransformLocked(), dropped))
    }

    /// Delivers `completion` at once if nothing is left to do before it: no inner is live,
    /// no value waits, the upstream is over (it sent its completion) and nobody holds the
    /// token. The token is then taken for good (nothing follows a completion), and the
    /// completion goes down without the ``Ending`` and the drain loop. Call with the lock held;
    /// returns `true` with it released, or `false` with it still held.
    @inlinable
    func completeAtOnceLocked(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard liveInners == 0, upstreamFinished, serial.pending.isEmpty, takeTokenLocked() else { return false }
        isActive = false
        isTerminated = true
        let downstream = self.downstream.take().unsafelyUnwrapped
        let transform = takeTransformLocked()
        lock.unlock()
        downstream.receive(completion: completion)
        _ = transform
        return true
    }

    /// Cancels what `ending` took (and `cancelling`), after unlocking and before the
    /// completion goes down, as Combine does; then the token holder delivers the completion:
    /// this thread if it holds the token (`tokenHeld`) or finds it free. Call with the lock
    /// held; returns with it released.
    @inlinable
    func deliverEnding(_ ending: Ending, tokenHeld: Bool = false, cancelling: (any Subscription)? = nil) {
        let mustDrain = tokenHeld || takeTokenLocked()
        if ending.subscriptions.isEmpty && cancelling == nil {
            if mustDrain { drainLocked() } else { lock.unlock() }
            return
        }
        lock.unlock()
        for subscription in ending.subscriptions { subscription.cancel() }
        cancelling?.cancel()
        if mustDrain {
            lock.lock()
            drainLocked()
        }
    }

    // MARK: SerialDelivery

    @inlinable
    func takeTokenLocked() -> Bool { token.takeLocked() }

    @inlinable
    func giveBackTokenLocked() { token.giveBackLocked() }

    /// What the token holder delivers next: waiting values as demand allows (each inner is
    /// asked for its next value once its waiting one has gone out), then the decided
    /// completion: `.finished` once nothing waits, a failure once nothing more can go now.
    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<FlatteningDelivery<Downstream, Waiting>> {
        if isTerminated { return .stop(.letGo(downstream.take())) }
        if returned != .none, let unlimiting = addDemand(returned) { return .deliver(.unlimit(unlimiting)) }
        if let pending = pendingCompletion {
            let completion: Subscribers.Completion<Failure>? = switch pending {
            case .failure(let failure):  // stored from a `Failure`
                serial.pending.isEmpty || demand == .none ? .failure(failure as! Failure) : nil
            case .finished: serial.pending.isEmpty ? .finished : nil
            }
            if let completion {
                pendingCompletion = nil
                isTerminated = true
                return .deliver(.end(completion, downstream.take(), serial.pending.takeAll()))
            }
        }
        guard demand != .none, let waiting = serial.pending.popFirst() else { return .stop(nil) }
        demand -= 1
        let next = withSlot(waiting.slot) {
            $0.isLive && $0.generation == waiting.generation && !$0.isUnlimited ? $0.subscription.optional : nil
        }
        return .deliver(.value(waiting.value, next: next))
    }
}

/// One inner publisher's state in a ``FlatMapSubscription``, guarded by its lock.
@usableFromInline
struct FlatMapInnerSlot {
    @usableFromInline var subscription = HeldSubscription.none
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

/// A subscription the engine holds, or none: `(any Subscription)?` as an enum of its own.
///
/// Why not `Optional`: an existential is destroyed through its value witnesses, and for
/// `Optional<any Subscription>` the compiler does that through the standard library's generic
/// `Optional` witnesses (a metadata lookup, then about 60 instructions even when it is `nil`),
/// in the class's deinit and wherever a field or local of that type is overwritten or dropped.
/// A non-generic enum gets witnesses of its own: its `none` is seen inline, in a few
/// instructions. (Docs/Performance.md, "flatMap: fewer costs per subscription".)
@usableFromInline
enum HeldSubscription {
    case none
    case some(any Subscription)

    /// As an `Optional`, for the paths that are not per subscription.
    @inlinable
    var optional: (any Subscription)? {
        if case .some(let subscription) = self { return subscription }
        return nil
    }

    /// Returns the subscription held, and holds none.
    @inlinable
    mutating func take() -> HeldSubscription {
        var taken = HeldSubscription.none
        swap(&self, &taken)
        return taken
    }

    /// Cancels the subscription held, if any.
    @inlinable
    func cancel() {
        if case .some(let subscription) = self { subscription.cancel() }
    }

    /// Asks the subscription held, if any, for `demand`.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if case .some(let subscription) = self { subscription.request(demand) }
    }
}

/// The calling thread's id, for telling whether a signal comes from inside a call this thread
/// made (``FlatMapSubscription`` subscribing in place). Never 0.
@inlinable @inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
