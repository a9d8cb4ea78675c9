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
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream: Subscription?

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
        downstream.receive(subscription: subscription)
        didSubscribe(subscription)
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
