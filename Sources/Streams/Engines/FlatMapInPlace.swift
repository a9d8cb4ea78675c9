import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The fast path of `flatMap`'s engine (FlatMapSubscription.swift, whose general path reads
// without this file): inner publishers that answer while they are subscribed. Measured gain and
// what it costs in Docs/Performance.md ("flatMap: inner publishers that answer while they are
// subscribed" and the sections after it): W6 (`flatMap { Just($0) }`) one lock round trip per
// inner instead of five.
//
// **The window.** The upstream's thread takes the drain token (if it is free: that is the seam,
// in `receive(_:)`) before it calls `transform` and subscribes the new inner, and gives it back
// when that call returns. An inner that answers synchronously, inside that call (`Just`, a
// sequence, `Empty`, `Fail`, a `CurrentValueSubject`, anything already finished...), is then
// handled *in place*: its subscription and completion are noted in fields only the subscribing
// thread touches (`inPlace...`, recognised by `inPlaceThread`, the subscribing thread's id),
// with no lock; its values are delivered with one lock, or none (below).
//
// **Reserved, then maybe committed.** The inner's slot is only *reserved* (`reserveSlot()`): it
// is made live (*committed*, `makeInPlaceLiveLocked()`) only if something needs it to be, that
// is, when another thread, or a nested call, takes the lock while the window is open (every
// locked entry point of the general path starts with `commitInPlaceLocked()`), or when the
// window is settled under the lock. An inner that finishes in place and that nobody committed
// never becomes live: when the call returns (and `maxPublishers` is `.unlimited`: otherwise the
// upstream is asked for one more inner, under the lock), the subscribing thread closes the
// window and gives the token back with one compare-and-swap, without the lock.
//
// **Other threads meanwhile.** An inner that answers later, or from another thread, goes through
// the general path; while the token is held for the subscribe, other threads' values wait in
// `pending` and are delivered by the subscribing thread, under the lock, before it gives the
// token back. The token is a `DrainToken`: whoever finds it held and leaves work for the holder
// (queues a value, ends the stream, cancels, commits the in-place inner) marks it, so under
// unlimited demand an in-place value whose token is unmarked goes down without the lock, and a
// window whose token is unmarked is closed without it.
//
// **`transform`.** While the window is open, `transform` is the subscribing thread's: it moves
// it out of its field for the call and back, with no retain or release, and whoever ends the
// stream meanwhile leaves it to that thread (`takeTransformLocked()`), which lets go of it when
// it closes the window. (So a value an upstream sends from inside `transform`, which breaks
// [S3], finds `transform` out of its field and is ignored.)
//
// The window's fields, declared with the class: `inPlaceThread` (the subscribing thread's id,
// 0 when no window is open), `inPlaceSlot` and `inPlaceGeneration` (the reserved slot),
// `inPlaceUnlimited` (the inner was, or is to be, asked for `.unlimited`), all written under the
// lock when the window opens; `inPlaceCommitted` (guarded by the lock); and, written only by the
// subscribing thread, `inPlaceSubscribed`, `inPlaceEnded`, `inPlaceFailed` with the failure in
// `inPlaceCompletion` (as `any Error`), and `inPlaceSubscription`, kept (`inPlaceKept`) only if
// the inner had not completed when its first request returned.
//
// [S3]: doc:/Contract/StreamContract#S3

