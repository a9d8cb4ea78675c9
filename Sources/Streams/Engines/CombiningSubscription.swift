import Synchronization

// The engine of the operators that combine several upstreams into one stream by the same
// rules of delivery: `merge` (``MergeRules``, Publishers.Merge.swift) and `combineLatest`
// (``LatestRules``, Publishers.CombineLatest.swift). (`zip` has an engine of its own,
// ZipSubscription.swift.)
//
// One object, ``CombiningSubscription``, is the subscription the downstream holds; each upstream
// is subscribed with a small struct subscriber (``MergeSide``, ``SlotSide``) that calls in with
// its index. What differs between the operators is a `Rules` value stored in the engine: what a
// value does when it arrives, what more demand does, what an upstream's `.finished` does. The
// rules work on ``CombiningCore``, the state every combining operator shares.
//
// State machine (``CombiningPhase``): `running` (taking values) → `ending` (the completion is
// decided and waits behind the values already paid for; the upstreams are cancelled) → `done`
// (the completion was delivered, or the downstream cancelled). Per upstream (``UpstreamSlot``):
// `awaiting` → `subscribed` → `finished`; values are taken only from a `subscribed` upstream,
// and a second subscription is cancelled (S2).
//
// Locking and delivery: one `lock` guards the core, the rules and the queue. Delivery is the
// project's serialized delivery (``SerialDelivery``, Engines/SerialDelivery.swift) with an atomic
// drain token (``DrainToken``): only its holder calls the downstream, one signal at a time (S3);
// a value that arrives while another thread holds it waits in the queue (`serial`), and a
// request from inside `receive(_:)` adds to the running loop instead of recursing (S8). A holder
// whose call out returned no demand gives the token back with one compare-and-swap, without the
// lock, unless someone left work for it. The queue holds only values already paid for (S1);
// values that wait for demand stay in the rules (merge's waiting values). Nothing is called with
// the lock held: requests and cancels for the upstreams are gathered in the core and made after
// unlocking, and what the stream lets go of is dropped after unlocking too.
//
// Performance: `StreamsBenchmarks M1 M2 C1 C2` measures it (M1/C1 per value, M2/C2 per
// subscription). Why the code is not the obvious version where it is not (the downstream moved
// rather than copied, `mutating` access to the core, non-generic slots, a type-erased completion,
// the token's fast paths, `keepAlive`): Docs/Performance.md, "Combining: the engine's cheap paths".

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
    /// The upstream's subscription while `subscribed`, else a `NoSubscription`: `state` says
    /// which (Engines/NoSubscription.swift).
    @usableFromInline var subscription: any Subscription = NoSubscription()

    @inlinable init() {}

    /// Makes the slot `subscribed`, holding `subscription` (see ``NoSubscription/hold(_:in:)``).
    /// Call on an `awaiting` slot.
    @inlinable
    mutating func hold(_ subscription: some Subscription) {
        state = .subscribed
        NoSubscription.hold(subscription, in: &self.subscription)
    }

    /// Makes the slot `finished` and moves its subscription out, leaving `NoSubscription`. Call
    /// on a `subscribed` slot.
    @inlinable
    mutating func finish() -> any Subscription {
        state = .finished
        return NoSubscription.take(from: &subscription)
    }
}

/// The slots of a combining operator's upstreams. The first two are stored inline, the others
/// in an array: a merge or combineLatest of two publishers allocates none.
@usableFromInline
struct UpstreamSlots {
    @usableFromInline var first = UpstreamSlot()
    @usableFromInline var second = UpstreamSlot()
    @usableFromInline var others: ContiguousArray<UpstreamSlot> = []

