/// What an observing operator (`handleEvents`, `print`) does at each event of one subscription.
///
/// Each closure is called outside any lock, just before the event is passed on: the upstream's
/// subscription before the downstream gets its own, a value before the downstream receives it,
/// the completion before the downstream receives it, a request or cancel before it reaches the
/// upstream. `returnedDemand` is called just after the downstream returned more than `.none`
/// from `receive(_:)`.
@usableFromInline
final class EventHooks<Input, Failure: Error> {
    @usableFromInline let subscription: ((any Subscription) -> Void)?
    @usableFromInline let output: ((Input) -> Void)?
    @usableFromInline let returnedDemand: ((Subscribers.Demand) -> Void)?
    @usableFromInline let completion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline let cancel: (() -> Void)?
    @usableFromInline let request: ((Subscribers.Demand) -> Void)?

    @inlinable
    init(
        subscription: ((any Subscription) -> Void)?,
        output: ((Input) -> Void)?,
        returnedDemand: ((Subscribers.Demand) -> Void)?,
        completion: ((Subscribers.Completion<Failure>) -> Void)?,
        cancel: (() -> Void)?,
        request: ((Subscribers.Demand) -> Void)?
    ) {
        self.subscription = subscription
        self.output = output
        self.returnedDemand = returnedDemand
        self.completion = completion
        self.cancel = cancel
        self.request = request
    }
}

/// The subscriber and subscription of the observing operators: it passes every event through
/// unchanged, and runs ``EventHooks`` on the way.
///
/// Unlike a struct subscriber, it stands between the downstream and the upstream subscription,
/// so that it sees the downstream's `request` and `cancel`. It adds no demand bookkeeping:
/// requests go to the upstream subscription as they are (also `.none`, which the upstream
/// reports or ignores, [S9]), so [S1] is the upstream's to keep. What it adds: after `cancel()` or
/// the completion, nothing more is delivered or run ([S4], [S6]), and the downstream, the upstream
/// subscription and the hooks are let go ([S7]). A value or completion that arrives before the
/// upstream's subscription or after the end is ignored, without running a hook, and a second
/// upstream subscription is cancelled ([S2]).
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S2]: doc:/Contract/StreamContract#S2
/// [S4]: doc:/Contract/StreamContract#S4
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
/// [S9]: doc:/Contract/StreamContract#S9
@usableFromInline
final class ObservingSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // every `var` is guarded by `lock`
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let lock = Lock()
    /// `nil` once completed or cancelled.
    @usableFromInline var downstream: Downstream?
    /// `nil` once completed or cancelled.
    @usableFromInline var hooks: EventHooks<Input, Failure>?
    /// The upstream's subscription while `holdsUpstream`, else a ``NoSubscription``
    /// (NoSubscription.swift).
    @usableFromInline var upstream: any Subscription = NoSubscription()
    /// From the upstream's subscription until the completion or `cancel()`.
    @usableFromInline var holdsUpstream = false
    @usableFromInline let name: StaticString

    @inlinable
    init(downstream: Downstream, hooks: EventHooks<Input, Failure>, name: StaticString) {
        self.downstream = downstream
        self.hooks = hooks
        self.name = name
    }

    @usableFromInline var description: String { "\(name)" }

    // MARK: Upstream side

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        // Once over, `downstream` is `nil`: a late subscription is cancelled too (S2).
        guard !holdsUpstream, let downstream, let hooks else {
            lock.unlock()
            subscription.cancel()
            return
        }
        holdsUpstream = true
        NoSubscription.hold(subscription, in: &upstream)
        lock.unlock()
        hooks.subscription?(subscription)
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // Before the subscription, or once over, a value is ignored and runs no hook (S2).
        guard holdsUpstream, let downstream, let hooks else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        if let output = hooks.output {
            output(input)
            // The hook may have cancelled (S6).
            if lock.withLock({ self.downstream == nil }) { return .none }
        }
        let demand = downstream.receive(input)
        if demand != .none, let returnedDemand = hooks.returnedDemand, lock.withLock({ self.hooks != nil }) {
            returnedDemand(demand)
        }
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // Before the subscription, or once over, a completion is ignored and runs no hook (S2).
        guard holdsUpstream else {
            lock.unlock()
            return
        }
        holdsUpstream = false
        let downstream = self.downstream.take()
        let hooks = self.hooks.take()
        let finished = NoSubscription.take(from: &upstream)
        lock.unlock()
        keepAlive(finished)  // let go of after unlocking (S7)
        guard let downstream else { return }
        hooks?.completion?(completion)
        downstream.receive(completion: completion)
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard holdsUpstream, let hooks else {
            lock.unlock()
            return
        }
        let upstream = self.upstream
        lock.unlock()
        hooks.request?(demand)
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let heldUpstream = holdsUpstream
        holdsUpstream = false
        let upstream = NoSubscription.take(from: &self.upstream)
        let hooks = self.hooks.take()
        let downstream = self.downstream.take()
        lock.unlock()
        guard heldUpstream else { return }
        hooks?.cancel?()
        upstream.cancel()
        keepAlive(downstream)  // let go of here, after unlocking (S7)
    }
}
