import Synchronization

// The engine of the operators that combine several upstreams into one stream: `merge`
// (``MergeRules``), `zip` (``ZipRules``) and `combineLatest` (``LatestRules``).
//
// One object, ``CombiningSubscription``, is the subscription the downstream holds; each upstream
// is subscribed with a small struct subscriber (``MergeSide``, ``SlotSide``) that calls in with
// its index. What differs between the three operators is a `Rules` value stored in the engine:
// what a value does when it arrives, what more demand does, what an upstream's `.finished` does.
// The rules work on ``CombiningCore``, the state every combining operator shares.
//
// State machine (``CombiningPhase``): `running` (taking values) → `ending` (the completion is
// decided and waits behind the values already paid for; the upstreams are over) → `done` (the
// completion was delivered, or the downstream cancelled). Per upstream (``UpstreamSlot``):
// `awaiting` → `subscribed` → `finished`; values are taken only from a `subscribed` upstream,
// and a second subscription is cancelled (S2).
//
// Locking: one `lock` guards the core and the rules. The downstream is touched only by the
// holder of the *drain token* (`isDraining`): only the token holder calls the downstream, so it
// is never called from two threads at once (S3). A value that arrives while another thread
// holds the token goes into `core.ready`, and the holder delivers it after the one it is
// delivering, in a loop rather than by recursion: a `request` from inside `receive(_:)` that
// makes an upstream send at once adds to the running loop instead of growing the stack (S8).
// Nothing is called with the lock held: requests and cancels for the upstreams are gathered in
// the core and made after unlocking, and what the stream lets go of (an upstream's
// subscription, waiting values, the downstream) is dropped after unlocking too.
//
// Everything in `core.ready` is paid for: its unit of the downstream's demand was taken when it
// was put there (S1). Values that wait for demand stay in the rules (merge's waiting values,
// zip's queues).
//
// Performance (measured with `StreamsBenchmarks M1 M2 C1 C2`, see Docs/Performance.md):
// - Per value, the lock is taken twice and nothing is allocated: with the token free, a value
//   goes straight to the downstream without the queue (`sendLocked`).
// - Per subscription, the cost is the objects and what their deinit must look up. A class's
//   deinit is never specialized: every stored property whose type is built from the generic
//   parameters (an `Optional<Downstream>`, a type nested in the generic class) costs a generic
//   metadata lookup at run time when the object dies. So the per-upstream slots, the phase and
//   the gathered requests are non-generic top-level types, the pending completion is kept as
//   `Completion<any Error>`, and the rules are a stored property whose type is a generic
//   parameter itself (its metadata comes with the class's). Arrays are allocated only when
//   there is something to put in them (the slots, one per subscription).
// - ``CombiningSubscription/isRunning``, asked before each upstream is subscribed, reads an
//   atomic mirror of the phase instead of taking the lock.

/// The life of a combining operator's stream.
@usableFromInline
enum CombiningPhase {
    /// Taking values from the upstreams.
    case running
    /// The completion is decided and waits behind the values already paid for; the upstreams
    /// are over.
    case ending
    /// The completion was delivered, or the downstream cancelled.
    case done
}

/// One upstream's subscription, over its life: `awaiting` → `subscribed` → `finished`.
@usableFromInline
struct UpstreamSlot {
    @usableFromInline
    enum State { case awaiting, subscribed, finished }

    @usableFromInline var state = State.awaiting
    /// Set while `subscribed`.
    @usableFromInline var subscription: (any Subscription)?

    @inlinable init() {}
}

/// The slots of a combining operator's upstreams. The first two are stored inline, the others
/// in an array: a merge, zip or combineLatest of two publishers allocates none.
@usableFromInline
struct UpstreamSlots {
    @usableFromInline var first = UpstreamSlot()
    @usableFromInline var second = UpstreamSlot()
    @usableFromInline var others: ContiguousArray<UpstreamSlot> = []

