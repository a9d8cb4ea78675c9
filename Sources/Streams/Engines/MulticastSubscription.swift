import Synchronization

// The two ends of a subject shared by several subscribers: the mechanics of `multicast` and
// `share()`.
//
// - ``MulticastSubscription`` stands between the subject and one subscriber. The subscriber sees
//   it, not the subject's own subscription (Combine describes it as "Multicast"). It passes
//   requests and `cancel()` to the subject's subscription and values down, one at a time, as the
//   subject serializes them (S3).
// - ``ShareFeed`` stands between the upstream and the subject for `share()`: it feeds the
//   upstream's signals into the subject, passes the subject's request up, and is the connection
//   that the last subscriber's departure cancels. (`multicast`'s `connect()` subscribes the
//   subject itself.)
//
// Locking: each has one `lock` guarding its subscription references, never held while calling
// out. A value passes `MulticastSubscription` with no lock: its downstream never changes, and
// whether it is done is an atomic flag. `ShareFeed` takes its lock once per value, to read the
// subject (which its completion or cancel lets go).
/// A subscriber's subscription to ``Publishers/Multicast`` (and `share()`): it subscribes to the
/// subject for the downstream and gives the downstream itself, described as `"Multicast"` as in
/// Combine. Requests and `cancel()` go to the subject's subscription; values and the completion
/// come from the subject, one at a time ([S3]).
///
/// A value takes no lock: `downstream` never changes, and `isDone` is an atomic flag. The
/// downstream is released with this object, which the subject lets go of when it is cancelled
/// or finished ([S7]).
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
@usableFromInline
final class MulticastSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // `subjectSubscription` and `isSubscribed` are guarded by `lock`; `isDone` is atomic
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let lock = Lock()
    /// The subject's subscription once `isSubscribed` and until the end (`isDone`), else a
    /// ``NoSubscription`` (NoSubscription.swift).
    @usableFromInline var subjectSubscription: any Subscription = NoSubscription()
    /// Whether the subject's subscription has arrived (a second one is cancelled).
    @usableFromInline var isSubscribed = false
    /// Completed or cancelled: nothing more goes downstream.
    @usableFromInline let isDone = Atomic<Bool>(false)

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline var description: String { "Multicast" }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isSubscribed, !isDone.load(ordering: .relaxed) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        isSubscribed = true
        NoSubscription.hold(subscription, in: &subjectSubscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if isDone.load(ordering: .relaxed) { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        if isDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        lock.lock()
        let finished = NoSubscription.take(from: &subjectSubscription)
        lock.unlock()
        keepAlive(finished)
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let subscription = subjectSubscription
        lock.unlock()
        // The subject's rules apply, `request(.none)` included (S9).
        subscription.request(demand)
    }

    @inlinable
    func cancel() {
        if isDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        lock.lock()
        let subscription = NoSubscription.take(from: &subjectSubscription)
        lock.unlock()
        subscription.cancel()
    }
}

/// Feeds the upstream's values and completion into the shared subject, and is the connection
/// that the last subscriber's departure cancels.
///
/// It gives itself to the subject as the upstream subscription, so the subject's request (for
/// `.unlimited`, once one of its subscribers has demand) reaches the upstream through it, as in
/// Combine. Its cancel makes the subject forget it, so a share connected and disconnected many
/// times leaves nothing behind. A value or completion before the upstream's subscription or
/// after the end is ignored ([S2]). Cancel and completion let go of the subject and the upstream
/// subscription ([S7]).
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S7]: doc:/Contract/StreamContract#S7
@usableFromInline
final class ShareFeed<Input, Failure: Error>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // every `var` is guarded by `lock`
{
    @usableFromInline let lock = Lock()
    /// `nil` once completed or cancelled.
    @usableFromInline var subject: PassthroughSubject<Input, Failure>?
    /// The upstream's subscription once `isSubscribed` and until the end (`subject` is `nil`),
    /// else a ``NoSubscription`` (NoSubscription.swift).
    @usableFromInline var upstream: any Subscription = NoSubscription()
    /// Whether the upstream's subscription has arrived (a second one is cancelled).
    @usableFromInline var isSubscribed = false

    @usableFromInline
    init(_ subject: PassthroughSubject<Input, Failure>) {
        self.subject = subject
    }

    @usableFromInline var description: String { "Share" }

    @usableFromInline
    func receive(subscription: any Subscription) {
        lock.lock()
        guard subject != nil, !isSubscribed else {
            lock.unlock()
            subscription.cancel()
            return
        }
        isSubscribed = true
        NoSubscription.hold(subscription, in: &upstream)
        let subject = self.subject
        lock.unlock()
        // The subject asks through `request(_:)` once one of its subscribers has demand.
        subject?.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // S2: nothing before the upstream's subscription or after the end.
        guard isSubscribed, let subject = self.subject else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        subject.send(input)
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard isSubscribed, let subject = self.subject.take() else {
            lock.unlock()
            return
        }
        let finished = NoSubscription.take(from: &upstream)
        lock.unlock()
        keepAlive(finished)
        subject.send(completion: completion)
    }

    /// The subject's request, passed to the upstream.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream.request(demand)
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        let subject = self.subject.take()
        let upstream = NoSubscription.take(from: &self.upstream)
        let wasSubscribed = isSubscribed
        lock.unlock()
        guard wasSubscribed, let subject else { return }
        upstream.cancel()
        subject.core.forgetUpstream(self)
    }
}
