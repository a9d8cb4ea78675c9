import Synchronization

/// Base of the per-value operators that keep state or can end a stream themselves (`dropFirst`,
/// `drop(while:)`, `prefix(while:)`, `removeDuplicates`, `first`, `output(in:)`, `encode`,
/// `measureInterval` and every `try` operator): the subscriber to the upstream *and* the
/// subscription the downstream receives, as in Combine, where `print()` shows it by name.
///
/// ## Phases
///
/// `awaitingSubscription` → `handingOver` (the downstream is receiving this subscription) →
/// `live` → `ended`; an operator that answers with its completion (`first`) passes through
/// `holding` (the upstream's part is over, the answer or `.finished` waits for demand, S5) and
/// `delivering` instead. `ended` is final: a completion, a failure, the operator's own end, or
/// `cancel()`.
///
/// ## Locking and what the per-value path costs
///
/// The phase, the upstream subscription and the demand asked for while handing over sit behind
/// `lock`, taken by `receive(subscription:)`, `receive(completion:)`, `request`, `cancel` and an
/// early end, never while calling out. A value takes no lock: the path is one atomic load of
/// ``isLive`` (set once the handover is done, cleared when the stream ends), the operator's own
/// work, and the call to the downstream, which is moved out of its stored property and back
/// rather than retained (``forward(_:)``). No allocation per value; one lock per subscription.
///
/// The downstream and the subclasses' state (counters, predicates' progress) belong to the
/// upstream's signals, which never overlap (S3): only those touch them, with no lock, until the
/// upstream's part is over. A held answer passes the downstream to whoever leaves `holding`
/// under the lock.
///
/// ## What it guarantees
///
/// - Requests made while the downstream receives its subscription are added up and sent to the
///   upstream in one request after it, together with the operator's ``upFrontDemand``
///   (`dropFirst(n)` asks for the `n` values it drops, `first` for `.unlimited`, as Combine).
///   Later requests go straight to the upstream while live (unless `.unlimited` was asked up
///   front); `request(.none)` is never passed on: ignored, or reported (S9) where Combine traps.
/// - After the end, requests and cancels are swallowed; the upstream is cancelled at most once,
///   and not at all when it completed.
/// - A value or completion that arrives before the subscription or after the end is ignored,
///   and a second subscription is cancelled (S2). After `cancel()` returns, nothing more
///   reaches the downstream even if the upstream keeps sending (S6); a value the upstream was
///   already delivering on another thread at that moment may still arrive.
/// - The upstream subscription is let go at the end (S7). The downstream is let go at a
///   completion or the operator's own end, after a `cancel()` made while it received a value,
///   and otherwise after a `cancel()` as soon as the upstream lets go of this object, which a
///   well-behaved upstream does when cancelled. Letting go of it on `cancel()`'s own thread
///   would race a value being delivered, and ruling that out would cost an atomic
///   read-modify-write per value. So, as in Combine, a subscriber that keeps its subscription
///   after cancelling it keeps itself alive through it until it lets go. Subclasses keep their
///   closures in `let`s for the same reason: they go with this object.
///
/// Subclasses override `receive(_:)`, starting with `guard isLive else { return .none }`, and
/// may override ``complete(_:)`` and ``willHandOver()``.
@usableFromInline
class RelaySubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable  // `phase`, `upstream`, `pending`, `demanded`, `waitingCompletion`: guarded by `lock`;
                         // `downstream`: the upstream's serialized signals (see above); `live`: atomic
{
    @usableFromInline typealias Failure = UpstreamFailure

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
    /// What the downstream asked for while receiving its subscription.
    @usableFromInline var pending = Subscribers.Demand.none
    /// Whether the downstream has asked for anything (an answer waits until it has).
    @usableFromInline var demanded = false
    /// A completion that came while the downstream was still receiving its subscription (S3).
    @usableFromInline var waitingCompletion: Subscribers.Completion<UpstreamFailure>?
    /// `true` exactly while the phase is `live`: what the per-value path reads.
    @usableFromInline let live = Atomic<Bool>(false)
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// Combine's name for this subscription, for `description`.
    @usableFromInline let name: StaticString
    /// What is asked of the upstream once the downstream has its subscription, on top of what
    /// the downstream asked for meanwhile. With `.unlimited`, later requests are not passed on.
    @usableFromInline let upFrontDemand: Subscribers.Demand
    /// Whether `request(.none)` is reported as a violation of S9 (Combine traps) or ignored.
    @usableFromInline let reportsNoneRequests: Bool
    /// Whether an upstream `.finished` waits for demand, as the answer does (S5: `first`).
    @usableFromInline let answersOnCompletion: Bool

    @inlinable
    init(
        downstream: Downstream, name: StaticString, upFrontDemand: Subscribers.Demand = .none,
        reportsNoneRequests: Bool = false, answersOnCompletion: Bool = false
    ) {
        self.downstream = downstream
        self.name = name
        self.upFrontDemand = upFrontDemand
        self.reportsNoneRequests = reportsNoneRequests
        self.answersOnCompletion = answersOnCompletion
    }

    @usableFromInline var description: String { "\(name)" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    /// Whether values flow: after the handover, before the end. One atomic load.
    @inlinable final var isLive: Bool { live.load(ordering: .acquiring) }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    final func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = phase, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase = .handingOver
        upstream = subscription
        lock.unlock()
        willHandOver()
        downstream.receive(subscription: self)
        lock.lock()
        guard case .handingOver = phase else {
            // Cancelled while receiving the subscription.
            lock.unlock()
            self.downstream = nil
            return
        }
        phase = .live
        live.store(true, ordering: .releasing)
        if let completion = waitingCompletion.take() {
            lock.unlock()
            receive(completion: completion)
            return
        }
        let demand = pending + upFrontDemand
        pending = .none
        lock.unlock()
        if demand != .none { subscription.request(demand) }
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
        lock.lock()
        switch phase {
        case .live:
            break
        case .handingOver:
            if waitingCompletion == nil { waitingCompletion = completion }
            lock.unlock()
            return
        default:
            lock.unlock()
            return
        }
        live.store(false, ordering: .releasing)
        let upstream = self.upstream.take()
        if answersOnCompletion, !demanded, case .finished = completion {
            phase = .holding(nil)
            lock.unlock()
            _ = upstream
            return
        }
        phase = .ended
        lock.unlock()
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

    // MARK: Subscription (the downstream's calls)

    @inlinable
    final func request(_ demand: Subscribers.Demand) {
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
            let downstream = self.downstream.take()
            lock.unlock()
            deliver(answer, to: downstream)
        case .awaitingSubscription, .delivering, .ended:
            lock.unlock()
        }
    }

    @inlinable
    final func cancel() {
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
        waitingCompletion = nil
        // A held answer has no upstream left to deliver it: the downstream is free to let go.
        let downstream = if case .holding = previous { self.downstream.take() } else { Downstream?.none }
        lock.unlock()
        upstream?.cancel()
        _ = downstream  // let go of, with a held answer, after unlocking (S7)
    }

    // MARK: For subclasses (on the upstream's thread)

    /// Sends `input` downstream and returns the demand it gives back.
    ///
    /// The downstream is moved out for the call and back in after it rather than copied, which
    /// would retain and release it for every value. Safe because only the upstream's signals
    /// touch it while live, and they never overlap or nest (S3).
    ///
    /// If the downstream cancelled while it received `input`, it is let go of here (S7) instead
    /// of being put back: one more atomic load.
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
        lock.lock()
        guard case .live = phase else {
            lock.unlock()
            downstream = nil  // cancelled meanwhile: nothing is delivered (S6)
            return
        }
        phase = .ended
        live.store(false, ordering: .releasing)
        let upstream = self.upstream.take()
        lock.unlock()
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

    /// Ends the upstream's part with an answer (S15): cancels the upstream and sends `value` and
    /// `.finished` once the downstream has asked for something, which may be now.
    @inlinable
    final func answer(_ value: Downstream.Input) {
        lock.lock()
        guard case .live = phase else {
            lock.unlock()
            return
        }
        live.store(false, ordering: .releasing)
        let upstream = self.upstream.take()
        if !demanded {
            phase = .holding(value)
            lock.unlock()
            upstream?.cancel()
            return
        }
        phase = .delivering
        lock.unlock()
        upstream?.cancel()
        deliver(value, to: downstream.take())
    }

    /// Sends `completion` downstream and lets go of the downstream.
    @inlinable
    final func sendCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let downstream = self.downstream.take() else { return }
        downstream.receive(completion: completion)
    }

    /// Sends a held answer (if any), then `.finished` unless `cancel()` came meanwhile.
    @inlinable
    final func deliver(_ answer: Downstream.Input?, to downstream: Downstream?) {
        guard let downstream else { return }
        if let answer { _ = downstream.receive(answer) }
        lock.lock()
        let cancelled = if case .delivering = phase { false } else { true }
        phase = .ended
        lock.unlock()
        if !cancelled { downstream.receive(completion: .finished) }
    }
}