    @inlinable
    init(count: Int) {
        if count > 2 { others = ContiguousArray(repeating: UpstreamSlot(), count: count - 2) }
    }

    @inlinable
    func state(at index: Int) -> UpstreamSlot.State {
        switch index {
        case 0: first.state
        case 1: second.state
        default: others[index - 2].state
        }
    }

    /// Calls `body` with the slot of upstream `index`, to read or change in place.
    @inlinable
    mutating func withSlot<Result>(at index: Int, _ body: (inout UpstreamSlot) -> Result) -> Result {
        switch index {
        case 0: body(&first)
        case 1: body(&second)
        default: body(&others[index - 2])
        }
    }

    /// Calls `body` with the subscription of every upstream still subscribed.
    @inlinable
    func forEachSubscribed(_ body: (any Subscription) -> Void) {
        if let subscription = first.subscription { body(subscription) }
        if let subscription = second.subscription { body(subscription) }
        for slot in others {
            if let subscription = slot.subscription { body(subscription) }
        }
    }
}

/// A request for an upstream, gathered under the lock and made after unlocking.
@usableFromInline
struct UpstreamRequest {
    @usableFromInline let subscription: any Subscription
    @usableFromInline let demand: Subscribers.Demand

    @inlinable
    init(_ subscription: any Subscription, _ demand: Subscribers.Demand) {
        self.subscription = subscription
        self.demand = demand
    }
}

/// The state every combining operator shares, which its rules read and change. Guarded by the
/// engine's lock.
@usableFromInline
struct CombiningCore<Output> {
    @usableFromInline var phase = CombiningPhase.running
    /// The downstream's outstanding demand, less what `ready` holds.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Everything the downstream has requested (not counting demand returned from
    /// `receive(_:)`): what zip and combineLatest ask of an upstream that subscribes late.
    @usableFromInline var requested = Subscribers.Demand.none
    /// Values paid for and not yet delivered, oldest first.
    @usableFromInline var ready = FIFOQueue<Output>()
    /// The completion decided (`ending`), delivered after `ready`. A failure is kept as
    /// `any Error` (see the performance notes above).
    @usableFromInline var completion: Subscribers.Completion<any Error>?
    /// Emptied when the stream ends (and never read after: every signal checks the phase).
    @usableFromInline var slots: UpstreamSlots
    @usableFromInline let upstreamCount: Int
    /// How many upstreams have completed.
    @usableFromInline var finishedCount = 0
    /// Requests gathered under the lock, made after unlocking.
    @usableFromInline var requests = ContiguousArray<UpstreamRequest>()
    /// The slots of the upstreams to cancel after unlocking, taken when the stream ended.
    @usableFromInline var cancelling: UpstreamSlots?

    @inlinable
    init(upstreamCount: Int) {
        self.upstreamCount = upstreamCount
        slots = UpstreamSlots(count: upstreamCount)
    }

    @inlinable var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// Whether upstream `index` has sent its subscription and not yet completed: only then are
    /// its values taken (S2).
    @inlinable
    func isSubscribed(_ index: Int) -> Bool {
        slots.state(at: index) == .subscribed
    }

    /// Whether upstream `index` has finished (while the stream is running).
    @inlinable
    func isFinished(_ index: Int) -> Bool {
        slots.state(at: index) == .finished
    }

    /// Whether requests or cancels wait to be made.
    @inlinable var hasWork: Bool { !requests.isEmpty || cancelling != nil }

    /// Ends the stream with `completion`, delivered behind the values already paid for: the
    /// upstreams still running are cancelled.
    @inlinable
    mutating func end<Failure>(_ completion: Subscribers.Completion<Failure>) {
        phase = .ending
        let upstreams = slots
        slots = UpstreamSlots(count: 0)
        var anySubscribed = false
        upstreams.forEachSubscribed { _ in anySubscribed = true }
        if anySubscribed { cancelling = upstreams }
        switch completion {
        case .finished: self.completion = .finished
        case .failure(let error): self.completion = .failure(error)
        }
    }

