import Synchronization

// The structure of the per-value operators that keep state or can end a stream themselves
// (`dropFirst`, `drop(while:)`, `prefix(while:)`, `removeDuplicates`, `first`, `output(in:)`,
// `encode`/`decode`, `measureInterval` and every `try` operator). As in Combine, the downstream
// gets a subscription of the operator's own, which `print()` shows by name (`Drop`, `TryMap`,
// ...). It is two objects:
//
// - ``RelaySubscription`` is what the downstream holds: the phase, the upstream's subscription
//   and the demand, behind a lock. It never holds the downstream (except while an answer waits
//   for demand), so a subscriber that keeps its subscription after cancelling it is not kept
//   alive by it (S7).
// - ``RelaySubscriber`` is what the upstream holds, and the base class of each operator: the
//   downstream, the operator's closures and per-value state, touched only from the upstream's
//   serialized signals (S3), with no lock. It is let go, with all it holds, when the upstream
//   lets go of it, which a well-behaved upstream does at its completion or when cancelled.
//
// Phases (in ``RelaySubscription``): `awaitingSubscription` → `handingOver` (the downstream is
// receiving its subscription; its requests are added up) → `live` → `ended`. An operator that
// answers with its completion (`first`) goes through `holding` (the answer, or a bare
// `.finished`, waits for demand, S5) and `delivering` instead. `ended` is final: completion,
// failure, the operator's own end, or `cancel()`.
//
// Cost: one `Lock` and two objects per subscription. The lock is taken at the subscription, at
// the end, and by `request` and `cancel`, never while calling out. A value takes no lock: one
// atomic load of ``RelaySubscription/live`` (true exactly while the phase is `live`), the
// operator's work, and the call to the downstream, moved out of its stored property and back
// rather than retained (``RelaySubscriber/forward(_:)``). No allocation per value.

/// The subscription the downstream of a ``RelaySubscriber`` receives; see the comment at the
/// top of this file.
///
/// - Requests made while the downstream receives it are added up and sent to the upstream in one
///   request right after, with the operator's `upFrontDemand` (`dropFirst(n)` asks for the `n`
///   values it drops, `first` for `.unlimited`, as in Combine). Later requests go straight to the
///   upstream while live, unless `.unlimited` was asked up front. `request(.none)` is never
///   passed on: it is ignored, or reported (S9) where Combine traps.
/// - After the end, requests and cancels are swallowed; the upstream is cancelled at most once,
///   and not at all once it has completed. After `cancel()` returns, nothing more reaches the
///   downstream, even from an upstream that keeps sending (S6); only a value the upstream was
///   already delivering on another thread at that moment may still arrive.
@usableFromInline
final class RelaySubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable  // `phase`, `upstream`, `pending`, `demanded`, `holder`: guarded by `lock`; `live`: atomic
{
    @usableFromInline
    enum Phase {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// The downstream is receiving this subscription; its requests are added up.
        case handingOver
        /// Values flow.
        case live
        /// The upstream's part is over; the answer (`nil`: only `.finished`) waits for demand.
        case holding(Downstream.Input?)
        /// The held answer is being delivered; a `cancel()` now stops the `.finished` after it.
        case delivering
        /// Completed, failed, ended by the operator, or cancelled.
        case ended
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var phase = Phase.awaitingSubscription
    /// The upstream's subscription, from `handingOver` until the end.
    @usableFromInline var upstream: (any Subscription)?
    /// What the downstream asked for while receiving this subscription.
    @usableFromInline var pending = Subscribers.Demand.none
    /// Whether the downstream has asked for anything (an answer waits until it has).
    @usableFromInline var demanded = false
    /// The downstream, only while an answer waits for demand: the upstream's part is over, so
    /// the subscriber has handed it over.
    @usableFromInline var holder: Downstream?
    /// `true` exactly while the phase is `live`: what the per-value path reads.
    @usableFromInline let live = Atomic<Bool>(false)
    /// Combine's name for this subscription.
    @usableFromInline let name: StaticString
    /// Asked of the upstream once the downstream has this subscription, on top of what it asked
    /// for meanwhile. With `.unlimited`, later requests are not passed on.
    @usableFromInline let upFrontDemand: Subscribers.Demand
    /// Whether `request(.none)` is reported as a violation of S9 (Combine traps) or ignored.
    @usableFromInline let reportsNoneRequests: Bool