    @inlinable
    init(count: Int) {
        if count > 2 { others = ContiguousArray(repeating: UpstreamSlot(), count: count - 2) }
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

    /// The state of upstream `index`.
    @inlinable
    mutating func state(at index: Int) -> UpstreamSlot.State {
        withSlot(at: index) { $0.state }
    }

    /// Calls `body` with the subscription of every upstream still subscribed.
    @inlinable
    func forEachSubscribed(_ body: (any Subscription) -> Void) {
        if first.state == .subscribed { body(first.subscription) }
        if second.state == .subscribed { body(second.subscription) }
        for slot in others where slot.state == .subscribed {
            body(slot.subscription)
        }
    }

    /// Appends `make(subscription)` to `list` for every upstream still subscribed (not a closure
    /// that appends: it would capture the whole core, and the compiler would copy the slots).
    @inlinable
    func appendSubscribed<Element>(to list: inout ContiguousArray<Element>, _ make: (any Subscription) -> Element) {
        if first.state == .subscribed { list.append(make(first.subscription)) }
        if second.state == .subscribed { list.append(make(second.subscription)) }
        for slot in others where slot.state == .subscribed {
            list.append(make(slot.subscription))
        }
    }
}

/// A request for an upstream, or (with a demand of `.none`, which is never requested) a cancel,
/// gathered under the lock and made after unlocking.
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
struct CombiningCore {
    @usableFromInline var phase = CombiningPhase.running
    /// The downstream's outstanding demand, less what waits in the engine's queue.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Everything the downstream has requested (not counting demand returned from
    /// `receive(_:)`): what combineLatest asks of an upstream that subscribes late.
    @usableFromInline var requested = Subscribers.Demand.none
    /// The completion decided (`ending`), delivered after the values already paid for.
    @usableFromInline var completion: Subscribers.Completion<any Error>?
    /// Emptied when the stream ends (and not read after: every signal checks the phase first).
    @usableFromInline var slots: UpstreamSlots
    @usableFromInline let upstreamCount: Int
    /// How many upstreams are `subscribed` (not awaiting, not finished): when none is, there is
    /// nothing to request from or cancel, and the slots are not walked.
    @usableFromInline var subscribedCount = 0
    /// How many upstreams have completed.
    @usableFromInline var finishedCount = 0
    /// Requests and cancels (when the stream ends) gathered under the lock, made after unlocking.
    @usableFromInline var requests = ContiguousArray<UpstreamRequest>()
    /// Whether `requests` has something to do.
    @usableFromInline var hasWork = false

    @inlinable
    init(upstreamCount: Int) {
        self.upstreamCount = upstreamCount
        slots = UpstreamSlots(count: upstreamCount)
    }

    @inlinable var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// Ends the stream with `completion`, delivered behind the values already paid for: the
    /// upstreams still running are cancelled.
    @inlinable
    mutating func end<Failure>(_ completion: Subscribers.Completion<Failure>) {
        phase = .ending
        if subscribedCount > 0 {
            slots.appendSubscribed(to: &requests) { UpstreamRequest($0, .none) }
            slots = UpstreamSlots(count: 0)
            subscribedCount = 0
            hasWork = true
        }
        switch completion {
        case .finished: self.completion = .finished
        case .failure(let error): self.completion = .failure(error)
        }
    }

    /// Gathers a request of `more` for every upstream still subscribed.
    @inlinable
    mutating func requestFromEveryUpstream(_ more: Subscribers.Demand) {
        guard subscribedCount > 0 else { return }
        slots.appendSubscribed(to: &requests) { UpstreamRequest($0, more) }
        hasWork = true
    }

    /// Gathers a request of `more` for upstream `index`, if it is still subscribed.
    @inlinable
    mutating func request(_ more: Subscribers.Demand, fromUpstream index: Int) {
        guard slots.state(at: index) == .subscribed else { return }
        requests.append(UpstreamRequest(slots.withSlot(at: index) { $0.subscription }, more))
        hasWork = true
    }

