import Synchronization

/// Base of the operators that keep state per subscription but let demand and cancellation go
/// straight to the upstream subscription (`removeDuplicates`, `scan`, `first`, `prefix(while:)`,
/// the `try` operators, ...).
///
/// The downstream receives the *upstream's* subscription, so `request` and `cancel` cost nothing
/// here. Everything in this object is touched only from the upstream's serialized signals (S3):
/// no lock. To end early (S14, S15) a subclass calls ``finish(_:)``, which cancels the upstream,
/// lets go of the downstream and sends the completion; anything the upstream still sends after
/// that is ignored (S4).
///
/// Subclasses implement `receive(_:)` (for a value that is not passed on, return `.max(1)` to
/// replace the demand it used) and may override ``complete(_:)`` to change how an upstream
/// completion is passed on.
@usableFromInline
class RelaySubscriber<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = UpstreamFailure
    // Only the upstream's serialized signals touch these (S3), never two at once: no dynamic
    // exclusivity check on the per-value path.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    @exclusivity(unchecked) @usableFromInline var upstream: Subscription?

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline var description: String { "\(Self.self)" }

    @inlinable
    final func receive(subscription: Subscription) {
        guard upstream == nil, let downstream else {
            subscription.cancel()
            return
        }
        upstream = subscription
        downstream.receive(subscription: subscriptionForDownstream(subscription))
        didSubscribe(subscription)
    }

    /// The subscription the downstream receives: by default the upstream's own, so `request`
    /// and `cancel` cost nothing here. ``EndingRelaySubscriber`` overrides it to learn of a
    /// downstream cancel.
    @inlinable
    func subscriptionForDownstream(_ subscription: Subscription) -> Subscription {
        subscription
    }

    /// Called after the downstream has the subscription.
    @inlinable
    func didSubscribe(_ subscription: Subscription) {}

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        fatalError("abstract")
    }

    @inlinable
    final func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard downstream != nil else { return }
        upstream = nil
        complete(completion)
    }

    /// Passes the upstream's completion on. The default sends a failure as is when the failure
    /// types match; subclasses that change the failure type override it.
    @inlinable
    func complete(_ completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished:
            sendCompletion(.finished)
        case .failure(let error):
            sendCompletion(.failure(error as! Downstream.Failure))
        }
    }

    /// Sends `input` downstream and returns the demand it gives back; `.none` once the stream
    /// has ended.
    ///
    /// The downstream is moved out for the call and back in after it rather than copied, which
    /// would retain and release it for every value. Safe because only the upstream's signals
    /// touch `downstream`, and they never overlap or nest (S3): nothing looks for it while it
    /// is out.
    @inlinable
    final func forward(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = self.downstream.take() else { return .none }
        let demand = downstream.receive(input)
        self.downstream = consume downstream
        return demand
    }

    /// Ends the stream early: cancels the upstream and sends `completion` downstream.
    @inlinable
    final func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard downstream != nil else { return }
        let upstream = self.upstream.take()
        upstream?.cancel()
        sendCompletion(completion)
    }

    /// Sends `completion` downstream and lets go of the downstream.
    @inlinable
    final func sendCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let downstream = self.downstream.take() else { return }
        downstream.receive(completion: completion)
    }
}

/// Base of the relays that pass a value on and then end the stream in the same call (`first`,
/// `output(in:)`, `prefix(_:)`): ``sendLast(_:)`` sends the value, cancels the upstream (S15) and
/// sends `.finished`.
///
/// A downstream may cancel while it receives that last value; then it must get nothing more
/// (S6), and the upstream, which the downstream has just cancelled, is not cancelled twice. So
/// the downstream gets a ``CancelTrackingSubscription`` instead of the upstream's own: requests
/// still go straight to the upstream, and a cancel sets a flag on its way there. One allocation
/// per subscription, nothing per value.
@usableFromInline
class EndingRelaySubscriber<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    RelaySubscriber<Input, UpstreamFailure, Downstream>
{
    /// The operator's name, for `description`.
    @usableFromInline let name: StaticString
    /// The subscription the downstream was given (set once, in `receive(subscription:)`).
    @exclusivity(unchecked) @usableFromInline var downstreamSubscription: CancelTrackingSubscription?

    @inlinable
    init(downstream: Downstream, name: StaticString) {
        self.name = name
        super.init(downstream: downstream)
    }

    @usableFromInline override var description: String { "\(name)" }

    @inlinable
    override func subscriptionForDownstream(_ subscription: Subscription) -> Subscription {
        let tracking = CancelTrackingSubscription(subscription, name: name)
        downstreamSubscription = tracking
        return tracking
    }

    /// Sends `value` downstream, then ends the stream: cancels the upstream and sends
    /// `.finished`, unless the downstream cancelled while it received the value.
    @inlinable
    final func sendLast(_ value: Downstream.Input) {
        guard downstream != nil else { return }
        _ = forward(value)
        end()
    }

    /// Ends the stream now: cancels the upstream and sends `.finished`; if the downstream has
    /// already cancelled, only lets go of both.
    @inlinable
    final func end() {
        if downstreamSubscription?.isCancelled ?? false {
            upstream = nil
            downstream = nil
            return
        }
        finish(.finished)
    }
}

/// The downstream's subscription for an ``EndingRelaySubscriber``: passes `request` and `cancel`
/// straight to the upstream subscription and remembers, in an atomic flag, that the downstream
/// cancelled. It keeps no other state, so it needs no lock.
@usableFromInline
final class CancelTrackingSubscription: Subscription, CustomStringConvertible {
    @usableFromInline let upstream: Subscription
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @usableFromInline let name: StaticString

    @inlinable
    init(_ upstream: Subscription, name: StaticString) {
        self.upstream = upstream
        self.name = name
    }

    /// Whether the downstream has called `cancel()`.
    @inlinable var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        upstream.cancel()
    }

    @usableFromInline var description: String { "\(name)" }
}
