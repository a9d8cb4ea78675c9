import Synchronization

// The engine of `zip` (Publishers.Zip.swift; the arities in Publishers.Zip.generated.swift).
//
// One object, ``ZipSubscription``, is the subscription the downstream holds; each upstream is
// subscribed with a small struct subscriber (``ZipSide``) that calls in with its index. What
// depends on the arity is the `Storage` (`Zip2Storage`, ...): one queue per upstream, typed.
//
// Zip's rules:
// - Demand: whatever the downstream asks for (a request, or demand returned from `receive(_:)`)
//   is asked of every upstream as it is; an upstream that subscribes late is asked for
//   everything requested so far (`requested`).
// - Values: each upstream's values wait in its queue, oldest first. A tuple is taken as soon as
//   no queue is empty and the downstream has demand for it; the tuple takes its unit of demand
//   then (S1). Invariant: while there is demand, some queue is empty. So a value that arrives
//   while there is demand, to an empty queue, when every other queue has a value, makes a tuple
//   at once without going into its queue (``ZipStorage/offer``); any other value waits in it.
// - Completion: an upstream that has finished with an empty queue ends the stream with
//   `.finished` (no more tuples can come): at once, or right after the tuple that took its
//   last value. The first failure ends it at once; unpaired values are dropped. Ending cancels
//   the upstreams still running.
//
// State machine (``ZipPhase``): `running` → `ending` (the completion is decided and waits
// behind the tuples already paid for; the upstreams are cancelled) → `done` (the completion was
// delivered, or the downstream cancelled). Per upstream (``ZipUpstreams``): awaiting →
// subscribed → finished; values are taken only from a subscribed upstream, and a second
// subscription is cancelled (S2). Only a running stream has subscribed upstreams: ending and
// cancelling take them all out.
//
// Locking and delivery: one `lock` guards the phase, the demand, the queues, the upstreams and
// the queue of tuples paid for (`serial`). Delivery is the project's serialized delivery
// (``SerialDelivery``, Engines/SerialDelivery.swift) with an atomic drain token (``DrainToken``):
// only the token's holder calls the downstream, one signal at a time (S3); a tuple made while
// another thread holds the token waits in `serial`, and a request from inside `receive(_:)`
// adds to the running loop instead of recursing (S8). Nothing is called with the lock held:
// requests and cancels for the upstreams are gathered (`work`) and made after unlocking, and
// what the stream lets go of is dropped after unlocking too. Why each cheap path is as it is:
// Docs/Performance.md, "Zip: its own engine".

/// The life of a zip's stream.
@usableFromInline
enum ZipPhase {
    /// Taking values from the upstreams.
    case running
    /// The completion is decided and waits behind the tuples already paid for; the upstreams
    /// are cancelled.
    case ending
    /// The completion was delivered, or the downstream cancelled.
    case done
}

/// The unpaired values of each upstream of a zip, one queue per upstream, typed: the only part
/// of the zip that depends on the arity (generated, in Publishers.Zip.generated.swift).
@usableFromInline
protocol ZipStorage {
    /// The tuple of one value per upstream.
    associatedtype Output
    /// Empty queues.
    init()
    /// Whether every queue has a value.
    var isFull: Bool { get }
    /// Whether upstream `index`'s queue is empty.
    func isEmpty(_ index: Int) -> Bool
    /// Takes the oldest value of every queue; none may be empty.
    mutating func takeTuple() -> Output
}

/// One upstream's place in a zip's storage (`Zip2Storage.LaneA`, ...): its index and how its
/// values go in. A type, not a closure, so that a value's way into its queue is a direct call.
@usableFromInline
protocol ZipLane {
    associatedtype Storage: ZipStorage
    /// The upstream's values.
    associatedtype Input
    /// The upstream's index.
    static var index: Int { get }
    /// Makes a tuple of `value` at once when `pairing` (there is demand), the upstream's queue is
    /// empty and every other queue has a value (their oldest values are taken); else queues it.
    static func offer(_ value: Input, to storage: inout Storage, pairing: Bool) -> Storage.Output?
}

/// The subscriptions of a zip's upstreams (at most four) and which are subscribed or finished.
@usableFromInline
struct ZipUpstreams {
    /// Bit `i`: upstream `i` is subscribed (has sent its subscription and not ended).
    @usableFromInline var subscribed: UInt8 = 0
    /// Bit `i`: upstream `i` has finished.
    @usableFromInline var finished: UInt8 = 0
    // Each a `NoSubscription` while its upstream is not subscribed (NoSubscription.swift).
    @usableFromInline var first: any Subscription = NoSubscription()
    @usableFromInline var second: any Subscription = NoSubscription()
    @usableFromInline var third: any Subscription = NoSubscription()
    @usableFromInline var fourth: any Subscription = NoSubscription()