    @inlinable
    init(name: StaticString, upFrontDemand: Subscribers.Demand, reportsNoneRequests: Bool) {
        self.name = name
        self.upFrontDemand = upFrontDemand
        self.reportsNoneRequests = reportsNoneRequests
    }

    @usableFromInline var description: String { "\(name)" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none {
            if reportsNoneRequests { _ = demand.isValidRequest(of: "\(name)") }
            return
        }
        lock.lock()
        switch phase {
        case .handingOver:
            demanded = true
            pending += demand
            lock.unlock()
        case .live:
            demanded = true
            let upstream = upFrontDemand == .unlimited ? nil : self.upstream
            lock.unlock()
            upstream?.request(demand)
        case .holding(let answer):
            phase = .delivering
            let downstream = holder.take()
            lock.unlock()
            if let downstream { deliver(answer, to: downstream) }
        case .awaitingSubscription, .delivering, .ended:
            lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let previous = phase
        switch previous {
        case .handingOver, .live, .holding, .delivering:
            break
        case .awaitingSubscription, .ended:
            lock.unlock()
            return
        }
        phase = .ended
        live.store(false, ordering: .releasing)
        let upstream = self.upstream.take()
        let holder = self.holder.take()
        lock.unlock()
        upstream?.cancel()
        _ = (holder, previous)  // a held answer and the downstream are let go of after unlocking (S7)
    }

    /// Ends the live phase with the lock held: the caller unlocks, then cancels or lets go of
    /// the returned upstream subscription.
    @inlinable
    func endLocked(_ next: Phase) -> (any Subscription)? {
        phase = next
        live.store(false, ordering: .releasing)
        return upstream.take()
    }

    /// Sends a held answer (if any), then `.finished` unless `cancel()` came meanwhile.
    @inlinable
    func deliver(_ answer: Downstream.Input?, to downstream: Downstream) {
        if let answer { _ = downstream.receive(answer) }
        lock.lock()
        let cancelled = if case .delivering = phase { false } else { true }
        phase = .ended
        lock.unlock()
        if !cancelled { downstream.receive(completion: .finished) }
    }
}

/// The subscriber to the upstream of the relay operators, and their base class; see the comment
/// at the top of this file.
///
/// A value or completion that arrives before the subscription or after the end is ignored, and
/// a second subscription is cancelled (S2). The downstream is let go at the completion, at the
/// operator's own end, after a `cancel()` made while it received a value, and otherwise with
/// this object when the upstream lets go of it (S7).
///
/// Subclasses override `receive(_:)`, starting with `guard isLive else { return .none }`, and
/// may override ``complete(_:)`` and ``willHandOver()``.
@usableFromInline
class RelaySubscriber<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = UpstreamFailure

    /// What the downstream receives.
    @usableFromInline let subscription: RelaySubscription<Downstream>
    // Only the upstream's serialized signals touch it (S3), never two at once. `final`: the
    // per-value path reads and writes it directly, not through a class accessor (an accessor
    // looked up the generic metadata on every value: W4 6.9x instead of 10.2x a plain loop).
    @exclusivity(unchecked) @usableFromInline final var downstream: Downstream?
    /// A completion that came while the downstream was still receiving its subscription, sent
    /// right after (S3). Guarded by `subscription.lock`.
    @usableFromInline final var waitingCompletion: Subscribers.Completion<UpstreamFailure>?
    /// Whether an upstream `.finished` waits for demand, as the answer does (S5: `first`).
    @usableFromInline let answersOnCompletion: Bool

    @inlinable
    init(
        downstream: Downstream, name: StaticString, upFrontDemand: Subscribers.Demand = .none,
        reportsNoneRequests: Bool = false, answersOnCompletion: Bool = false
    ) {
        self.downstream = downstream
        self.subscription = RelaySubscription(
            name: name, upFrontDemand: upFrontDemand, reportsNoneRequests: reportsNoneRequests)
        self.answersOnCompletion = answersOnCompletion
    }

    @usableFromInline var description: String { subscription.description }

