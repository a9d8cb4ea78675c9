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
// decided and waits behind the values already paid for; the upstreams are cancelled) → `done`
// (the completion was delivered, or the downstream cancelled). Per upstream (``UpstreamSlot``):
// `awaiting` → `subscribed` → `finished`; values are taken only from a `subscribed` upstream,
// and a second subscription is cancelled (S2).
//
// Locking and delivery: one `lock` guards the core, the rules and the queue. Delivery is the
// project's serialized delivery (``SerialDelivery``, Engines/SerialDelivery.swift): only the
// holder of the drain token calls the downstream, one signal at a time (S3); a value that
// arrives while another thread holds the token waits in the queue (`serial`), and a request
// from inside `receive(_:)` adds to the running loop instead of recursing (S8). The token is
// an atomic word (`token`), taken only under the lock; a thread that finds it held and leaves
// work for the holder (a value, the completion, a cancel) marks it, and a holder whose call
// out returned no demand gives it back with one compare-and-swap when nothing is marked,
// without taking the lock again (else it takes the lock and drains). The queue holds
// only values already paid for: each took its unit of the downstream's demand before it went in
// (S1). Values that wait for demand stay in the rules (merge's waiting values, zip's queues).
// Nothing is called with the lock held: requests and cancels for the upstreams are gathered in
// the core and made after unlocking (the drain loop hands them out as a delivery), and what the
// stream lets go of (an upstream's subscription, waiting values, the downstream) is dropped
// after unlocking too.
//
// Performance. `StreamsBenchmarks M1 M2 C1 C2` measures it (M1/C1 per value, M2/C2 per
// subscription); the figures are in Docs/Performance.md.
// - Per value: the lock is taken once and nothing is allocated. With the token free and no
//   work gathered, a value goes straight to the downstream without the queue (`sendLocked`),
//   the token goes back with a compare-and-swap (``DrainToken/giveBackIfIdle()``), and the
//   downstream is moved out of its property and back rather than copied (no retain and
//   release per value). `start()` gives the token back the same way.
// - The engine reads and changes `core` only through its stored properties and `mutating`
//   calls: a non-mutating call on a struct stored in a class works on a copy of the whole
//   struct, which here (existentials, arrays) costs about 120 ns per value.
// - Per subscription, the cost is the objects and what their deinit must look up. A class's
//   deinit is never specialized: a stored property whose type is built from the generic
//   parameters (`Completion<Failure>?`, `Downstream?`, a type nested in the generic class)
//   costs a generic metadata lookup at run time when the object dies. So the slots, the phase
//   and the gathered requests are non-generic types, the pending completion is a
//   `Completion<any Error>`, and the rules and the downstream (`HeldDownstream`, see
//   OptionalValue.swift) are stored properties whose types are generic parameters themselves.
// - The completion's delivery carries the completion only: a small delivery is destroyed
//   without the type's metadata. Its `deliver` takes the downstream and the rules itself,
//   without the lock (once the phase is `done`, nothing else touches them).
// - `subscribedCount` says whether any upstream is subscribed: when none is (a synchronous
//   upstream that finished while being subscribed, or the first request before any upstream),
//   ending the stream and passing demand on do not walk the slots.
// - The upstream subscribers are structs holding the engine and an index; their identity is
//   the engine's (no identifier counted per upstream).
// - The slots of the first two upstreams are stored inline (``UpstreamSlots``): a merge, zip
//   or combineLatest of two publishers allocates no slot array; the upstreams to cancel are
//   gathered into an array only when some are still live.
// - ``CombiningSubscription/isRunning``, asked before each upstream is subscribed, reads an
//   atomic mirror of the phase instead of taking the lock.
// - A slot holds its subscription as a plain existential, with `state` saying whether it is
//   there (``UpstreamSlot/hold(_:)``, ``UpstreamSlot/finish()``): testing, assigning over and
//   destroying a `(any Subscription)?` went through the runtime's generic `Optional` code.
//   `receive(subscription:at:)` is generic, so where the subscription's type is known it is
//   boxed once, for the slot.
// - The requests and cancels gathered for the upstreams are one list (a cancel is a request of
//   `.none`): one field fewer to create and destroy.
// - Nobody takes the token without the lock, so a free token is taken with a plain store
//   (``DrainToken/takeLockedWithoutRivals()``), not a compare-and-swap.
// - A completion with nothing before it (no value paid for, no request or cancel gathered)
//   goes down at once (`completeLocked()`), without the drain loop.
// - What is let go of after unlocking is kept alive explicitly (`keepAlive`): the optimizer
//   otherwise releases a value nothing reads any more as early as it likes, under the lock.

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

    /// Appends `make(subscription)` to `list` for every upstream still subscribed. (Used on
    /// the core's own lists: a closure that appended to them would capture the whole core, and
    /// the compiler would copy the slots to keep the two accesses apart.)
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
    /// `receive(_:)`): what zip and combineLatest ask of an upstream that subscribes late.
    @usableFromInline var requested = Subscribers.Demand.none
    /// The completion decided (`ending`), delivered after the values already paid for. A
    /// failure is kept as `any Error` (see the performance notes above).
    @usableFromInline var completion: Subscribers.Completion<any Error>?
    /// Emptied when the stream ends (and not read after: every signal checks the phase first).
    @usableFromInline var slots: UpstreamSlots
    @usableFromInline let upstreamCount: Int
    /// How many upstreams are `subscribed` (not awaiting, not finished): when none is, there is
    /// nothing to request from or cancel, and the slots are not walked.
    @usableFromInline var subscribedCount = 0
    /// How many upstreams have completed.
    @usableFromInline var finishedCount = 0
    /// Requests and cancels gathered under the lock, made after unlocking (the cancels are
    /// gathered when the stream ends). One list, not two: one field fewer to create and
    /// destroy with every subscription.
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

    /// Whether upstream `index` has finished (while the stream is running).
    @inlinable
    mutating func isFinished(_ index: Int) -> Bool {
        slots.state(at: index) == .finished
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
    mutating func demandDidGrow(by added: Subscribers.Demand, _ core: inout CombiningCore, paid: inout FIFOQueue<Output>)
    /// Upstream `index` finished (its slot is already `.finished` and counted): end the stream
    /// if that is the rule.
    mutating func upstreamFinished(at index: Int, _ core: inout CombiningCore)
}