    /// Gathers a request of `more` for every upstream still subscribed.
    @inlinable
    mutating func requestFromEveryUpstream(_ more: Subscribers.Demand) {
        slots.forEachSubscribed { requests.append(UpstreamRequest($0, more)) }
    }

    /// Gathers a request of `more` for upstream `index`, if it is still subscribed.
    @inlinable
    mutating func request(_ more: Subscribers.Demand, fromUpstream index: Int) {
        if let subscription = slots.withSlot(at: index, { $0.subscription }) {
            requests.append(UpstreamRequest(subscription, more))
        }
    }
}

/// What a combining operator does with its upstreams' signals; the engine calls each hook with
/// its lock held.
@usableFromInline
protocol CombiningRules {
    /// The values the operator sends.
    associatedtype Output
    /// The operator's name, as `description` shows it.
    static var name: StaticString { get }
    /// No values yet.
    init()
    /// The first request for upstream `index`, made as soon as it is subscribed.
    func initialDemand(for index: Int, _ core: CombiningCore<Output>) -> Subscribers.Demand
    /// The downstream's demand has grown by `added` (`core.demand` already includes it): move
    /// what waited for it into `core.ready`, and gather the upstream requests it calls for.
    mutating func demandDidGrow(by added: Subscribers.Demand, _ core: inout CombiningCore<Output>)
    /// Upstream `index` finished (its slot is already `.finished` and counted): end the stream
    /// if that is the rule.
    mutating func upstreamFinished(at index: Int, _ core: inout CombiningCore<Output>)
}

/// Rules whose upstreams' values go into a typed `Storage` (zip, combineLatest): each upstream's
/// values are put in its place by a closure that knows it.
@usableFromInline
protocol StoringRules: CombiningRules {
    /// Where the upstreams' values are kept.
    associatedtype Storage
    var storage: Storage { get set }
    /// A value from upstream `index` was just stored: returns the combination to send, paid for
    /// (`core.demand` already lessened), or `nil`.
    mutating func valueStored(at index: Int, _ core: inout CombiningCore<Output>) -> Output?
}

/// The subscription a combining operator's downstream receives; see the comment at the top of
/// this file.
@usableFromInline
final class CombiningSubscription<Downstream: Subscriber, Rules: CombiningRules>: Subscription,
    CustomStringConvertible,
    @unchecked Sendable  // `core` and `rules` guarded by `lock`; `downstream` owned by the drain-token holder
