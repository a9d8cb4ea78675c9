import Synchronization

/// The engine shared by ``PassthroughSubject`` and ``CurrentValueSubject``.
///
/// A new subscriber gets its subscription at once, on the subscribing thread, before it is
/// attached. From then on every call into it (values, completion) happens while holding the
/// *drain token*, so a subscriber is never called from two threads at once ([S3]). Work that
/// arrives while another caller holds the token — a `send` from another thread, a `send` or
/// `subscribe` from inside a subscriber, a `cancel`, attaching a new subscriber — is queued under
/// `lock` and run by the token holder, in order, in a loop instead of by recursion ([S11]). The
/// token holder does not hold `lock` while it calls out.
///
/// The queue and the drain loop are the ``SerialDelivery`` engine's: `serial.pending` holds the
/// queued ``Operation``s, and the loop performs them one by one. Demand is not the engine's
/// business here: each subscriber has its own, counted by its ``SubjectConduit``.
///
/// The token itself is not `serial.isDraining` but `token`, the engine's atomic ``DrainToken``,
/// so that a `send` with nothing to wait for needs no lock (the engine's token hooks,
/// `takeTokenLocked` and `giveBackTokenLocked`, work on it):
///
/// - `held`: someone is delivering. Taken under `lock` by every path that may have to queue, or
///   without it, by compare-and-swap from exactly `free` (nobody delivering, nothing queued, not
///   completed), by a PassthroughSubject's `send`.
/// - `workLeft`: operations were queued while the token was held. Set under `lock`, with the
///   append; cleared under `lock` when the holder, having run the queue dry, gives the token back.
/// - `closed`: `send(completion:)` has been called (also recorded in `completion`, under `lock`),
///   so the lock-free `send` sees it.
///
/// The holder of a token taken for one value gives it back with one compare-and-swap
/// `held` → `free`; when that fails, work was queued meanwhile, and it takes `lock` and runs
/// the engine's drain loop, which gives the token back once the queue is empty.
///
/// Cost of a `send` to idle subscribers with the token free (what `StreamsBenchmarks` W2 and W4
/// measure): a PassthroughSubject's is two atomic compare-and-swaps and no lock; a
/// CurrentValueSubject's takes `lock` once (to update `currentValue`, which `value` reads from any
/// thread), takes the token inside it, and gives it back with one compare-and-swap. (With the
/// token in `serial.isDraining`, both took `lock` twice per value.)
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S11]: doc:/Contract/StreamContract#S11
@usableFromInline
final class SubjectCore<Output, Failure: Error>: SerialDelivery, @unchecked Sendable {
    // Guarded by `lock`: serial, queuedValues, completion, currentValue, upstreams.
    // Owned by the drain-token holder (no lock needed, no other thread touches them while the
    // token is held): conduits, deliveredValue, deliveredCount, completionDelivered, and each
    // conduit's downstream and `owesValue`.
    @usableFromInline let lock = Lock()
    /// The drain token and the flag the lock-free `send` reads; see above.
    @usableFromInline let token = DrainToken(held: false)

    // `@exclusivity(unchecked)`: the lock and the drain token already make every access
    // exclusive; the runtime's dynamic check would only add cost on the per-value path.
    /// The engine's queue; its `isDraining` stays `false` (the token is `token`).
    @exclusivity(unchecked) @usableFromInline var serial = SerialQueue<Operation>()
    /// How many of the queued operations are values (`sendBeforeStoring` needs to know).
    @usableFromInline var queuedValues = 0
    @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The value `CurrentValueSubject.value` reads: updated at `send` time.
    @exclusivity(unchecked) @usableFromInline var currentValue: Output?
    @usableFromInline var upstreams: [Subscription] = []

