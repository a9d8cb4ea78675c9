/// The subscription of `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`: it subscribes to
/// the upstream and to a second publisher, the trigger (through an ``UntilOutputTrigger``), and
/// its state changes at the trigger's first value.
///
/// States: *closed* (`drop` before the trigger's value: upstream values are dropped) or *open*
/// (values pass; `prefix` starts here), then *done* (completed or cancelled). `isCalling`
/// marks the moment the upstream's side is calling the downstream (handing it this
/// subscription, or a value). One lock, `lock`, guards them all.
///
/// - `prefix`: values pass until the trigger sends a value; then the upstream and the trigger
///   are cancelled and the downstream finishes. The trigger's completion changes nothing.
/// - `drop`: values are dropped until the trigger sends a value; then values pass. The trigger
///   stays subscribed until the stream ends (its later signals are ignored), as in Combine; the
///   end cancels it ([S7]). A trigger completion that comes before its value ends the stream with
///   it (the upstream is cancelled).
///
/// The order of subscriptions is Combine's. `drop`: the downstream gets this subscription
/// first, then the trigger and then the upstream are subscribed; demand the downstream asks for
/// before the upstream's subscription arrives is kept and passed on when it does. `prefix`: the
/// trigger is subscribed, then the upstream, and the downstream gets this subscription when the
/// upstream's arrives (then, as during any handover, its requests are added up and passed on
/// right after, [S3]). If the trigger fires before that, the downstream gets this subscription
/// and `.finished` at once, and the upstream's subscription is cancelled when it arrives
/// (Combine sends that `.finished` without a subscription before it, which [S2] forbids). Demand
/// then goes straight to the upstream. The trigger is asked for `.max(1)`.
///
/// The two publishers may send on different threads, so the downstream can be called from two
/// sides: the upstream's handover, values and completion, and the end that the trigger causes.
/// Neither is ever passed on while the other is being passed on ([S3]): the upstream's side calls
/// with `isCalling` set, and an end that comes from the trigger side meanwhile is kept in
/// `deferredCompletion` and sent by the upstream's thread right after its call returns. The
/// same holds when the downstream itself makes the trigger fire from inside `receive(_:)`: no
/// nested call, no deadlock. Nothing is called while `lock` is held.
///
/// What either publisher sends before its subscription, or after it is over, is ignored, and a
/// second subscription is cancelled ([S2]).
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
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
    /// Whether the downstream has been given this subscription (or is being given it).
    @usableFromInline var isHandedOver: Bool
    /// The downstream is being given this subscription by the upstream's thread: its requests
    /// are added up in `pendingDemand` and passed on right after ([S3]).
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    @usableFromInline var isHandingOver = false
    /// The upstream's subscription once `hasUpstream` and until the stream has ended, else a
    /// ``NoSubscription`` (NoSubscription.swift).
    @usableFromInline var upstream: any Subscription = NoSubscription()
    /// Whether the upstream's subscription has arrived (a second one is cancelled, [S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @usableFromInline var hasUpstream = false
    /// The trigger's subscription once `hasTrigger` and until the trigger is done with, else a
    /// ``NoSubscription``.
    @usableFromInline var trigger: any Subscription = NoSubscription()
    /// Whether the trigger's subscription has arrived (a second one is cancelled, [S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @usableFromInline var hasTrigger = false
    /// Whether the trigger has sent its value: what it sends afterwards is ignored.
    @usableFromInline var hasTriggerFired = false
    /// Whether the trigger has completed: what it sends afterwards is ignored ([S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @usableFromInline var hasTriggerCompleted = false
    /// Demand asked for before the upstream's subscription arrived, or during the handover.
    @usableFromInline var pendingDemand = Subscribers.Demand.none
    /// Whether upstream values go downstream: from the start for `prefix`, after the trigger's
    /// value for `drop`.
    @usableFromInline var isOpen: Bool
    /// Completed or cancelled: nothing more goes downstream ([S4], [S6]).
    ///
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S6]: doc:/Contract/StreamContract#S6
    @usableFromInline var isDone = false
    /// The upstream's side is calling the downstream right now (the handover or a value).
    @usableFromInline var isCalling = false
    /// An end caused by the trigger while the upstream's side was calling the downstream; that
    /// thread sends it as soon as the downstream returns.
    @usableFromInline var deferredCompletion: Subscribers.Completion<Failure>?

    @inlinable
    init(downstream: Downstream, mode: Mode, name: StaticString) {
        self.downstream = downstream
        self.mode = mode
        self.name = name
        self.isOpen = mode == .prefix
        self.isHandedOver = mode == .drop
    }

    @usableFromInline var description: String { "\(name)" }

    /// Subscribes `downstream` to `upstream` until `trigger` sends a value, in Combine's order:
    /// `drop` gives the downstream this subscription, then subscribes to the trigger, then to
    /// the upstream; `prefix` subscribes to the trigger, then to the upstream, and gives the
    /// downstream this subscription when the upstream's arrives. Either way a trigger that fires
    /// at once (`Just`) acts before the upstream's first value.
    @inlinable
    static func subscribe<Upstream: Publisher, Trigger: Publisher>(
        _ downstream: Downstream, to upstream: Upstream, until trigger: Trigger, mode: Mode, name: StaticString
    ) where Upstream.Output == Input, Upstream.Failure == Failure {
        let subscription = UntilOutputSubscription(downstream: downstream, mode: mode, name: name)
        if mode == .drop { downstream.receive(subscription: subscription) }
        trigger.receive(subscriber: UntilOutputTrigger<Trigger.Output, Trigger.Failure, Downstream>(subscription))
        upstream.receive(subscriber: subscription)
    }

    // MARK: The upstream's signals

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isDone, !hasUpstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasUpstream = true
        NoSubscription.hold(subscription, in: &upstream)
        if !isHandedOver, let downstream {
            // `prefix`: the downstream gets this subscription now, as in Combine.
            isHandedOver = true
            isHandingOver = true
            isCalling = true
            lock.unlock()
            downstream.receive(subscription: self)
            lock.lock()
            isHandingOver = false
            isCalling = false
            if let completion = deferredCompletion.take() {
                let finishing = self.downstream.take()
                lock.unlock()
                finishing?.receive(completion: completion)
                return
            }
            // Cancelled while receiving the subscription: `cancel()` has cancelled the upstream.
            guard !isDone else {
                lock.unlock()
                return
            }
        }
        let demand = pendingDemand
        pendingDemand = .none
        lock.unlock()
        if demand != .none { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // `drop` before the trigger: the value is dropped and its demand is spent, as in Combine.
        // A value before the upstream's subscription, or during the handover (nothing was asked
        // for yet), is ignored (S1, S2).
        guard !isDone, isOpen, hasUpstream, !isHandingOver, let downstream else {
            lock.unlock()
            return .none
        }
        // An upstream that answers a request from inside `receive(_:)` by sending at once nests
        // this call in the one below it; the outermost call sends a deferred completion.
        let isNested = isCalling
        isCalling = true
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        isCalling = isNested
        guard !isNested, let completion = deferredCompletion.take() else {
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
        guard !isDone, hasUpstream else {
            lock.unlock()
            return
        }
        isDone = true
        let finished = NoSubscription.take(from: &upstream)
        let trigger = NoSubscription.take(from: &self.trigger)
        var downstream: Downstream?
        if isCalling {
            deferredCompletion = completion
        } else {
            downstream = self.downstream.take()
        }
        lock.unlock()
        keepAlive(finished)
        // The stream ends: the trigger is cancelled, also one that has fired (`drop`), S7.
        trigger.cancel()
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
        NoSubscription.hold(subscription, in: &trigger)
        lock.unlock()
        subscription.request(.max(1))
    }

    /// The trigger's first value: `prefix` ends the stream, `drop` opens it.
    @usableFromInline
    func triggerFired() {
        lock.lock()
        guard hasTrigger, !hasTriggerFired, !hasTriggerCompleted else {
            lock.unlock()
            return
        }
        hasTriggerFired = true
        switch mode {
        case .prefix:
            lock.unlock()
            end(with: .finished)
        case .drop:
            // The trigger stays subscribed until the stream ends, as in Combine.
            if !isDone { isOpen = true }
            lock.unlock()
        }
    }

    /// The trigger completed. `completion` is what to end the stream with if no value came
    /// before it (`drop`); `prefix`, whose stream is open from the start, ignores it.
    @usableFromInline
    func triggerCompleted(endingWith completion: Subscribers.Completion<Failure>?) {
        lock.lock()
        guard hasTrigger, !hasTriggerCompleted else {
            lock.unlock()
            return
        }
        hasTriggerCompleted = true
        // The trigger is over: let go of it, nothing to cancel.
        let finished = NoSubscription.take(from: &trigger)
        guard let completion, !hasTriggerFired, !isOpen else {
            lock.unlock()
            keepAlive(finished)
            return
        }
        lock.unlock()
        keepAlive(finished)
        end(with: completion)
    }

    /// Ends the stream from the trigger's side: cancels both publishers and sends `completion`,
    /// now, or right after the upstream's side has returned from the downstream. A downstream
    /// that has not been given this subscription yet (`prefix`, the upstream's has not arrived)
    /// gets it first ([S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @usableFromInline
    func end(with completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        pendingDemand = .none
        let upstream = NoSubscription.take(from: &self.upstream)
        let trigger = NoSubscription.take(from: &self.trigger)
        let handsOver = !isHandedOver
        isHandedOver = true
        var downstream: Downstream?
        if isCalling {
            deferredCompletion = completion
        } else {
            downstream = self.downstream.take()
        }
        lock.unlock()
        upstream.cancel()
        trigger.cancel()
        if handsOver { downstream?.receive(subscription: self) }
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing (it is not passed on).
        guard demand != .none else { return }
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        guard hasUpstream, !isHandingOver else {
            pendingDemand += demand
            lock.unlock()
            return
        }
        let upstream = self.upstream
        lock.unlock()
        upstream.request(demand)
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        isDone = true
        deferredCompletion = nil
        let upstream = NoSubscription.take(from: &self.upstream)
        let trigger = NoSubscription.take(from: &self.trigger)
        let downstream = self.downstream.take()
        lock.unlock()
        keepAlive(downstream)
        upstream.cancel()
        trigger.cancel()
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

    @inlinable func receive(subscription: any Subscription) {
        self.subscription.triggerReceive(subscription: subscription)
    }

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