where Rules.Output == Downstream.Input {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)`: the lock (or the drain token, for `downstream`) already makes
    // every access exclusive; the runtime's dynamic check would only add cost per value.
    @exclusivity(unchecked) @usableFromInline var core: CombiningCore<Output>
    @exclusivity(unchecked) @usableFromInline var rules = Rules()
    /// The drain token. The subscribing thread holds it until the downstream has its
    /// subscription, so that nothing is delivered before (S2).
    @exclusivity(unchecked) @usableFromInline var isDraining = true
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// `true` once the phase has left `running`: written with the lock held, read without.
    @usableFromInline let isOver = Atomic<Bool>(false)

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = downstream
        core = CombiningCore(upstreamCount: upstreamCount)
    }

    @usableFromInline var description: String { "\(Rules.name)" }

    // MARK: Starting

    /// Gives the downstream its subscription; call once, before subscribing the upstreams.
    @inlinable
    func start() {
        downstream!.receive(subscription: self)
        lock.lock()
        if core.upstreamCount == 0, core.isRunning {
            core.end(Subscribers.Completion<Failure>.finished)
        }
        drainLocked()
    }

    /// Whether the stream still takes values: `false` once it has ended or been cancelled (the
    /// remaining upstreams are then not subscribed at all).
    @inlinable
    var isRunning: Bool { !isOver.load(ordering: .acquiring) }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ more: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard more != .none else { return }
        lock.lock()
        guard core.isRunning else {
            lock.unlock()
            return
        }
        core.demand += more
        core.requested += more
        rules.demandDidGrow(by: more, &core)
        unlockAndFlush()
    }

    @inlinable
    func cancel() {
        lock.lock()
        if case .done = core.phase {
            lock.unlock()
            return
        }
        core.phase = .done
        isOver.store(true, ordering: .releasing)
        // Let go of after unlocking: the upstreams (cancelled), what waits, and the downstream
        // unless a drain in progress is using it (it lets go of it when it sees `.done`).
        let upstreams = core.slots
        core.slots = UpstreamSlots(count: 0)
        let waiting = rules
        rules = Rules()
        let ready = core.ready.takeAll()
        let completion = core.completion.take()
        let downstream = isDraining ? nil : self.downstream.take()
        lock.unlock()
        upstreams.forEachSubscribed { $0.cancel() }
        withExtendedLifetime((waiting, ready, completion, downstream)) {}
    }

    // MARK: The upstreams' signals

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        lock.lock()
        guard core.isRunning, core.slots.state(at: index) == .awaiting else {
            lock.unlock()
            subscription.cancel()
            return
        }
        core.slots.withSlot(at: index) {
            $0.state = .subscribed
            $0.subscription = subscription
        }
        let initial = rules.initialDemand(for: index, core)
        lock.unlock()
        if initial != .none { subscription.request(initial) }
    }

    /// Takes a value from upstream `index`: `take` hands it to the rules, which return what to
    /// send (paid for) and the demand to return to the upstream.
    @inlinable
    func receive<Input>(
        _ value: Input, at index: Int,
        take: (inout Rules, Input, inout CombiningCore<Output>) -> (send: Output?, more: Subscribers.Demand)
    ) -> Subscribers.Demand {
        lock.lock()
        guard core.isRunning, core.isSubscribed(index) else {
            lock.unlock()
            return .none
        }
        let (send, more) = take(&rules, value, &core)
        if let send {
            sendLocked(send)
        } else {
            unlockAndFlush()
        }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard core.isRunning, core.isSubscribed(index) else {
            lock.unlock()
            return
        }
        // The subscription is let go of after unlocking.
        let subscription = core.slots.withSlot(at: index) {
            $0.state = .finished
            return $0.subscription.take()
        }
        core.finishedCount += 1
        switch completion {
        case .finished:
            rules.upstreamFinished(at: index, &core)
        case .failure:
            core.end(completion)
        }
        unlockAndFlush()
        withExtendedLifetime(subscription) {}
    }

    // MARK: Delivery

    /// Sends `value`, paid for, downstream: at once when nobody is delivering and no other work
    /// is gathered (the fast path, without the queue), else through `core.ready`. Call with the
    /// lock held; returns with it released.
    @inlinable
    func sendLocked(_ value: Output) {
        if isDraining || core.hasWork {
            core.ready.append(value)
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

    /// Delivers what is ready unless someone else is delivering, else releases the lock and
    /// makes the gathered requests and cancels. Call with the lock held.
    @inlinable
    func unlockAndFlush() {
        if !isDraining && (!core.ready.isEmpty || core.completion != nil) {
            isDraining = true
            drainLocked()
        } else if core.hasWork {
            let (requests, cancels) = takeWorkLocked()
            unlock()
            perform(requests, cancels)
        } else {
            unlock()
        }
    }

    /// The drain loop: makes the gathered requests and cancels, delivers what is ready, in
    /// order, one event at a time with the lock released, then the completion; then gives the
    /// token back. Call with the lock held and the token taken; returns with both released.
    @inlinable
    func drainLocked() {
        while true {
            if core.hasWork {
                let (requests, cancels) = takeWorkLocked()
                unlock()
                perform(requests, cancels)
                lock.lock()
                continue
            }
            if case .done = core.phase {
                let downstream = self.downstream.take()
                isDraining = false
                unlock()
                withExtendedLifetime(downstream) {}
                return
            }
            if let value = core.ready.popFirst() {
                unlock()
                let more = deliver(value)
                lock.lock()
                if more != .none { addReturnedDemandLocked(more) }
                continue
            }
            guard let completion = core.completion.take() else {
                isDraining = false
                unlock()
                return
            }
            core.phase = .done
            let downstream = self.downstream.take()
            let waiting = rules
            rules = Rules()
            isDraining = false
            unlock()
            switch completion {
            case .finished: downstream?.receive(completion: .finished)
            case .failure(let error): downstream?.receive(completion: .failure(error as! Failure))
            }
            withExtendedLifetime(waiting) {}
            return
        }
    }

    /// Calls the downstream with `value`. Only the drain-token holder calls it.
    @inlinable
    func deliver(_ value: Output) -> Subscribers.Demand {
        // Moved out and back in rather than copied, which would retain and release it per
        // value; nothing else touches it while the token is held.
        guard let downstream = self.downstream.take() else { return .none }
        let more = downstream.receive(value)
        self.downstream = consume downstream
        return more
    }

    /// Demand the downstream returned from `receive(_:)`. Call with the lock held.
    @inlinable
    func addReturnedDemandLocked(_ more: Subscribers.Demand) {
        guard core.isRunning else { return }
        core.demand += more
        rules.demandDidGrow(by: more, &core)
    }

    /// Releases the lock, first marking the stream over for ``isRunning`` if it has ended.
    @inlinable
    func unlock() {
        if !core.isRunning { isOver.store(true, ordering: .releasing) }
        lock.unlock()
    }

    @inlinable
    func takeWorkLocked() -> (ContiguousArray<UpstreamRequest>, UpstreamSlots?) {
        let work = (core.requests, core.cancelling.take())
        core.requests = []
        return work
    }

    /// Makes gathered requests and cancels. Cancels first: a failure cancels the other
    /// upstreams before it is delivered.
    @inlinable
    func perform(_ requests: ContiguousArray<UpstreamRequest>, _ cancels: UpstreamSlots?) {
        cancels?.forEachSubscribed { $0.cancel() }
        for request in requests { request.subscription.request(request.demand) }
    }
}

// MARK: - Side subscribers

/// The subscriber a merge gives upstream `index`: passes its signals on with the index.
@usableFromInline
struct MergeSide<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let merger: MergeSubscription<Downstream>
    @usableFromInline let index: Int
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(_ merger: MergeSubscription<Downstream>, index: Int) {
        self.merger = merger
        self.index = index
    }

    @usableFromInline var description: String { "Merge" }

    @inlinable
    func receive(subscription: any Subscription) {
        merger.receive(subscription: subscription, at: index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let index = self.index
        return merger.receive(input, at: index) { rules, value, core in rules.take(value, at: index, &core) }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        merger.receive(completion: completion, at: index)
    }
}

/// The subscriber a zip or combineLatest gives upstream `index`: passes its signals on with the
/// index, and stores its values with the closure that knows their place in the storage.
@usableFromInline
struct SlotSide<Input, Downstream: Subscriber, Rules: StoringRules>: Subscriber, CustomStringConvertible
where Rules.Output == Downstream.Input {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combiner: CombiningSubscription<Downstream, Rules>
    @usableFromInline let index: Int
    @usableFromInline let store: (inout Rules.Storage, Input) -> Void
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(_ combiner: CombiningSubscription<Downstream, Rules>, index: Int,
         store: @escaping (inout Rules.Storage, Input) -> Void) {
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
        let (index, store) = (self.index, self.store)
        return combiner.receive(input, at: index) { rules, value, core in
            store(&rules.storage, value)
            return (rules.valueStored(at: index, &core), .none)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        combiner.receive(completion: completion, at: index)
    }
}