    /// Retained by hand (see `attach`/`detach`) so that delivering a value retains nothing.
    @exclusivity(unchecked) @usableFromInline var conduits:
        ContiguousArray<Unmanaged<SubjectConduit<Output, Failure>>> = []
    /// Whether the completion has reached the attached conduits: a conduit attached later is
    /// finished at once.
    @usableFromInline var completionDelivered = false
    /// The latest value in delivery order: what a new or newly demanding subscriber of a
    /// `CurrentValueSubject` is given. Lags `currentValue` only while sends are queued.
    @exclusivity(unchecked) @usableFromInline var deliveredValue: Output?
    /// `true` for `CurrentValueSubject`.
    @usableFromInline let replaysLatest: Bool
    /// What a subscriber's subscription calls itself (`print()` shows it), as in Combine.
    @usableFromInline let name: StaticString
    /// PassthroughSubject: whether any subscriber has asked for a value yet. Until then its
    /// upstream subscriptions are asked for nothing, as Combine's; the first request asks each
    /// of them for `.unlimited`, and so is every later upstream subscription at once. Written
    /// under `lock`; read without it on a subscriber's request as a fast path.
    @usableFromInline let hasDemand = Atomic<Bool>(false)
    /// CurrentValueSubject: counts the values delivered, so that a subscriber that got the value
    /// before it was attached (requesting inside `receive(subscription:)`) knows at attach time
    /// whether it has missed a newer one. Owned by the drain-token holder.
    @exclusivity(unchecked) @usableFromInline var deliveredCount: UInt = 0

    @usableFromInline
    enum Operation {
        case value(Output)
        case complete(Subscribers.Completion<Failure>)
        case attach(SubjectConduit<Output, Failure>)
        case detach(SubjectConduit<Output, Failure>)
        case flush(SubjectConduit<Output, Failure>)
    }

    @inlinable
    init(currentValue: Output?, name: StaticString? = nil) {
        self.currentValue = currentValue
        self.deliveredValue = currentValue
        self.replaysLatest = currentValue != nil
        self.name = name ?? (currentValue != nil ? "CurrentValueSubject" : "PassthroughSubject")
    }

    // MARK: Entry points (any thread)

    @inlinable
    func send(_ value: Output) {
        // A PassthroughSubject keeps nothing under the lock for a value: when nobody is
        // delivering and nothing is queued or completed, it takes the token without it.
        if !replaysLatest, token.takeIfClear() {
            deliverValue(value)
            releaseToken()
            return
        }
        send(value, keepingAfterCompletion: false)
    }

    /// `send`; with `keepingAfterCompletion`, a value sent after the completion still becomes
    /// the current value (CurrentValueSubject's `value` setter, as Combine's), and goes nowhere.
    @inlinable
    func send(_ value: Output, keepingAfterCompletion: Bool) {
        lock.lock()
        if completion != nil {
            if keepingAfterCompletion { currentValue = value }
            lock.unlock()
            return
        }
        if replaysLatest { currentValue = value }
        guard takeTokenLocked() else {
            queueLocked(value)
            lock.unlock()
            return
        }
        lock.unlock()
        deliverValue(value)
        releaseToken()
    }

