/// The subscription of `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`: it subscribes to
/// the upstream and to a second publisher, the trigger (through an ``UntilOutputTrigger``), and
/// its state changes at the trigger's first value.
///
/// States: *closed* (`drop` before the trigger's value: upstream values are dropped) or *open*
/// (values pass; `prefix` starts here), then *done* (completed or cancelled). `isDelivering`
/// marks the moment an upstream value is with the downstream. One lock, `lock`, guards them all.
///
/// - `prefix`: values pass until the trigger sends a value; then the upstream and the trigger
///   are cancelled and the downstream finishes. The trigger's completion changes nothing.
/// - `drop`: values are dropped until the trigger sends a value; then the trigger is cancelled
///   and values pass. A trigger completion that comes first ends the stream with it (the
///   upstream is cancelled).
///
/// The two publishers may send on different threads, so the downstream can be called from two
/// sides: the upstream's values and completion, and the end that the trigger causes. Neither
/// is ever passed on while the other is being passed on (S3): a value is delivered with
/// `isDelivering` set, and an end that comes from the trigger side meanwhile is kept in
/// `deferredCompletion` and sent by the thread delivering the value, right after it. The same
/// holds when the downstream itself makes the trigger fire from inside `receive(_:)`: no nested
/// call, no deadlock. Nothing is called while `lock` is held.
///
/// What either publisher sends before its subscription, or after it is over, is ignored, and a
/// second subscription is cancelled (S2).
///
/// The downstream gets this subscription before either publisher is subscribed; demand it asks
/// for before the upstream's subscription arrives is kept and passed on when it does. Demand
/// then goes straight to the upstream. The trigger is asked for `.max(1)`.
@usableFromInline
final class UntilOutputSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // every `var` is guarded by `lock`
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    enum Mode {
        /// `prefix(untilOutputFrom:)`.
        case prefix
        /// `drop(untilOutputFrom:)`.
        case drop
    }

    @usableFromInline let mode: Mode
    @usableFromInline let name: StaticString
    @usableFromInline let lock = Lock()
    /// `nil` once completed or cancelled (kept while a deferred completion waits to be sent).
    @usableFromInline var downstream: Downstream?
    /// `nil` before the upstream's subscription arrives and once the stream has ended.
    @usableFromInline var upstream: (any Subscription)?
    /// The trigger's subscription; `nil` before it arrives and once the trigger is done with.
    @usableFromInline var trigger: (any Subscription)?
    /// Whether the trigger's subscription has arrived (a second one is cancelled, S2).
    @usableFromInline var hasTrigger = false
    /// Whether the trigger is over: it sent its value or completed. What it sends afterwards,
    /// or before its subscription, is ignored (S2).
    @usableFromInline var triggerDone = false
    /// Demand asked for before the upstream's subscription arrived.
    @usableFromInline var pendingDemand = Subscribers.Demand.none
    /// Whether upstream values go downstream: from the start for `prefix`, after the trigger's
    /// value for `drop`.
    @usableFromInline var isOpen: Bool
    /// Completed or cancelled: nothing more goes downstream (S4, S6).
    @usableFromInline var isDone = false
    /// An upstream value is being passed downstream right now.
    @usableFromInline var isDelivering = false
    /// An end caused by the trigger while a value was being delivered; the delivering thread
    /// sends it as soon as the downstream returns.
    @usableFromInline var deferredCompletion: Subscribers.Completion<Failure>?

    @inlinable
    init(downstream: Downstream, mode: Mode, name: StaticString) {
        self.downstream = downstream
        self.mode = mode
        self.name = name
        self.isOpen = mode == .prefix
    }

    @usableFromInline var description: String { "\(name)" }

    /// Gives `downstream` a new subscription, then subscribes it to `trigger`, then to `upstream`
    /// (the order Combine uses: a trigger that fires at once acts before the first value).
    @inlinable
    static func subscribe<Upstream: Publisher, Trigger: Publisher>(
        _ downstream: Downstream, to upstream: Upstream, until trigger: Trigger, mode: Mode, name: StaticString
    ) where Upstream.Output == Input, Upstream.Failure == Failure {
        let subscription = UntilOutputSubscription(downstream: downstream, mode: mode, name: name)
        downstream.receive(subscription: subscription)
        trigger.receive(subscriber: UntilOutputTrigger<Trigger.Output, Trigger.Failure, Downstream>(subscription))
        upstream.receive(subscriber: subscription)
    }

    // MARK: The upstream's signals

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isDone, upstream == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        let demand = pendingDemand
        pendingDemand = .none
        lock.unlock()
        if demand != .none { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // `drop` before the trigger: the value is dropped and its demand is spent, as in Combine.
        // A value before the upstream's subscription is ignored (S2).
        guard !isDone, isOpen, upstream != nil, let downstream else {
            lock.unlock()
            return .none
        }
        isDelivering = true
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        isDelivering = false
        guard let completion = deferredCompletion.take() else {
            lock.unlock()
            return more
        }
        let finishing = self.downstream.take()
        lock.unlock()
        finishing?.receive(completion: completion)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // A completion before the upstream's subscription is ignored (S2).
        guard !isDone, upstream != nil else {
            lock.unlock()
            return
        }
        isDone = true
        let finished = upstream.take()
        let trigger = self.trigger.take()
        let downstream = self.downstream.take()
        lock.unlock()
        _ = finished
        trigger?.cancel()
        downstream?.receive(completion: completion)
    }

    // MARK: The trigger's signals

    @usableFromInline
    func triggerReceive(subscription: any Subscription) {
        lock.lock()
        guard !isDone, !hasTrigger else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasTrigger = true
        trigger = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    /// The trigger's first value: `prefix` ends the stream, `drop` opens it.
    @usableFromInline
    func triggerFired() {
        lock.lock()
        guard hasTrigger, !triggerDone else {
            lock.unlock()
            return
        }
        triggerDone = true
        lock.unlock()
        switch mode {
        case .prefix:
            end(with: .finished)
        case .drop:
            lock.lock()
            guard !isDone, !isOpen else {
                lock.unlock()
                return
            }
            isOpen = true
            let trigger = self.trigger.take()
            lock.unlock()
            trigger?.cancel()
        }
    }

    /// The trigger completed. `completion` is what to end the stream with if no value came
    /// before it (`drop`); `prefix`, whose stream is open from the start, ignores it.
    @usableFromInline
    func triggerCompleted(endingWith completion: Subscribers.Completion<Failure>?) {
        lock.lock()
        guard hasTrigger, !triggerDone else {
            lock.unlock()
            return
        }
        triggerDone = true
        guard let completion, !isOpen else {
            let finished = trigger.take()
            lock.unlock()
            _ = finished
            return
        }
        lock.unlock()
        end(with: completion)
    }

    /// Ends the stream from the trigger's side: cancels both publishers and sends `completion`,
    /// now, or right after the value being delivered on another thread.
    @usableFromInline
    func end(with completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        pendingDemand = .none
        let upstream = self.upstream.take()
        let trigger = self.trigger.take()
        var downstream: Downstream?
        if isDelivering {
            deferredCompletion = completion
        } else {
            downstream = self.downstream.take()
        }
        lock.unlock()
        upstream?.cancel()
        trigger?.cancel()
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard demand != .none else { return }
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        guard let upstream else {
            pendingDemand += demand
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        isDone = true
        deferredCompletion = nil
        let upstream = self.upstream.take()
        let trigger = self.trigger.take()
        let downstream = self.downstream.take()
        lock.unlock()
        _ = downstream
        upstream?.cancel()
        trigger?.cancel()
    }
}

/// Subscribes to the trigger of `prefix(untilOutputFrom:)` or `drop(untilOutputFrom:)` and
/// passes its signals to the ``UntilOutputSubscription``, which decides what they mean for its
/// mode: the first value ends (`prefix`) or opens (`drop`) the stream; a completion before it
/// ends the stream (`drop`) or changes nothing (`prefix`).
@usableFromInline
struct UntilOutputTrigger<Input, Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let subscription: UntilOutputSubscription<Downstream>

    @inlinable
    init(_ subscription: UntilOutputSubscription<Downstream>) {
        self.subscription = subscription
    }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(subscription) }
    @usableFromInline var description: String { subscription.description }

    @inlinable func receive(subscription: any Subscription) { self.subscription.triggerReceive(subscription: subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        subscription.triggerFired()
        return .none
    }

    /// For `drop` the trigger's failure type is the upstream's, so the completion is the one to
    /// end the stream with; `prefix` ignores it (its trigger may fail with another type).
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        subscription.triggerCompleted(endingWith: completion as? Subscribers.Completion<Downstream.Failure>)
    }
}