    /// Takes the gathered requests and cancels, to be made after unlocking.
    @inlinable
    mutating func takeWork() -> ContiguousArray<UpstreamRequest> {
        var work = ContiguousArray<UpstreamRequest>()
        swap(&work, &requests)
        hasWork = false
        return work
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
    /// The first request for upstream `index`, made as soon as it is subscribed; `requested` is
    /// everything the downstream has requested so far.
    func initialDemand(for index: Int, requested: Subscribers.Demand) -> Subscribers.Demand
    /// The downstream's demand has grown by `added` (`core.demand` already includes it): send
    /// what waited for it (into `paid`), and gather the upstream requests it calls for.
    mutating func demandDidGrow(
        by added: Subscribers.Demand, _ core: inout CombiningCore, paid: inout FIFOQueue<Output>)
    /// Upstream `index` finished (its slot is already `.finished` and counted): end the stream
    /// if that is the rule.
    mutating func upstreamFinished(at index: Int, _ core: inout CombiningCore)
}

/// The subscription a combining operator's downstream receives (see the top of this file).
@usableFromInline
// `core`, `rules`, `serial` guarded by `lock`; `heldDownstream` owned by the drain-token holder
final class CombiningSubscription<HeldDownstream: OptionalValue, Rules: CombiningRules>: Subscription,
    CustomStringConvertible, SerialDelivery, @unchecked Sendable
where HeldDownstream.Wrapped: Subscriber, Rules.Output == HeldDownstream.Wrapped.Input {
    @usableFromInline typealias Downstream = HeldDownstream.Wrapped
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// What the drain-token holder hands out with the lock released.
    @usableFromInline
    enum Delivery {
        /// Gathered requests and cancels for the upstreams.
        case work(ContiguousArray<UpstreamRequest>)
        case value(Output)
        /// The completion (the downstream and the rules are taken by ``deliver(_:)``).
        case completion(Subscribers.Completion<any Error>)
        /// What a cancelled stream lets go of.
        case letGo(Downstream?)
    }

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)`: the lock (or the token, for `downstream`) makes access exclusive.
    @exclusivity(unchecked) @usableFromInline var core: CombiningCore
    @exclusivity(unchecked) @usableFromInline var rules = Rules()
    /// Values paid for and not yet delivered, oldest first. (The drain token is `token`, not
    /// the queue's flag.)
    @exclusivity(unchecked) @usableFromInline var serial = SerialQueue<Output>()
    /// The drain token (see ``DrainToken``). The subscribing thread holds it until the
    /// downstream has its subscription, so that nothing is delivered before ([S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @usableFromInline let token = DrainToken(held: true)
    /// The downstream, `Downstream?` (a generic parameter, see ``OptionalValue``), until the
    /// stream lets go of it.
    @exclusivity(unchecked) @usableFromInline var heldDownstream: HeldDownstream
    @inlinable var downstream: Downstream? {
        get { heldDownstream.asOptional }
        set { heldDownstream.asOptional = newValue }
    }
    /// `true` once the phase has left `running`: written with the lock held, read without.
    @usableFromInline let isOver = Atomic<Bool>(false)
    /// How many upstreams there are (readable without the lock).
    @usableFromInline let upstreamCount: Int

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        heldDownstream = HeldDownstream(downstream)
        core = CombiningCore(upstreamCount: upstreamCount)
        self.upstreamCount = upstreamCount
    }

    @usableFromInline var description: String { "\(Rules.name)" }

    // (`core` is read and changed only through stored properties and `mutating` calls.)
    /// Whether the stream is taking values. Call with the lock held.
    @inlinable
    var isRunningLocked: Bool {
        if case .running = core.phase { return true }
        return false
    }

    // MARK: Starting

    /// Gives the downstream its subscription; call once, before subscribing the upstreams.
    @inlinable
    func start() {
        // Moved out and back (this thread holds the token, so nothing else touches it).
        let downstream = self.downstream.take().unsafelyUnwrapped
        downstream.receive(subscription: self)
        self.downstream = consume downstream
        // Usually nothing is due yet, and the token goes back without the lock.
        if upstreamCount != 0 && token.giveBackIfIdle() { return }
        lock.lock()
        token.reclaimLocked()
        if core.upstreamCount == 0, isRunningLocked {
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
        guard isRunningLocked else {
            lock.unlock()
            return
        }
        core.requested += more
        addDemandLocked(more)
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
        var upstreams = UpstreamSlots(count: 0)
        swap(&upstreams, &core.slots)
        let waiting = rules
        rules = Rules()
        let paid = serial.pending.takeAll()
        let completion = core.completion.take()
        var downstream: Downstream?
        if takeTokenLocked() {
            downstream = self.downstream.take()
            giveBackTokenLocked()
        }
        lock.unlock()
        upstreams.forEachSubscribed { $0.cancel() }
        withExtendedLifetime((waiting, paid, completion, downstream)) {}
    }

    // MARK: The upstreams' signals

    @inlinable
    func receive(subscription: some Subscription, at index: Int) {
        lock.lock()
        guard isRunningLocked, core.slots.state(at: index) == .awaiting else {
            lock.unlock()
            subscription.cancel()
            return
        }
        core.slots.withSlot(at: index) { $0.hold(subscription) }
        core.subscribedCount += 1
        let initial = rules.initialDemand(for: index, requested: core.requested)
        lock.unlock()
        if initial != .none { subscription.request(initial) }
    }

    /// Takes a value from upstream `index`: `take` hands it to the rules, which return what to
    /// send (paid for) and the demand to return to the upstream.
    @inlinable
    func receive<Input>(
        _ value: Input, at index: Int,
        take: (inout Rules, Input, inout CombiningCore) -> (send: Output?, more: Subscribers.Demand)
    ) -> Subscribers.Demand {
        lock.lock()
        guard isRunningLocked, core.slots.state(at: index) == .subscribed else {
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
        guard isRunningLocked, core.slots.state(at: index) == .subscribed else {
            lock.unlock()
            return
        }
        // The subscription is let go of after unlocking.
        let subscription = core.slots.withSlot(at: index) { $0.finish() }
        core.finishedCount += 1
        core.subscribedCount -= 1
        switch completion {
        case .finished:
            rules.upstreamFinished(at: index, &core)
        case .failure:
            core.end(completion)
        }
        unlockAndFlush()
        keepAlive(subscription)
    }

    // MARK: Delivery (SerialDelivery)

    /// Sends `value`, paid for, downstream: at once when nobody is delivering and no other work
    /// is gathered (the fast path, without the queue), else through the queue. Call with the
    /// lock held; returns with it released.
    @inlinable
    func sendLocked(_ value: Output) {
        guard !core.hasWork, takeTokenLocked() else {
            submitLocked(value)
            return
        }
        // The token was free, so nothing waits: `value` is next.
        lock.unlock()
        let more = deliverValue(value)
        // Nobody left work meanwhile and no demand came back: done, without the lock.
        if more == .none && token.giveBackIfIdle() { return }
        lock.lock()
        token.reclaimLocked()
        if more != .none { addReturnedDemandLocked(more) }
        drainLocked()
    }

    /// Delivers what is due unless someone else is delivering; else releases the lock and makes
    /// the gathered requests and cancels itself. Call with the lock held.
    @inlinable
    func unlockAndFlush() {
        let due: Bool
        switch core.phase {
        case .running: due = !serial.pending.isEmpty
        case .ending: due = true
        case .done: due = false
        }
        if due, takeTokenLocked() {
            if case .ending = core.phase, !core.hasWork, serial.pending.isEmpty {
                completeLocked()
            } else {
                drainLocked()
            }
        } else if core.hasWork {
            let work = core.takeWork()
            unlock()
            perform(work)
        } else {
            unlock()
        }
    }

    /// Delivers the completion at once, without the drain loop: call with the lock held, the
    /// token taken, the phase `ending`, and nothing to do before the completion (no value paid
    /// for, no request or cancel gathered). Returns with the lock released, keeping the token.
    @inlinable
    func completeLocked() {
        core.phase = .done
        isOver.store(true, ordering: .releasing)
        let completion = core.completion.take().unsafelyUnwrapped
        lock.unlock()
        deliverCompletion(completion)
    }

    /// Delivers the completion and lets go of the downstream and the rules ([S7]): call with the
    /// phase `done`, the lock released and the token kept for good (every other call checks the
    /// phase under the lock first, so nobody else touches them again).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    @inlinable
    func deliverCompletion(_ completion: Subscribers.Completion<any Error>) {
        let downstream = self.downstream.take()
        var waiting = Rules()
        swap(&waiting, &rules)
        switch completion {
        case .finished: downstream?.receive(completion: .finished)
        case .failure(let error): downstream?.receive(completion: .failure(error as! Failure))
        }
        withExtendedLifetime(waiting) {}
    }

    /// Nobody takes this engine's token without the lock: a free token is taken with a store.
    @inlinable
    func takeTokenLocked() -> Bool { token.takeLockedWithoutRivals() }

    @inlinable
    func giveBackTokenLocked() { token.giveBackLocked() }

    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Delivery> {
        if returned != .none { addReturnedDemandLocked(returned) }
        if !isRunningLocked { isOver.store(true, ordering: .releasing) }
        if core.hasWork {
            return .deliver(.work(core.takeWork()))
        }
        if case .done = core.phase {
            return .stop(.letGo(downstream.take()))
        }
        if let value = serial.pending.popFirst() {
            return .deliver(.value(value))
        }
        guard let completion = core.completion.take() else { return .stop(nil) }
        core.phase = .done
        return .deliver(.completion(completion))
    }

    @inlinable
    func deliver(_ delivery: Delivery) -> DeliveryResult {
        switch delivery {
        case .work(let requests):
            perform(requests)
            return .returned(.none)
        case .value(let value):
            return .returned(deliverValue(value))
        case .completion(let completion):
            deliverCompletion(completion)
            // The token is kept: nothing may follow the completion.
            return .leave
        case .letGo:
            return .returned(.none)
        }
    }

    /// Calls the downstream with `value`. Only the drain-token holder calls it.
    @inlinable
    func deliverValue(_ value: Output) -> Subscribers.Demand {
        // Moved out and back in (no retain and release per value): the token holder owns it.
        guard let downstream = self.downstream.take() else { return .none }
        let more = downstream.receive(value)
        self.downstream = consume downstream
        return more
    }

    /// Adds `more` to the downstream's demand and lets the rules act on it. Call with the lock
    /// held, while running.
    @inlinable
    func addDemandLocked(_ more: Subscribers.Demand) {
        core.demand += more
        rules.demandDidGrow(by: more, &core, paid: &serial.pending)
    }

    /// Demand the downstream returned from `receive(_:)`. Call with the lock held.
    @inlinable
    func addReturnedDemandLocked(_ more: Subscribers.Demand) {
        if isRunningLocked { addDemandLocked(more) }
    }

    /// Releases the lock, first marking the stream over for ``isRunning`` if it has ended.
    @inlinable
    func unlock() {
        if !isRunningLocked { isOver.store(true, ordering: .releasing) }
        lock.unlock()
    }

    /// Makes gathered requests and cancels (a demand of `.none`). Cancels first: a failure
    /// cancels the other upstreams before it is delivered.
    @inlinable
    func perform(_ requests: ContiguousArray<UpstreamRequest>) {
        for request in requests where request.demand == .none { request.subscription.cancel() }
        for request in requests where request.demand != .none { request.subscription.request(request.demand) }
    }
}