extension FlatMapSubscription {
    /// The in-place half of ``receive(_:)``: this thread took the free token. Reserves a slot,
    /// opens the window, calls `transform`, subscribes the inner and closes the window. Call
    /// with the lock held; returns with it released.
    @inlinable
    func subscribeInPlace(_ input: UpstreamOutput) -> Subscribers.Demand {
        let slot = reserveSlot()
        // An inner subscribed in place becomes live only if someone commits it.
        let generation = withSlot(slot) {
            $0.generation &+= 1
            return $0.generation
        }
        inPlaceSlot = slot
        inPlaceGeneration = generation
        inPlaceUnlimited = demand == .unlimited
        inPlaceCommitted = false
        inPlaceThread.store(currentThreadID(), ordering: .relaxed)
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

    /// Whether this thread is inside the call that subscribes the inner of `slot` and
    /// `generation`, so that the inner's signal is handled in place.
    @inlinable @inline(__always)
    func isInPlace(_ slot: Int, _ generation: Int) -> Bool {
        inPlaceThread.load(ordering: .relaxed) == currentThreadID()
            && inPlaceSlot == slot && inPlaceGeneration == generation
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

    /// Commits the inner being subscribed in place, if a window is open and it is not yet
    /// committed: another thread (or a nested call) is about to look at the inners' state, so
    /// the inner's slot is made live, as it would be for an inner subscribed in general, and the
    /// token is marked, so that the subscribing thread settles the window under the lock. Call
    /// with the lock held, at the start of every locked entry point that is not the subscribing
    /// thread's own in-place path.
    @inlinable @inline(__always)
    func commitInPlaceLocked() {
        guard inPlaceThread.load(ordering: .acquiring) != 0, !inPlaceCommitted else { return }
        if token.takeLocked() {
            // The token was free: the window closed meanwhile (its thread closes it before it
            // gives the token back, and this load may not have seen that yet). Nothing to
            // commit. (If another thread had taken the token since, it did so under this lock,
            // after the give-back: this load would have seen the window closed.)
            token.giveBackLocked()
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
    /// its thread may be calling `transform`, which it does without a copy
    /// (``subscribeInPlace(_:)``), so `transform` is then left to it, and the token marked so
    /// that it closes the window under the lock and lets go of `transform` there
    /// (``closeInPlace()``). Call with the lock held.
    @inlinable
    func takeTransformLocked() -> ((UpstreamOutput) -> NewPublisher)? {
        if inPlaceThread.load(ordering: .acquiring) != 0 {
            guard token.takeLocked() else { return nil }  // marked: the window's thread lets go of it
            // The token was free: the window closed meanwhile (see ``commitInPlaceLocked()``).
            token.giveBackLocked()
        }
        return transform.take()
    }

    // MARK: The in-place inner's signals (on the subscribing thread, without the lock)

    /// The in-place inner's subscription: asked for its first value (or `.unlimited`); kept
    /// only if the inner has not completed when that request returns. Settled in its slot under
    /// the lock when the window closes.
    @inlinable
    func inPlaceSubscribed<S: Subscription>(_ subscription: S) {
        guard !inPlaceSubscribed, !inPlaceEnded else {
            subscription.cancel()
            return
        }
        inPlaceSubscribed = true
        subscription.request(inPlaceUnlimited ? .unlimited : .max(1))
        // An inner that completed during the request (`Just`, a sequence...) needs its
        // subscription no more: it is not kept (no retain, no release).
        if !inPlaceEnded {
            inPlaceKept = true
            NoSubscription.hold(subscription, in: &inPlaceSubscription)
        }
    }

    /// A value of the inner being subscribed in place, on the subscribing thread: the token is
    /// already held, so the value is delivered, or queued, under one lock (or none).
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
        if !pending.isEmpty || demand == .none {
            pending.append((value, slot, generation))
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

    /// The in-place inner's completion: noted, and settled under the lock when the window
    /// closes.
    @inlinable
    func inPlaceCompleted(_ completion: Subscribers.Completion<Failure>) {
        guard inPlaceSubscribed, !inPlaceEnded else { return }
        inPlaceEnded = true
        // An ended inner's subscription is not kept (see `inPlaceSubscribed`): once ended,
        // `inPlaceSubscription` holds a `NoSubscription`.
        if inPlaceKept {
            inPlaceKept = false
            _ = NoSubscription.take(from: &inPlaceSubscription)
        }
        if case .failure(let failure) = completion {
            inPlaceFailed = true
            inPlaceCompletion = .failure(failure)
        }
    }

    /// Puts back the downstream that the token holder took out for a call: the field is `nil`
    /// (whatever happened during the call left the downstream to the holder), so it is
    /// initialized over, which skips releasing the `nil` (Docs/Performance.md, "The downstream
    /// put back without a release").
    @inlinable @inline(__always)
    func putBack(_ downstream: __owned Downstream) {
        withUnsafeMutablePointer(to: &self.downstream) { $0.initialize(to: downstream) }
    }

    /// Puts back `transform`, moved out of its (then `nil`) field for a call, the same way.
    @inlinable @inline(__always)
    func putBack(transform: __owned @escaping (UpstreamOutput) -> NewPublisher) {
        withUnsafeMutablePointer(to: &self.transform) { $0.initialize(to: transform) }
    }

    // MARK: Closing the window

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
        if inPlaceEnded && !inPlaceFailed && isActive && pending.isEmpty
            && (maxPublishers == .unlimited || upstreamFinished) && !(upstreamFinished && liveInners == 1)
            && withSlot(inPlaceSlot, { $0.isLive && !$0.isSubscribed && $0.generation == inPlaceGeneration })
        {
            liveInners -= 1
            if !otherSlots.isEmpty { freeSlots.append(inPlaceSlot) }
            withSlot(inPlaceSlot) {
                $0.isLive = false
                $0.isInPlace = false
            }
            inPlaceSubscribed = false
            inPlaceEnded = false
            token.giveBackLocked()
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
        let kept = inPlaceKept
        let subscription = NoSubscription.take(from: &inPlaceSubscription)
        inPlaceKept = false
        let ended = inPlaceEnded
        let failure = inPlaceFailed ? inPlaceCompletion.take() : nil
        inPlaceSubscribed = false
        inPlaceEnded = false
        inPlaceFailed = false
        var cancelling: (any Subscription)?
        var unlimiting: (any Subscription)?
        var askUpstream = false
        var ending: Subscribers.Completion<Failure>?
        let stillLive = withSlot(slot) {
            $0.isInPlace = false
            return $0.isLive && $0.generation == generation
        }
        if !isActive || !stillLive {
            // The stream ended, or another thread completed the inner, during the call.
            if kept { cancelling = subscription }
        } else if ended {
            let subscribed = withSlot(slot) { $0.isSubscribed }
            let released = release(slot)  // a second subscription, from another thread
            if subscribed { cancelling = released }
            if case .failure(let failure) = failure {  // stored from a `Failure`
                ending = .failure(failure as! Failure)
            } else if upstreamFinished && liveInners == 0 {
                ending = .finished
            } else if !upstreamFinished && maxPublishers != .unlimited {
                askUpstream = true
            }
        } else if kept {
            if withSlot(slot, { $0.isSubscribed }) {
                cancelling = subscription  // a second subscription: another thread's came first
            } else {
                let unlimited = inPlaceUnlimited || demand == .unlimited
                if unlimited && !inPlaceUnlimited { unlimiting = subscription }
                withSlot(slot) {
                    $0.isSubscribed = true
                    $0.subscription = subscription
                    $0.isUnlimited = unlimited
                }
            }
        } else if !withSlot(slot, { $0.isSubscribed }) && !pending.isEmpty {
            // No subscription yet: what another thread sent for it came before it (S2).
            var others = FIFOQueue<Waiting>()
            var waiting = pending.takeAll()
            while let value = waiting.popFirst() {
                if value.slot != slot || value.generation != generation { others.append(value) }
            }
            pending = others
        }
        if let ending {
            endLocked(with: ending, tokenHeld: true, cancelling: cancelling)
            return
        }
        let upstream: any Subscription = askUpstream ? self.upstream : NoSubscription()
        if cancelling == nil && unlimiting == nil && pending.isEmpty && pendingCompletion == nil && !isTerminated {
            token.giveBackLocked()
            lock.unlock()
        } else {
            lock.unlock()
            cancelling?.cancel()
            unlimiting?.request(.unlimited)
            lock.lock()
            drainLocked()
        }
        upstream.request(.max(1))
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