    @inlinable init() {}

    @inlinable
    func isSubscribed(_ index: Int) -> Bool { subscribed & 1 << index != 0 }

    /// Whether upstream `index` has neither subscribed nor finished.
    @inlinable
    func isAwaiting(_ index: Int) -> Bool { (subscribed | finished) & 1 << index == 0 }

    @inlinable
    mutating func withSubscription<Result>(at index: Int, _ body: (inout any Subscription) -> Result) -> Result {
        switch index {
        case 0: body(&first)
        case 1: body(&second)
        case 2: body(&third)
        default: body(&fourth)
        }
    }

    /// Makes upstream `index` subscribed, holding `subscription`. Call on an awaiting upstream.
    @inlinable
    mutating func hold(_ subscription: some Subscription, at index: Int) {
        subscribed |= 1 << index
        withSubscription(at: index) { NoSubscription.hold(subscription, in: &$0) }
    }

    /// Makes upstream `index` finished and moves its subscription out. Call on a subscribed one.
    @inlinable
    mutating func finish(at index: Int) -> any Subscription {
        subscribed &= ~(1 << index)
        finished |= 1 << index
        return withSubscription(at: index) { NoSubscription.take(from: &$0) }
    }

    /// Appends `make(subscription)` to `list` for every subscribed upstream.
    @inlinable
    mutating func appendSubscribed<Element>(
        to list: inout ContiguousArray<Element>, _ make: (any Subscription) -> Element
    ) {
        for index in 0..<4 where isSubscribed(index) {
            list.append(make(withSubscription(at: index) { $0 }))
        }
    }
}

/// A request for an upstream, or (with a demand of `.none`, which is never requested) a cancel,
/// gathered under the lock and made after unlocking.
@usableFromInline
struct ZipRequest {
    @usableFromInline let subscription: any Subscription
    @usableFromInline let demand: Subscribers.Demand

    @inlinable
    init(_ subscription: any Subscription, _ demand: Subscribers.Demand) {
        self.subscription = subscription
        self.demand = demand
    }
}

/// The subscription a zip's downstream receives; see the comment at the top of this file.
/// `HeldDownstream` is always `Downstream?` (see OptionalValue.swift).
@usableFromInline
final class ZipSubscription<HeldDownstream: OptionalValue, Storage: ZipStorage>: Subscription,
    CustomStringConvertible, SerialDelivery,
    @unchecked Sendable  // state guarded by `lock`; `heldDownstream` owned by the drain-token holder
