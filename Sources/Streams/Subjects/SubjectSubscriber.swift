// Engine: none. The whole subscriber is in this file.

/// The subscriber behind `Publisher.subscribe(_ subject:)`: an object of its own between the
/// upstream and the subject, as Combine's (its description is `"Subject"`).
///
/// It holds the subject weakly, as Combine's does: a subscription into a subject (a connected
/// `multicast`, say) does not keep the subject alive on its own; the subject's own subscribers
/// do, and once the subject is gone, what the upstream sends is dropped.
///
/// It gives the subject itself as the upstream subscription (`send(subscription: self)`), so the
/// subject's requests (a PassthroughSubject asks for `.unlimited` once one of its subscribers has
/// demand) reach the upstream through it, and values and the completion go into the subject.
/// A value or completion before the upstream's subscription or after the end (completion or
/// cancel) is ignored, and a second subscription is cancelled ([S2]). Cancelling it cancels the
/// upstream and lets the subject forget it.
///
/// [S2]: doc:/Contract/StreamContract#S2
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // subject and upstream are guarded by `lock`
{
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    /// `nil` once the stream has ended (completed or cancelled), or once nothing else holds the
    /// subject.
    private weak var subject: Downstream?
    /// `nil` before the upstream's subscription and after the end.
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
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard upstream != nil, let subject = self.subject else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        subject.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard upstream != nil, let subject = self.subject else {
            lock.unlock()
            return
        }
        self.subject = nil
        upstream = nil
        lock.unlock()
        subject.send(completion: completion)
    }

    /// The subject's request, passed to the upstream.
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream?.request(demand)
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
        (subject as? any UpstreamForgetting)?.forgetUpstream(self)
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