    /// `send` for a `@Published` property (willSet): the value is delivered first and becomes
    /// the current value after it has reached every subscriber, so a subscriber that reads the
    /// property meanwhile sees the old one. A value sent while another is being delivered is
    /// queued behind it and becomes the current value at once; the delivering sender then
    /// keeps its own value only if nothing was queued after it, so the current value is always
    /// the last one delivered.
    func sendBeforeStoring(_ value: Output) {
        lock.lock()
        guard takeTokenLocked() else {
            currentValue = value
            queueLocked(value)
            lock.unlock()
            return
        }
        lock.unlock()
        deliverValue(value)
        lock.lock()
        if queuedValues == 0 { currentValue = value }
        drainLocked()
    }

    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        if self.completion != nil {
            lock.unlock()
            return
        }
        self.completion = completion
        token.closeLocked()
        let released = upstreams
        upstreams = []
        lock.unlock()
        keepAlive(released)  // let go of after unlocking
        submit(.complete(completion))
    }

    @usableFromInline
    func send(subscription: Subscription) {
        lock.lock()
        let finished = completion != nil
        if !finished { upstreams.append(subscription) }
        // As Combine: a CurrentValueSubject asks at once, a PassthroughSubject once one of its
        // subscribers has asked for something.
        let asks = !finished && (replaysLatest || hasDemand.load(ordering: .relaxed))
        lock.unlock()
        if finished {
            subscription.cancel()
        } else if asks {
            subscription.request(.unlimited)
        }
    }

    /// A PassthroughSubject's first downstream request: asks every upstream for `.unlimited`.
    @usableFromInline
    func acknowledgeDemand() {
        lock.lock()
        if hasDemand.load(ordering: .relaxed) {
            lock.unlock()
            return
        }
        hasDemand.store(true, ordering: .releasing)
        let subscriptions = upstreams
        lock.unlock()
        for subscription in subscriptions { subscription.request(.unlimited) }
    }

    /// Attaches `subscriber`; its subscription keeps `owner` (the subject) alive until it ends,
    /// as Combine's does.
    @inlinable
    func receive<S: Subscriber>(subscriber: S, owner: AnyObject) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        lock.unlock()
        // The subscription is handed over at once, on this thread, as Combine does; only then
        // is the conduit attached, through the drain token (queued if another thread is
        // delivering), so no value reaches it before its subscription.
        let conduit = Conduit(core: self, downstream: subscriber, owner: owner)
        // A CurrentValueSubject owes a new subscriber the current value; a request from inside
        // `receive(subscription:)` gets it inside that request when the token is free.
        conduit.owesValue = replaysLatest
        subscriber.receive(subscription: conduit)
        submit(.attach(conduit))
        // A PassthroughSubject's first request made before the conduit was attached (inside
        // `receive(subscription:)`) asks the upstreams only now, so that what a synchronous
        // upstream sends at once reaches this subscriber.
        if conduit.attachState.exchange(SubjectConduit<Output, Failure>.attached, ordering: .acquiringAndReleasing)
            == SubjectConduit<Output, Failure>.subscribingWithDemand
        {
            acknowledgeDemand()
        }
    }

    /// Forgets an upstream subscription that was cancelled (by the `subscribe(subject)`
    /// cancellable that holds it), so connecting and disconnecting again and again does not
    /// grow the list.
    func forgetUpstream(_ subscription: Subscription) {
        let id = subscription.combineIdentifier
        lock.withLock { upstreams.removeAll { $0.combineIdentifier == id } }
    }

    @usableFromInline
    func cancelUpstreams() {
        lock.lock()
        let subscriptions = upstreams
        upstreams = []
        lock.unlock()
        for subscription in subscriptions { subscription.cancel() }
    }

    /// Runs `operation` now if the token is free (taking it), else queues it for the holder.
    @usableFromInline
    func submit(_ operation: Operation) {
        lock.lock()
        submitLocked(operation)
    }

    /// Under `lock`, with the token held by someone else: queues `value` for the holder.
    @inlinable
    func queueLocked(_ value: Output) {
        serial.pending.append(.value(value))
        queuedValues += 1
    }

    // MARK: The token (SerialDelivery's hooks)

    /// Under `lock`: takes the token if it is free (`true`); else marks work as queued
    /// (`false`), and the caller queues its operation before unlocking.
    ///
    /// A CurrentValueSubject's token is only ever taken under `lock` (it has no lock-free
    /// `send`), so when it is free nobody else can write the token's word (there is no holder to
    /// give it back): a plain store takes it, one atomic read-modify-write fewer per `send` than
    /// the compare-and-swap (Docs/Performance.md, "Subjects").
    @inlinable
    func takeTokenLocked() -> Bool {
        replaysLatest ? token.takeLockedWithoutRivals() : token.takeLocked()
    }

    // MARK: Token holder only

    /// Under `lock`, with the token held and the queue empty: gives the token back.
    @inlinable
    func giveBackTokenLocked() { token.giveBackLocked() }

    /// Gives back a token taken for one value or operation: at once if nothing was queued
    /// meanwhile, else after the engine's drain loop has performed what was.
    @inlinable
    func releaseToken() {
        if token.giveBackIfIdle() { return }
        releaseTokenAfterDraining()
    }

    @usableFromInline
    func releaseTokenAfterDraining() {
        lock.lock()
        drainLocked()
    }

    /// The engine's next step: the oldest queued operation, or stop once there is none.
    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Operation> {
        guard let operation = serial.pending.popFirst() else { return .stop(nil) }
        if case .value = operation { queuedValues -= 1 }
        return .deliver(operation)
    }

    /// The engine's delivery: performs the operation (demand is per subscriber, in the conduits).
    @inlinable
    func deliver(_ operation: Operation) -> DeliveryResult {
        perform(operation)
        return .returned(.none)
    }

    @usableFromInline
    func perform(_ operation: Operation) {
        switch operation {
        case .value(let value):
            deliverValue(value)
        case .complete(let completion):
            completionDelivered = true
            let finishing = conduits
            conduits = []
            for conduit in finishing { conduit.takeRetainedValue().finish(completion) }
        case .attach(let conduit):
            if conduit.cancelled.load(ordering: .acquiring) {
                conduit.release()  // cancelled from inside receive(subscription:)
            } else if completionDelivered {
                conduit.finish(lock.withLock { completion! })
            } else {
                conduits.append(.passRetained(conduit))
                if replaysLatest {
                    // Given the value before it was attached: it is owed a newer one, if any.
                    if !conduit.owesValue, conduit.seenCount != deliveredCount { conduit.owesValue = true }
                    conduit.flush(deliveredValue!)
                }
            }
        case .detach(let conduit):
            if let index = conduits.firstIndex(where: { $0.toOpaque() == Unmanaged.passUnretained(conduit).toOpaque() })
            {
                conduits.remove(at: index).release()
            }
            conduit.release()
        case .flush(let conduit):
            conduit.flush(deliveredValue!)
        }
    }

    @inlinable
    func deliverValue(_ value: Output) {
        if replaysLatest {
            deliveredValue = value
            deliveredCount &+= 1
        }
        // At +0: nothing here retains. Only the token holder changes `conduits`, and it is busy
        // here (a cancel from inside a subscriber is queued).
        var index = 0
        while index < conduits.count {
            conduits[index].withLentReference { $0.offerValue($0, value) }
            index += 1
        }
    }
}