    /// Whether values flow: after the handover, before the end. One atomic load.
    @inlinable final var isLive: Bool { subscription.live.load(ordering: .acquiring) }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    final func receive(subscription upstream: any Subscription) {
        let subscription = self.subscription
        subscription.lock.lock()
        guard case .awaitingSubscription = subscription.phase, let downstream else {
            subscription.lock.unlock()
            upstream.cancel()
            return
        }
        subscription.phase = .handingOver
        subscription.upstream = upstream
        subscription.lock.unlock()
        willHandOver()
        downstream.receive(subscription: subscription)
        subscription.lock.lock()
        guard case .handingOver = subscription.phase else {
            // Cancelled while receiving the subscription.
            subscription.lock.unlock()
            self.downstream = nil
            return
        }
        subscription.phase = .live
        subscription.live.store(true, ordering: .releasing)
        if let completion = waitingCompletion.take() {
            subscription.lock.unlock()
            receive(completion: completion)
            return
        }
        let demand = subscription.pending + subscription.upFrontDemand
        subscription.pending = .none
        subscription.lock.unlock()
        if demand != .none { upstream.request(demand) }
    }

    /// Called on the upstream's thread just before the downstream receives its subscription.
    @inlinable
    func willHandOver() {}

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        fatalError("abstract")
    }

    @inlinable
    final func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let subscription = self.subscription
        subscription.lock.lock()
        switch subscription.phase {
        case .live:
            break
        case .handingOver:
            if waitingCompletion == nil { waitingCompletion = completion }
            subscription.lock.unlock()
            return
        default:
            subscription.lock.unlock()
            return
        }
        if answersOnCompletion, !subscription.demanded, case .finished = completion {
            let upstream = subscription.endLocked(.holding(nil))
            subscription.holder = downstream.take()
            subscription.lock.unlock()
            _ = upstream
            return
        }
        let upstream = subscription.endLocked(.ended)
        subscription.lock.unlock()
        _ = upstream  // let go of after unlocking
        complete(completion)
    }

    /// Passes the upstream's completion on (the stream has ended). The default sends a failure
    /// as the downstream's failure type (the same type, or `any Error`).
    @inlinable
    func complete(_ completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished:
            sendCompletion(.finished)
        case .failure(let error):
            sendCompletion(.failure(error as! Downstream.Failure))
        }
    }

    // MARK: For subclasses (on the upstream's thread)

    /// Sends `input` downstream and returns the demand it gives back.
    ///
    /// The downstream is moved out for the call and back in after it rather than copied, which
    /// would retain and release it for every value. Safe because only the upstream's signals
    /// touch it while live, and they never overlap or nest (S3). If the downstream cancelled
    /// while it received `input`, it is let go of here (S7) instead of being put back.
    @inlinable
    final func forward(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = self.downstream.take() else { return .none }
        let demand = downstream.receive(input)
        if isLive { self.downstream = consume downstream }
        return demand
    }

    /// Ends the stream early (S14, S15): cancels the upstream and sends `completion`, unless the
    /// stream has already ended (then only lets go of the downstream).
    @inlinable
    final func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let subscription = self.subscription
        subscription.lock.lock()
        guard case .live = subscription.phase else {
            subscription.lock.unlock()
            downstream = nil  // cancelled meanwhile: nothing is delivered (S6)
            return
        }
        let upstream = subscription.endLocked(.ended)
        subscription.lock.unlock()
        upstream?.cancel()
        sendCompletion(completion)
    }

    /// Sends `value` downstream, then ends the stream with `.finished` (cancelling the upstream),
    /// unless the downstream cancelled while it received the value.
    @inlinable
    final func sendLast(_ value: Downstream.Input) {
        _ = forward(value)
        finish(.finished)
    }

    /// Ends the upstream's part with an answer (S15): cancels the upstream, and sends `value` and
    /// `.finished` once the downstream has asked for something, which may be now.
    @inlinable
    final func answer(_ value: Downstream.Input) {
        let subscription = self.subscription
        subscription.lock.lock()
        guard case .live = subscription.phase else {
            subscription.lock.unlock()
            return
        }
        if !subscription.demanded {
            let upstream = subscription.endLocked(.holding(value))
            subscription.holder = downstream.take()
            subscription.lock.unlock()
            upstream?.cancel()
            return
        }
        let upstream = subscription.endLocked(.delivering)
        subscription.lock.unlock()
        upstream?.cancel()
        if let downstream = downstream.take() { subscription.deliver(value, to: downstream) }
    }

    /// Sends `completion` downstream and lets go of the downstream.
    @inlinable
    final func sendCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let downstream = self.downstream.take() else { return }
        downstream.receive(completion: completion)
    }
}