/// Rules whose upstreams' values go into a typed `Storage` (zip, combineLatest): each upstream's
/// values are put in its place by a closure that knows it.
@usableFromInline
protocol StoringRules: CombiningRules {
    /// Where the upstreams' values are kept.
    associatedtype Storage
    var storage: Storage { get set }
    /// A value from upstream `index` was just stored: returns the combination to send, paid for
    /// (`core.demand` already lessened), or `nil`. A combination that must wait behind others
    /// goes into `paid`.
    mutating func valueStored(at index: Int, _ core: inout CombiningCore, paid: inout FIFOQueue<Output>) -> Output?
}

/// The subscription a combining operator's downstream receives; see the comment at the top of
/// this file.
@usableFromInline
final class CombiningSubscription<HeldDownstream: OptionalValue, Rules: CombiningRules>: Subscription,
    CustomStringConvertible, SerialDelivery,
    @unchecked Sendable  // `core`, `rules`, `serial` guarded by `lock`; `heldDownstream` owned by the drain-token holder
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
        /// The completion. (What the stream lets go of after it is taken by ``deliver(_:)``: a
        /// small delivery is destroyed without the type's metadata.)
        case completion(Subscribers.Completion<any Error>)
        /// What a cancelled stream lets go of.
        case letGo(Downstream?)
    }

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)`: the lock (or the drain token, for `downstream`) already makes
    // every access exclusive; the runtime's dynamic check would only add cost per value.
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
    /// `heldDownstream`, as what it is: `Downstream?`.
    @inlinable var downstream: Downstream? {
        _read { yield heldDownstream.asOptional }
        _modify { yield &heldDownstream.asOptional }
    }
    /// `true` once the phase has left `running`: written with the lock held, read without.
    @usableFromInline let isOver = Atomic<Bool>(false)
    /// How many upstreams there are (the core's count, readable without the lock).
    @usableFromInline let upstreamCount: Int

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        heldDownstream = HeldDownstream(downstream)
        core = CombiningCore(upstreamCount: upstreamCount)
        self.upstreamCount = upstreamCount
    }

    @usableFromInline var description: String { "\(Rules.name)" }

    // The engine reads `core` only through stored properties and `mutating` calls: a
    // non-mutating call on a struct stored in a class works on a copy of the whole struct.

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
        // Moved out and back rather than copied (a retain and release fewer); this thread holds
        // the token, so nothing else touches it meanwhile.
        let downstream = self.downstream.take().unsafelyUnwrapped
        downstream.receive(subscription: self)
        self.downstream = consume downstream
        // The usual case: the downstream only asked for values (or nothing), so there is
        // nothing to deliver yet and the token goes back without the lock.
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
        take: (inout Rules, Input, inout CombiningCore, inout FIFOQueue<Output>) -> (send: Output?, more: Subscribers.Demand)
    ) -> Subscribers.Demand {
        lock.lock()
        guard isRunningLocked, core.slots.state(at: index) == .subscribed else {
            lock.unlock()
            return .none
        }
        let (send, more) = take(&rules, value, &core, &serial.pending)
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
        // Let go of after unlocking. (Without this the optimizer releases it before: nothing
        // reads it after the slot gives it up.)
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

    /// Delivers the completion and lets go of the downstream and the rules: call with the phase
    /// `done`, the lock released and the token kept for good. Nobody else touches the
    /// downstream or the rules again (every other call checks the phase under the lock first),
    /// so they are taken without the lock and let go of here ([S7]).
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

    /// Nobody takes this engine's token without the lock (its holder gives it back without the
    /// lock, but a free token has no holder): a free token is taken with a plain store.
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
        // Moved out and back in rather than copied, which would retain and release it per
        // value; nothing else touches it while the token is held.
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

/// Keeps `value` alive up to this call, so that it is let go of after what comes before (an
/// unlock), not earlier. `extendLifetime` where the compiler has it: `withExtendedLifetime`, a
/// generic call with a closure, was not inlined in the engine's hot paths.
@inlinable @inline(__always)
func keepAlive<T>(_ value: borrowing T) {
    #if compiler(>=6.2)
    extendLifetime(value)
    #else
    withExtendedLifetime(value) {}
    #endif
}

// MARK: - Side subscribers

/// The subscriber a merge gives upstream `index`: passes its signals on with the index.
@usableFromInline
struct MergeSide<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let merger: MergeSubscription<Downstream>
    @usableFromInline let index: Int
    /// The merge's identity, shared by its upstream subscribers (as flatMap's inner subscribers
    /// share theirs).
    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(merger) }

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
        return merger.receive(input, at: index) { rules, value, core, paid in
            rules.take(value, at: index, &core)
        }
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

    @usableFromInline let combiner: CombiningSubscription<Downstream?, Rules>
    @usableFromInline let index: Int
    @usableFromInline let store: (inout Rules.Storage, Input) -> Void
    /// The operator's identity, shared by its upstream subscribers.
    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(combiner) }

    @inlinable
    init(_ combiner: CombiningSubscription<Downstream?, Rules>, index: Int,
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
        return combiner.receive(input, at: index) { rules, value, core, paid in
            store(&rules.storage, value)
            return (rules.valueStored(at: index, &core, paid: &paid), .none)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        combiner.receive(completion: completion, at: index)
    }
}