/// One subscriber's subscription to a subject. The subject calls its subscriber only through it.
@usableFromInline
class SubjectConduit<Output, Failure: Error>: Subscription, @unchecked Sendable {
    // demand and cancelled: atomics, any thread. owesValue and the subclass's downstream: owned
    // by the subject's drain-token holder.
    @usableFromInline let core: SubjectCore<Output, Failure>
    @usableFromInline let demand = Atomic<UInt>(0)
    @usableFromInline let cancelled = Atomic<Bool>(false)
    /// CurrentValueSubject: the subscriber missed the latest value for lack of demand (or has not
    /// had it yet) and gets it as soon as it asks.
    @exclusivity(unchecked) @usableFromInline final var owesValue = false
    /// CurrentValueSubject: the subject's `deliveredCount` when this subscriber was given the
    /// value before it was attached.
    @exclusivity(unchecked) @usableFromInline final var seenCount: UInt = 0
    /// PassthroughSubject: whether the subject is still handing this subscription over
    /// (`subscribing`), was asked for a value meanwhile (`subscribingWithDemand`: the subject
    /// asks its upstreams once the conduit is attached), or is attached.
    @usableFromInline let attachState = Atomic<UInt8>(0)
    @usableFromInline static var subscribing: UInt8 { 0 }
    @usableFromInline static var subscribingWithDemand: UInt8 { 1 }
    @usableFromInline static var attached: UInt8 { 2 }
    /// `offer`, as compiled for the concrete subscriber type where it subscribed. A call through
    /// the class's vtable from the subject would run the unspecialized generic code.
    @usableFromInline let offerValue: (SubjectConduit, Output) -> Void
    /// The subject, kept alive by its subscribers' subscriptions until they end, as in Combine
    /// (a subject reached only through `publisher.subscribe(subject)`, which holds it weakly,
    /// still delivers to its subscribers). Let go of with the downstream, by the drain-token
    /// holder.
    @exclusivity(unchecked) @usableFromInline final var owner: AnyObject?

    @inlinable
    init(
        core: SubjectCore<Output, Failure>, owner: AnyObject,
        offerValue: @escaping (SubjectConduit, Output) -> Void
    ) {
        self.core = core
        self.owner = owner
        self.offerValue = offerValue
    }

