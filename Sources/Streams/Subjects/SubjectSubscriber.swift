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
        subject = nil
        self.upstream = nil
        lock.unlock()
        upstream?.cancel()
    }
}