where HeldDownstream.Wrapped: Subscriber, Storage.Output == HeldDownstream.Wrapped.Input {
    @usableFromInline typealias Downstream = HeldDownstream.Wrapped
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// What the drain-token holder hands out with the lock released.
    @usableFromInline
    enum Delivery {
        /// Gathered requests and cancels for the upstreams.
        case work(ContiguousArray<ZipRequest>)
        case value(Output)
        /// The completion (the downstream and the queues are taken by ``deliver(_:)``).
        case completion(Subscribers.Completion<any Error>)
        /// What a cancelled stream lets go of.
        case letGo(Downstream?)
    }

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)`: the lock (or the drain token, for the downstream) already makes
    // every access exclusive.
    @exclusivity(unchecked) @usableFromInline var phase = ZipPhase.running
    /// The downstream's outstanding demand, less the tuples already paid for.
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// Everything the downstream has requested (not counting demand returned from
    /// `receive(_:)`): what an upstream that subscribes late is asked for.
    @exclusivity(unchecked) @usableFromInline var requested = Subscribers.Demand.none
    /// The values waiting for a partner.
    @exclusivity(unchecked) @usableFromInline var storage = Storage()
    @exclusivity(unchecked) @usableFromInline var upstreams = ZipUpstreams()
    /// Requests and cancels gathered under the lock, made after unlocking.
    @exclusivity(unchecked) @usableFromInline var work = ContiguousArray<ZipRequest>()
    /// The completion decided (`ending`), delivered after the tuples already paid for.
    @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<any Error>?
    /// Tuples paid for and not yet delivered, oldest first. (The drain token is `token`.)
    @exclusivity(unchecked) @usableFromInline var serial = SerialQueue<Output>()
    /// The drain token. The subscribing thread holds it until the downstream has its
    /// subscription, so that nothing is delivered before ([S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @usableFromInline let token = DrainToken(held: true)
    /// The downstream, `Downstream?`, until the stream lets go of it.
    @exclusivity(unchecked) @usableFromInline var heldDownstream: HeldDownstream
    @inlinable var downstream: Downstream? {
        get { heldDownstream.asOptional }
        set { heldDownstream.asOptional = newValue }
    }
    /// `true` once the phase has left `running`: written with the lock held, read without.
    @usableFromInline let isOver = Atomic<Bool>(false)
    @usableFromInline let upstreamCount: Int

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        heldDownstream = HeldDownstream(downstream)
        self.upstreamCount = upstreamCount
    }

    @usableFromInline var description: String { "Zip" }

    @inlinable
    var isRunningLocked: Bool {
        if case .running = phase { return true }
        return false
    }

    // MARK: Starting

    /// Gives the downstream its subscription; call once, before subscribing the upstreams.
    @inlinable
    func start() {
        let downstream = self.downstream.take().unsafelyUnwrapped
        downstream.receive(subscription: self)
        self.downstream = consume downstream
        // Usually nothing is due yet (a request is only gathered: no upstream is subscribed).
        if token.giveBackIfIdle() { return }
        lock.lock()
        token.reclaimLocked()
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
        requested += more
        addDemandLocked(more)
        unlockAndFlush()
    }

    @inlinable
    func cancel() {
        lock.lock()
        if case .done = phase {
            lock.unlock()
            return
        }
        phase = .done
        isOver.store(true, ordering: .releasing)
        // Let go of after unlocking: the upstreams (cancelled), what waits, and the downstream
        // unless a drain in progress is using it (it lets go of it when it sees `.done`).
        var cancelled = ZipUpstreams()
        swap(&cancelled, &upstreams)
        var waiting = Storage()
        swap(&waiting, &storage)
        let paid = serial.pending.takeAll()
        let ended = completion.take()
        var downstream: Downstream?
        if takeTokenLocked() {
            downstream = self.downstream.take()
            giveBackTokenLocked()
        }
        lock.unlock()
        for index in 0..<upstreamCount where cancelled.isSubscribed(index) {
            cancelled.withSubscription(at: index) { $0.cancel() }
        }
        withExtendedLifetime((waiting, paid, ended, downstream)) {}
    }

    // MARK: The upstreams' signals

    @inlinable
    func receive(subscription: some Subscription, at index: Int) {
        lock.lock()
        guard isRunningLocked, upstreams.isAwaiting(index) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams.hold(subscription, at: index)
        let initial = requested
        lock.unlock()
        if initial != .none { subscription.request(initial) }
    }

    /// Takes `value` from the upstream of `lane`, which makes a tuple of it at once when it may
    /// (there is demand) and can, else queues it.
    @inlinable
    func receive<Lane: ZipLane>(_ value: Lane.Input, from lane: Lane.Type) -> Subscribers.Demand
    where Lane.Storage == Storage {
        lock.lock()
        // Only a running stream has subscribed upstreams.
        guard upstreams.isSubscribed(Lane.index) else {
            lock.unlock()
            return .none
        }
        guard let tuple = Lane.offer(value, to: &storage, pairing: demand != .none) else {
            // The value waits in its queue: nothing to deliver or request.
            lock.unlock()
            return .none
        }
        demand -= 1
        if upstreams.finished != 0 && isExhaustedLocked() {
            serial.pending.append(tuple)
            end(Subscribers.Completion<Failure>.finished)
            unlockAndFlush()
        } else {
            sendLocked(tuple)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard upstreams.isSubscribed(index) else {
            lock.unlock()
            return
        }
        // The subscription is let go of after unlocking.
        let subscription = upstreams.finish(at: index)
        switch completion {
        case .finished:
            if storage.isEmpty(index) { end(completion) }
        case .failure:
            end(completion)
        }
        unlockAndFlush()
        keepAlive(subscription)
    }

    // MARK: Zip's rules (with the lock held)

    /// Whether a finished upstream has no value left to pair: then no more tuples can come.
    @inlinable
    func isExhaustedLocked() -> Bool {
        for index in 0..<upstreamCount where upstreams.finished & 1 << index != 0 && storage.isEmpty(index) {
            return true
        }
        return false
    }

    /// Adds `more` to the downstream's demand: takes the tuples it pays for (into `serial`),
    /// then asks every upstream for `more`, unless the stream ended meanwhile.
    @inlinable
    func addDemandLocked(_ more: Subscribers.Demand) {
        demand += more
        while demand != .none && storage.isFull {
            demand -= 1
            serial.pending.append(storage.takeTuple())
            if isExhaustedLocked() {
                end(Subscribers.Completion<Failure>.finished)
                return
            }
        }
        upstreams.appendSubscribed(to: &work) { ZipRequest($0, more) }
    }

    /// Ends the stream with `completion`, delivered behind the tuples already paid for: the
    /// upstreams still running are cancelled.
    @inlinable
    func end<EndFailure>(_ completion: Subscribers.Completion<EndFailure>) {
        phase = .ending
        upstreams.appendSubscribed(to: &work) { ZipRequest($0, .none) }
        upstreams = ZipUpstreams()
        switch completion {
        case .finished: self.completion = .finished
        case .failure(let error): self.completion = .failure(error)
        }
    }

    // MARK: Delivery (SerialDelivery)

    /// Sends `tuple`, paid for, downstream: at once when nobody is delivering and no work is
    /// gathered, else through the queue. Call with the lock held; returns with it released.
    @inlinable
    func sendLocked(_ tuple: Output) {
        guard work.isEmpty, takeTokenLocked() else {
            submitLocked(tuple)
            return
        }
        // The token was free, so nothing waits: `tuple` is next.
        lock.unlock()
        let more = deliverValue(tuple)
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
        switch phase {
        case .running: due = !serial.pending.isEmpty
        case .ending: due = true
        case .done: due = false
        }
        if due, takeTokenLocked() {
            drainLocked()
        } else if !work.isEmpty {
            let requests = takeWork()
            unlock()
            perform(requests)
        } else {
            unlock()
        }
    }

    @inlinable
    func takeWork() -> ContiguousArray<ZipRequest> {
        var requests = ContiguousArray<ZipRequest>()
        swap(&requests, &work)
        return requests
    }

    /// Delivers the completion and lets go of the downstream and the queues: call with the phase
    /// `done`, the lock released and the token kept for good. Nobody else touches them again
    /// (every other call checks the phase or the upstreams under the lock first) ([S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    @inlinable
    func deliverCompletion(_ completion: Subscribers.Completion<any Error>) {
        let downstream = self.downstream.take()
        var waiting = Storage()
        swap(&waiting, &storage)
        switch completion {
        case .finished: downstream?.receive(completion: .finished)
        case .failure(let error): downstream?.receive(completion: .failure(error as! Failure))
        }
        withExtendedLifetime(waiting) {}
    }

    /// Nobody takes this engine's token without the lock: a free token is taken with a plain
    /// store.
    @inlinable
    func takeTokenLocked() -> Bool { token.takeLockedWithoutRivals() }

    @inlinable
    func giveBackTokenLocked() { token.giveBackLocked() }

    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Delivery> {
        if returned != .none { addReturnedDemandLocked(returned) }
        if !isRunningLocked { isOver.store(true, ordering: .releasing) }
        if !work.isEmpty {
            return .deliver(.work(takeWork()))
        }
        if case .done = phase {
            return .stop(.letGo(downstream.take()))
        }
        if let tuple = serial.pending.popFirst() {
            return .deliver(.value(tuple))
        }
        guard let completion = completion.take() else { return .stop(nil) }
        phase = .done
        return .deliver(.completion(completion))
    }

    @inlinable
    func deliver(_ delivery: Delivery) -> DeliveryResult {
        switch delivery {
        case .work(let requests):
            perform(requests)
            return .returned(.none)
        case .value(let tuple):
            return .returned(deliverValue(tuple))
        case .completion(let completion):
            deliverCompletion(completion)
            // The token is kept: nothing may follow the completion.
            return .leave
        case .letGo:
            return .returned(.none)
        }
    }

    /// Calls the downstream with `tuple`. Only the drain-token holder calls it.
    @inlinable
    func deliverValue(_ tuple: Output) -> Subscribers.Demand {
        // Moved out and back in rather than copied (no retain and release per tuple); nothing
        // else touches it while the token is held.
        guard let downstream = self.downstream.take() else { return .none }
        let more = downstream.receive(tuple)
        self.downstream = consume downstream
        return more
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
    func perform(_ requests: ContiguousArray<ZipRequest>) {
        for request in requests where request.demand == .none { request.subscription.cancel() }
        for request in requests where request.demand != .none { request.subscription.request(request.demand) }
    }
}

// MARK: - Side subscriber

/// The subscriber a zip gives an upstream: passes its signals on with the upstream's index,
/// and its values with its lane, which knows their queue.
@usableFromInline
struct ZipSide<Lane: ZipLane, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Lane.Storage.Output == Downstream.Input {
    @usableFromInline typealias Input = Lane.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let zip: ZipSubscription<Downstream?, Lane.Storage>
    /// The zip's identity, shared by its upstream subscribers.
    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(zip) }

    @inlinable
    init(_ zip: ZipSubscription<Downstream?, Lane.Storage>) {
        self.zip = zip
    }

    @usableFromInline var description: String { "Zip" }

    @inlinable
    func receive(subscription: any Subscription) {
        zip.receive(subscription: subscription, at: Lane.index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        zip.receive(input, from: Lane.self)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        zip.receive(completion: completion, at: Lane.index)
    }
}