    @usableFromInline func flush(_ latest: Output) { fatalError("abstract") }
    @usableFromInline func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
    @usableFromInline func release() { fatalError("abstract") }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "A subject's subscription") else { return }
        if cancelled.load(ordering: .relaxed) { return }
        addDemand(demand)
        if core.replaysLatest {
            core.submit(.flush(self))
        } else if !core.hasDemand.load(ordering: .acquiring) {
            let (deferred, _) = attachState.compareExchange(
                expected: Self.subscribing, desired: Self.subscribingWithDemand, ordering: .acquiringAndReleasing)
            if !deferred { core.acknowledgeDemand() }
        }
    }

    @usableFromInline
    func cancel() {
        if cancelled.exchange(true, ordering: .acquiringAndReleasing) { return }
        core.submit(.detach(self))
    }

    @inlinable
    func addDemand(_ more: Subscribers.Demand) {
        var old = demand.load(ordering: .relaxed)
        while true {
            // Unlimited stays unlimited: no write (a duplicate dropped downstream returns
            // `.max(1)` for every value it drops).
            if old == Subscribers.Demand.unlimitedRawValue { return }
            let new = (Subscribers.Demand(rawValue: old) + more).rawValue
            let (exchanged, original) = demand.compareExchange(
                expected: old, desired: new, ordering: .acquiringAndReleasing)
            if exchanged { return }
            old = original
        }
    }

    /// Takes one unit of demand; `false` when there is none.
    @inlinable
    func takeOne() -> Bool {
        var old = demand.load(ordering: .acquiring)
        while true {
            if old == 0 { return false }
            if old == Subscribers.Demand.unlimitedRawValue { return true }
            let (exchanged, original) = demand.compareExchange(
                expected: old, desired: old - 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            old = original
        }
    }
}

extension SubjectConduit: CustomStringConvertible {
    @usableFromInline var description: String { "\(core.name)" }
}

@usableFromInline
final class Conduit<Downstream: Subscriber>: SubjectConduit<Downstream.Input, Downstream.Failure>, @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?

    @inlinable
    init(core: SubjectCore<Downstream.Input, Downstream.Failure>, downstream: Downstream, owner: AnyObject) {
        self.downstream = downstream
        super.init(
            core: core, owner: owner,
            offerValue: { conduit, value in
                unsafeDowncast(conduit, to: Conduit<Downstream>.self).offer(value)
            })
    }

    @inlinable @inline(__always)
    func offer(_ value: Downstream.Input) {
        if cancelled.load(ordering: .relaxed) { return }
        guard takeOne() else {
            owesValue = core.replaysLatest
            return
        }
        // Moved out and back in rather than copied, which would retain and release it per value.
        // Only the drain-token holder (this call) touches `downstream`.
        guard let downstream = self.downstream.take() else { return }
        owesValue = false
        let more = downstream.receive(value)
        putBack(consume downstream)
        // An unlimited demand stays unlimited: no call for the `.max(1)` a dropped value returns.
        if more != .none && demand.load(ordering: .relaxed) != Subscribers.Demand.unlimitedRawValue {
            addDemand(more)
        }
    }

    /// Puts back the downstream `offer` took, over the `nil` the take left (nobody else writes
    /// the field meanwhile): initialized, not assigned, which skips releasing that `nil`
    /// (Docs/Performance.md, "The downstream put back without a release").
    @inlinable @inline(__always)
    func putBack(_ downstream: __owned Downstream) {
        withUnsafeMutablePointer(to: &self.downstream) { $0.initialize(to: downstream) }
    }

    @usableFromInline
    override func flush(_ latest: Downstream.Input) {
        if !owesValue || cancelled.load(ordering: .relaxed) { return }
        guard takeOne(), let downstream else { return }
        owesValue = false
        seenCount = core.deliveredCount
        let more = downstream.receive(latest)
        if more != .none { addDemand(more) }
    }

    @usableFromInline
    override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let downstream = self.downstream
        self.downstream = nil
        let owner = self.owner.take()
        defer { _ = owner }  // the subject goes after its completion has been delivered
        if cancelled.exchange(true, ordering: .acquiringAndReleasing) { return }
        downstream?.receive(completion: completion)
    }

    @usableFromInline
    override func release() {
        downstream = nil
        owner = nil
    }
}
