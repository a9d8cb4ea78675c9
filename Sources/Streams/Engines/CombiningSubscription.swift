/// The engine shared by the operators that combine several upstreams into one stream: `merge`
/// (``MergeSubscription``), `zip` (``ZipSubscription``) and `combineLatest`
/// (``CombineLatestSubscription``).
///
/// It is the subscription the downstream receives; each upstream is subscribed with a small
/// side subscriber that calls in with its index. The upstreams may send from several threads at
/// once, so everything here sits behind `lock`, except the downstream, which only the holder of
/// the *drain token* (`isDraining == true`) touches. Only the token holder calls the downstream,
/// so the downstream is never called from two threads at once (S3). A value that arrives while
/// another thread holds the token goes into `ready`, and the holder delivers it after the value
/// it is delivering, in a loop rather than by recursion: a `request` from inside `receive(_:)`
/// that makes an upstream send at once adds to the running loop instead of growing the stack
/// (S8). Nothing is called with the lock held: cancels and requests for the upstreams are
/// gathered under the lock and made after unlocking, and what the stream lets go of (values,
/// subscriptions, the downstream) is dropped after unlocking too.
///
/// Everything in `ready` is paid for: its unit of the downstream's demand was taken when it was
/// put there (S1). Values that wait for demand stay in the subclass (merge's waiting values,
/// zip's queues). A completion goes into `ready` behind the values already paid for, and what
/// still waits in the subclass is dropped: a failure drops it at once, and a `.finished` comes
/// only when none of it could go out any more (merge: nothing waits; zip: nothing can be
/// paired).
///
/// An upstream's value or completion is taken only between its subscription and its end (the
/// subclasses check ``isSubscribedLocked(_:)`` per value): what a misbehaving upstream sends
/// before or after is ignored, and a second subscription is cancelled (S2). `request(.none)` is
/// accepted and does nothing, as in Combine (S9).
///
/// Subclasses take the upstreams' values (with the lock), and implement the `…Locked` hooks of
/// ``CombiningRules``: the first request for an upstream, what more demand does, what an
/// upstream's `.finished` does, and what is let go when the stream ends. A subclass names itself
/// as `Rules` (`final class MergeSubscription<D>: CombiningSubscription<D, MergeSubscription<D>>`),
/// so that the engine calls the hooks on the final type, statically: called through the class's
/// vtable they would run unspecialized, looking up generic metadata at run time on every call.
@usableFromInline
class CombiningSubscription<Downstream: Subscriber, Rules: CombiningRules>: Subscription,
    CustomStringConvertible,
    @unchecked Sendable  // state guarded by `lock`; `downstream` owned by the drain-token holder
{
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    enum Phase {
        /// Taking values from the upstreams.
        case running
        /// The completion is queued in `ready`; the upstreams are over.
        case ending
        /// The completion was delivered, or the downstream cancelled.
        case done
    }

    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// One upstream's subscription, over its life.
    @usableFromInline
    enum Slot {
        case awaiting
        case subscribed(any Subscription)
        case finished
    }

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)`: the lock (or the drain token, for `downstream`) already makes
    // every access exclusive; the runtime's dynamic check would only add cost per value.
    @exclusivity(unchecked) @usableFromInline final var phase = Phase.running
    /// The drain token. The subscribing thread holds it until the downstream has its
    /// subscription, so that nothing is delivered before (S2).
    @exclusivity(unchecked) @usableFromInline final var isDraining = true
    /// Events paid for and not yet delivered, oldest first.
    @exclusivity(unchecked) @usableFromInline final var ready = FIFOQueue<Event>()
    /// The downstream's outstanding demand, less what `ready` holds.
    @exclusivity(unchecked) @usableFromInline final var demand = Subscribers.Demand.none
    /// Everything the downstream has requested (not counting demand returned from
    /// `receive(_:)`): what zip and combineLatest ask of an upstream that subscribes late.
    @exclusivity(unchecked) @usableFromInline final var requested = Subscribers.Demand.none
    @exclusivity(unchecked) @usableFromInline final var slots: [Slot]
    /// How many upstreams have completed.
    @exclusivity(unchecked) @usableFromInline final var finishedCount = 0
    /// Work gathered under the lock, done after unlocking.
    @exclusivity(unchecked) @usableFromInline final var requests: [(any Subscription, Subscribers.Demand)] = []
    @exclusivity(unchecked) @usableFromInline final var cancels: [any Subscription] = []
    /// What the stream lets go of, dropped after unlocking.
    @exclusivity(unchecked) @usableFromInline final var leftovers: [Any] = []
    @exclusivity(unchecked) @usableFromInline final var downstream: Downstream?
    @usableFromInline let name: StaticString

    @inlinable
    init(downstream: Downstream, upstreamCount: Int, name: StaticString) {
        self.downstream = downstream
        self.slots = Array(repeating: .awaiting, count: upstreamCount)
        self.name = name
    }

    @usableFromInline var description: String { "\(name)" }

    /// This object as its final subclass, whose hooks the engine calls.
    @inlinable
    final var rules: Rules { unsafeDowncast(self, to: Rules.self) }

    // MARK: Starting

    /// Gives the downstream its subscription; call once, before subscribing the upstreams.
    @inlinable
    final func start() {
        downstream!.receive(subscription: self)
        lock.lock()
        if slots.isEmpty, case .running = phase {
            endLocked(.finished)
        }
        drainLocked()
    }

    /// Whether the stream still takes values: `false` once it has ended or been cancelled (the
    /// remaining upstreams are then not subscribed at all).
    @inlinable
    final var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .running = phase { return true }
        return false
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    final func request(_ more: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard more != .none else { return }
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return
        }
        demand += more
        requested += more
        rules.demandDidGrowLocked(by: more)
        unlockAndFlush()
    }

    @inlinable
    final func cancel() {
        lock.lock()
        if case .done = phase {
            lock.unlock()
            return
        }
        phase = .done
        cancelUpstreamsLocked()
        leftovers.append(rules.takeWaitingLocked())
        leftovers.append(ready)
        ready = FIFOQueue()
        // A drain in progress lets go of the downstream when it sees `.done`; with the token
        // free, nobody is using it.
        if !isDraining, let downstream = self.downstream.take() {
            leftovers.append(downstream)
        }
        unlockAndFlush()
    }

    // MARK: The upstreams' signals

    @inlinable
    final func receive(subscription: any Subscription, at index: Int) {
        lock.lock()
        guard case .running = phase, case .awaiting = slots[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        slots[index] = .subscribed(subscription)
        let initial = rules.initialDemandLocked(for: index)
        lock.unlock()
        if initial != .none { subscription.request(initial) }
    }

    @inlinable
    final func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard case .running = phase, case .subscribed(let subscription) = slots[index] else {
            lock.unlock()
            return
        }
        slots[index] = .finished
        leftovers.append(subscription)
        finishedCount += 1
        switch completion {
        case .finished:
            rules.upstreamFinishedLocked(at: index)
        case .failure:
            endLocked(completion)
        }
        unlockAndFlush()
    }

    // MARK: For subclasses

    /// Whether upstream `index` has sent its subscription and not yet completed: only then are
    /// its values taken (a misbehaving upstream's value before or after that is ignored, S2).
    /// Call with the lock held.
    @inlinable
    final func isSubscribedLocked(_ index: Int) -> Bool {
        if case .subscribed = slots[index] { return true }
        return false
    }

    /// Ends the stream with `completion`, queued behind the values already paid for: cancels the
    /// upstreams still running and drops what waits. Call with the lock held.
    @inlinable
    final func endLocked(_ completion: Subscribers.Completion<Failure>) {
        phase = .ending
        cancelUpstreamsLocked()
        leftovers.append(rules.takeWaitingLocked())
        ready.append(.completion(completion))
    }

    /// Gathers a cancel for every upstream still subscribed and marks them all over. Call with
    /// the lock held.
    @inlinable
    final func cancelUpstreamsLocked() {
        for index in slots.indices {
            if case .subscribed(let subscription) = slots[index] { cancels.append(subscription) }
            slots[index] = .finished
        }
    }

    /// Gathers a request of `more` for every upstream still subscribed. Call with the lock held.
    @inlinable
    final func requestFromEveryUpstreamLocked(_ more: Subscribers.Demand) {
        for slot in slots {
            if case .subscribed(let subscription) = slot { requests.append((subscription, more)) }
        }
    }

    /// Sends `value`, paid for, downstream: at once when nobody is delivering and no other work
    /// is gathered (the fast path, without the queue), else through `ready`. Call with the lock
    /// held; returns with it released.
    @inlinable
    final func sendLocked(_ value: Output) {
        if isDraining || !requests.isEmpty || !cancels.isEmpty || !leftovers.isEmpty {
            ready.append(.value(value))
            unlockAndFlush()
            return
        }
        // The token is free, so `ready` is empty: `value` is next.
        isDraining = true
        lock.unlock()
        let more = deliver(value)
        lock.lock()
        if more != .none { addReturnedDemandLocked(more) }
        drainLocked()
    }

    /// Releases the lock, then makes the gathered cancels and requests, drops the leftovers, and
    /// delivers what is ready unless someone else is delivering. Call with the lock held.
    @inlinable
    final func unlockAndFlush() {
        let drains = !isDraining && !ready.isEmpty
        if drains { isDraining = true }
        if requests.isEmpty && cancels.isEmpty && leftovers.isEmpty {
            lock.unlock()
        } else {
            let work = takeWorkLocked()
            lock.unlock()
            work.perform()
        }
        if drains {
            lock.lock()
            drainLocked()
        }
    }

    /// The drain loop: delivers what is ready, in order, one event at a time with the lock
    /// released, until nothing is left; then gives the token back. Call with the lock held and
    /// the token taken; returns with both released.
    @inlinable
    final func drainLocked() {
        while true {
            if !requests.isEmpty || !cancels.isEmpty || !leftovers.isEmpty {
                let work = takeWorkLocked()
                lock.unlock()
                work.perform()
                lock.lock()
                continue
            }
            if case .done = phase {
                let downstream = self.downstream.take()
                isDraining = false
                lock.unlock()
                _ = downstream
                return
            }
            guard let event = ready.popFirst() else {
                isDraining = false
                lock.unlock()
                return
            }
            switch event {
            case .value(let value):
                lock.unlock()
                let more = deliver(value)
                lock.lock()
                if more != .none { addReturnedDemandLocked(more) }
            case .completion(let completion):
                phase = .done
                let downstream = self.downstream.take()
                isDraining = false
                lock.unlock()
                downstream?.receive(completion: completion)
                return
            }
        }
    }

    /// Calls the downstream with `value`. Only the drain-token holder calls it.
    @inlinable
    final func deliver(_ value: Output) -> Subscribers.Demand {
        // Moved out and back in rather than copied, which would retain and release it per
        // value; nothing else touches it while the token is held.
        guard let downstream = self.downstream.take() else { return .none }
        let more = downstream.receive(value)
        self.downstream = consume downstream
        return more
    }

    /// Demand the downstream returned from `receive(_:)`. Call with the lock held.
    @inlinable
    final func addReturnedDemandLocked(_ more: Subscribers.Demand) {
        guard case .running = phase else { return }
        demand += more
        rules.demandDidGrowLocked(by: more)
    }

    @inlinable
    final func takeWorkLocked() -> GatheredWork {
        let work = GatheredWork(requests: requests, cancels: cancels, leftovers: leftovers)
        requests = []
        cancels = []
        leftovers = []
        return work
    }
}

/// The hooks a ``CombiningSubscription`` subclass implements, all called with the lock held.
@usableFromInline
protocol CombiningRules: AnyObject {
    /// The first request for upstream `index`, made as soon as it is subscribed.
    func initialDemandLocked(for index: Int) -> Subscribers.Demand
    /// The downstream's demand has grown by `added` (`demand` already includes it): move what
    /// waited for it into `ready`, and gather the upstream requests it calls for.
    func demandDidGrowLocked(by added: Subscribers.Demand)
    /// Upstream `index` finished (its slot is already `.finished` and counted): end the stream
    /// if that is the rule.
    func upstreamFinishedLocked(at index: Int)
    /// Takes the values that wait in the subclass, to be dropped after unlocking.
    func takeWaitingLocked() -> Any
}

/// A ``CombiningSubscription`` whose upstreams have different output types (zip,
/// combineLatest): each upstream's values go into one typed `Storage`, through a closure that
/// knows the upstream's place in it.
@usableFromInline
protocol SlotStoring: AnyObject, CustomStringConvertible {
    /// Where the upstreams' values are kept.
    associatedtype Storage
    /// The upstreams' failure type.
    associatedtype Failure: Error

    /// Upstream `index` is subscribed.
    func receive(subscription: any Subscription, at index: Int)
    /// A value from upstream `index`, which `store` puts in its place in the storage.
    func receive<Input>(_ value: Input, at index: Int, store: (inout Storage, Input) -> Void) -> Subscribers.Demand
    /// Upstream `index` completed.
    func receive(completion: Subscribers.Completion<Failure>, at index: Int)
}

/// The subscriber a zip or combineLatest gives upstream `index`: passes its signals on with the
/// index, and its values with the closure that stores them.
@usableFromInline
struct SlotSide<Input, Combiner: SlotStoring>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = Combiner.Failure

    @usableFromInline let combiner: Combiner
    @usableFromInline let index: Int
    @usableFromInline let store: (inout Combiner.Storage, Input) -> Void
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(_ combiner: Combiner, index: Int, store: @escaping (inout Combiner.Storage, Input) -> Void) {
        self.combiner = combiner
        self.index = index
        self.store = store
    }

    @usableFromInline var description: String { combiner.description }

    @inlinable
    func receive(subscription: any Subscription) {
        combiner.receive(subscription: subscription, at: index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        combiner.receive(input, at: index, store: store)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        combiner.receive(completion: completion, at: index)
    }
}

/// Upstream cancels and requests gathered under a ``CombiningSubscription``'s lock, and what it
/// lets go of: done or dropped after unlocking.
@usableFromInline
struct GatheredWork {
    @usableFromInline let requests: [(any Subscription, Subscribers.Demand)]
    @usableFromInline let cancels: [any Subscription]
    @usableFromInline let leftovers: [Any]

    @inlinable
    init(requests: [(any Subscription, Subscribers.Demand)], cancels: [any Subscription], leftovers: [Any]) {
        self.requests = requests
        self.cancels = cancels
        self.leftovers = leftovers
    }

    /// Cancels first: a failure cancels the other upstreams before it is delivered.
    @inlinable
    func perform() {
        for subscription in cancels { subscription.cancel() }
        for (subscription, demand) in requests { subscription.request(demand) }
    }
}
