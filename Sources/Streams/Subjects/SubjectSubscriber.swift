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
    @unchecked Sendable  // every `var` is guarded by `lock`
{
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    /// `nil` once the stream has ended (completed or cancelled), or once nothing else holds the
    /// subject.
    private weak var subject: Downstream?
    /// The upstream's subscription while `holdsUpstream`, else a `NoSubscription`
    /// (Engines/NoSubscription.swift).
    private var upstream: any Subscription = NoSubscription()
    /// From the upstream's subscription until the end (completion or cancel).
    private var holdsUpstream = false

    init(_ subject: Downstream) {
        self.subject = subject
    }

    var description: String { "Subject" }

    func receive(subscription: Subscription) {
        lock.lock()
        // Once over, `subject` is `nil`: a late subscription is cancelled too (S2).
        guard let subject, !holdsUpstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        holdsUpstream = true
        NoSubscription.hold(subscription, in: &upstream)
        lock.unlock()
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard holdsUpstream, let subject = self.subject else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        subject.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard holdsUpstream, let subject = self.subject else {
            lock.unlock()
            return
        }
        self.subject = nil
        holdsUpstream = false
        let finished = NoSubscription.take(from: &upstream)
        lock.unlock()
        keepAlive(finished)  // let go of after unlocking
        subject.send(completion: completion)
    }

    /// The subject's request, passed to the upstream.
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        lock.lock()
        let heldUpstream = holdsUpstream
        holdsUpstream = false
        let upstream = NoSubscription.take(from: &self.upstream)
        let subject = self.subject
        self.subject = nil
        lock.unlock()
        guard heldUpstream else { return }
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
