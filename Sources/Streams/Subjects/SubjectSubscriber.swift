/// The subscriber behind `Publisher.subscribe(_ subject:)`: forwards the subscription, values and
/// completion into a subject, and cancels the upstream when cancelled.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable  // subject and upstream are guarded by `lock`
{
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var subject: Downstream?
    private var upstream: Subscription?

    init(_ subject: Downstream) {
        self.subject = subject
    }

    var description: String { "Subject" }

    func receive(subscription: Subscription) {
        lock.lock()
        guard let subject, upstream == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        subject.send(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let subject = self.subject
        lock.unlock()
        subject?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let subject = self.subject
        self.subject = nil
        upstream = nil
        lock.unlock()
        subject?.send(completion: completion)
    }

    func cancel() {
        lock.lock()
        let upstream = self.upstream
        let subject = self.subject
        self.subject = nil
        self.upstream = nil
        lock.unlock()
        guard let upstream else { return }
        upstream.cancel()
        (subject as? any UpstreamForgetting)?.forgetUpstream(upstream)
    }
}

/// A subject of this library, which keeps the upstream subscriptions it is given (as Combine's
/// do) and can let go of one that was cancelled.
protocol UpstreamForgetting {
    func forgetUpstream(_ subscription: Subscription)
}

extension PassthroughSubject: UpstreamForgetting {
    func forgetUpstream(_ subscription: Subscription) { core.forgetUpstream(subscription) }
}

extension CurrentValueSubject: UpstreamForgetting {
    func forgetUpstream(_ subscription: Subscription) { core.forgetUpstream(subscription) }
}
