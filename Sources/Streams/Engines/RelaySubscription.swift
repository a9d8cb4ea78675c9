import Synchronization

// The engine of the per-value operators that keep state or can end a stream themselves
// (`dropFirst`, `drop(while:)`, `prefix(while:)`, `output(in:)`, `removeDuplicates`,
// `encode`/`decode`, `measureInterval` and the `try` operators). As in Combine, the downstream
// gets a subscription of the operator's own, which `print()` shows by name (`Drop`, `TryMap`,
// ...). It is two objects:
//
// - ``RelaySubscription`` is what the downstream holds: the phase, the upstream's subscription
//   and the demand asked for during the handover, behind one `Lock`. It never holds the
//   downstream, so a subscriber that keeps its subscription after cancelling it is not kept
//   alive by it (S7).
// - ``RelaySubscriber`` is what the upstream holds, and the base class of each operator: the
//   downstream, the operator's closures and per-value state, touched only from the upstream's
//   serialized signals (S3), with no lock. It is let go, with all it holds, when the upstream
//   lets go of it, which a well-behaved upstream does at its completion or when cancelled.
//   Most operators do not subclass it themselves: they give a ``RelayStep`` (what one value
//   becomes) to ``StepRelaySubscriber``.
//
// State machine (``RelaySubscription/Phase``, under the lock):
//
//     awaitingSubscription --upstream's subscription--> handingOver --downstream has it--> live
//     handingOver, live --completion, failure, the operator's own end, cancel()--> ended
//
// While `handingOver` the downstream's requests are added up and go to the upstream in one
// request after it (with the operator's up-front demand), and a completion waits for the end
// of the handover (S3). (Combine passes such a request on at once; holding it means that no
// value can reach the downstream from another thread while it is still receiving its
// subscription.) `ended` is final.
//
// An operator that hands the downstream its subscription before subscribing to the upstream,
// as Combine's `dropFirst` does (``RelaySubscriber/handOverThenSubscribe(to:)``), goes
//
//     handingOver --downstream has it--> awaitingUpstream --upstream's subscription--> live
//     handingOver, awaitingUpstream --cancel()--> ended
//
// and its requests are added up until the upstream's subscription arrives, then asked for in
// one request with the up-front demand. An upstream subscription that arrives after a cancel
// is cancelled.
//
// Locking: the lock is taken at the subscription, at the end, and by `request` and `cancel`,
// never while calling out. A value takes no lock: one atomic load of
// ``RelaySubscription/live`` (true exactly while the phase is `live`), the operator's work, and
// the call to the downstream.
//
// Performance: the downstream is a `final` stored property with `@exclusivity(unchecked)`, and
// ``RelaySubscriber/forward(_:)`` moves it out for the call and back rather than copying it:
// no retain/release, no exclusivity check and no class-accessor call per value (only the
// upstream's serialized signals touch it, S3); it puts it back by initializing the field over
// the `nil` the take left, which skips a release of that `nil` per value. The step of a ``StepRelaySubscriber`` is
// `@exclusivity(unchecked)` for the same reason. See Docs/Performance.md for the measured gains.

/// The subscription the downstream of a ``RelaySubscriber`` receives; see the comment at the
/// top of this file.
///
/// - Requests made while the downstream receives it (and, for an operator that hands it over
///   first, until the upstream's subscription arrives) are added up and sent to the upstream in
///   one request right after, with the operator's `upFrontDemand` (`dropFirst(n)` asks for the
///   `n` values it drops, as in Combine). Later requests go straight to the
///   upstream while live, unless `.unlimited` was asked up front. `request(.none)` is never
///   passed on: it is ignored, or reported ([S9]) where Combine traps.
/// - After the end, requests and cancels are swallowed; the upstream is cancelled at most once,
///   and not at all once it has completed. After `cancel()` returns, nothing more reaches the
///   downstream, even from an upstream that keeps sending ([S6]); only a value the upstream was
///   already delivering on another thread at that moment may still arrive.
///
/// [S6]: doc:/Contract/StreamContract#S6
/// [S9]: doc:/Contract/StreamContract#S9
@usableFromInline
final class RelaySubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable  // `phase`, `upstream`, `pending`: guarded by `lock`; `live`: atomic
{
    @usableFromInline
    enum Phase {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// The downstream is receiving this subscription; its requests are added up.
        case handingOver
        /// The downstream has this subscription, the upstream has not sent its own yet (an
        /// operator that hands over first); requests are added up.
        case awaitingUpstream
        /// Values flow.
        case live
        /// Completed, failed, ended by the operator, or cancelled.
        case ended
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var phase = Phase.awaitingSubscription
    /// The upstream's subscription from `handingOver` (or, handed over first, `live`) until the
    /// end, else a ``NoSubscription``: `phase` says which (NoSubscription.swift).
    @usableFromInline var upstream: any Subscription = NoSubscription()
    /// What the downstream asked for while receiving this subscription.
    @usableFromInline var pending = Subscribers.Demand.none
    /// `true` exactly while the phase is `live`: what the per-value path reads.
    @usableFromInline let live = Atomic<Bool>(false)
    /// Combine's name for this subscription.
    @usableFromInline let name: StaticString
    /// Asked of the upstream once the downstream has this subscription, on top of what it asked
    /// for meanwhile. With `.unlimited`, later requests are not passed on.
    @usableFromInline let upFrontDemand: Subscribers.Demand
    /// Whether `request(.none)` is reported as a violation of [S9] (Combine traps) or ignored.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
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
        case .handingOver, .awaitingUpstream:
            pending += demand
            lock.unlock()
        case .live:
            let upstream: any Subscription = upFrontDemand == .unlimited ? NoSubscription() : self.upstream
            lock.unlock()
            upstream.request(demand)
        case .awaitingSubscription, .ended:
            lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        switch phase {
        case .handingOver, .awaitingUpstream, .live:
            break
        case .awaitingSubscription, .ended:
            lock.unlock()
            return
        }
        let upstream = endLocked()
        lock.unlock()
        upstream.cancel()
    }

    /// Ends the stream with the lock held: the caller unlocks, then cancels or lets go of the
    /// returned upstream subscription (a ``NoSubscription`` if there was none).
    @inlinable
    func endLocked() -> any Subscription {
        phase = .ended
        live.store(false, ordering: .releasing)
        return NoSubscription.take(from: &upstream)
    }
}

/// The subscriber to the upstream of the relay operators, and their base class; see the comment
/// at the top of this file.
///
/// A value or completion that arrives before the subscription or after the end is ignored, and
/// a second subscription is cancelled ([S2]). The downstream is let go at the completion, at the
/// operator's own end, after a `cancel()` made while it received a value, and otherwise with
/// this object when the upstream lets go of it ([S7]).
///
/// Subclasses override `receive(_:)`, starting with `guard isLive else { return .none }`, and
/// may override ``complete(_:)`` and ``willHandOver()``; ``StepRelaySubscriber`` is the one
/// most operators use.
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S7]: doc:/Contract/StreamContract#S7
@usableFromInline
class RelaySubscriber<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = UpstreamFailure

    /// What the downstream receives.
    @usableFromInline let subscription: RelaySubscription<Downstream>
    /// The downstream, until the end. Only the upstream's serialized signals touch it ([S3]),
    /// never two at once.
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    @exclusivity(unchecked) @usableFromInline final var downstream: Downstream?
    /// A completion that came while the downstream was still receiving its subscription, sent
    /// right after ([S3]). Guarded by `subscription.lock`.
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    @usableFromInline final var waitingCompletion: Subscribers.Completion<UpstreamFailure>?

    @inlinable
    init(
        downstream: Downstream, name: StaticString, upFrontDemand: Subscribers.Demand = .none,
        reportsNoneRequests: Bool = false
    ) {
        self.downstream = downstream
        self.subscription = RelaySubscription(
            name: name, upFrontDemand: upFrontDemand, reportsNoneRequests: reportsNoneRequests)
    }

    @usableFromInline var description: String { subscription.description }

    /// Whether values flow: after the handover, before the end. One atomic load.
    @inlinable final var isLive: Bool { subscription.live.load(ordering: .acquiring) }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    final func receive(subscription upstream: any Subscription) {
        let subscription = self.subscription
        subscription.lock.lock()
        if case .awaitingUpstream = subscription.phase {
            // Handed over first: the downstream has its subscription and may have asked.
            subscription.phase = .live
            NoSubscription.hold(upstream, in: &subscription.upstream)
            subscription.live.store(true, ordering: .releasing)
            let demand = subscription.pending + subscription.upFrontDemand
            subscription.pending = .none
            subscription.lock.unlock()
            if demand != .none { upstream.request(demand) }
            return
        }
        guard case .awaitingSubscription = subscription.phase, let downstream else {
            // A second subscription, or one that comes after a cancel made before it: the
            // downstream is let go of in the latter case (S7).
            let isEnded = if case .ended = subscription.phase { true } else { false }
            subscription.lock.unlock()
            if isEnded { self.downstream = nil }
            upstream.cancel()
            return
        }
        subscription.phase = .handingOver
        NoSubscription.hold(upstream, in: &subscription.upstream)
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

    /// Gives the downstream its subscription, then subscribes to `upstream`: Combine's order for
    /// `dropFirst`. What the downstream asks for until the upstream's subscription arrives is
    /// added up and asked for then, with the up-front demand; after a cancel, the upstream's
    /// subscription is cancelled when it comes.
    @inlinable
    final func handOverThenSubscribe<Upstream: Publisher>(to upstream: Upstream)
    where Upstream.Output == Input, Upstream.Failure == UpstreamFailure {
        let subscription = self.subscription
        guard let downstream else { return }
        subscription.lock.lock()
        subscription.phase = .handingOver
        subscription.lock.unlock()
        willHandOver()
        downstream.receive(subscription: subscription)
        subscription.lock.lock()
        if case .handingOver = subscription.phase {
            subscription.phase = .awaitingUpstream
            subscription.lock.unlock()
        } else {
            // Cancelled while receiving the subscription. The upstream is subscribed all the
            // same, as in Combine; its subscription is cancelled when it comes.
            subscription.lock.unlock()
            self.downstream = nil
        }
        upstream.receive(subscriber: self)
    }

    /// Called just before the downstream receives its subscription: on the upstream's thread,
    /// or, for ``handOverThenSubscribe(to:)``, on the subscribing thread.
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
        let upstream = subscription.endLocked()
        subscription.lock.unlock()
        keepAlive(upstream)  // let go of after unlocking
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
    /// touch it while live, and they never overlap or nest ([S3]). If the downstream cancelled
    /// while it received `input`, it is let go of here ([S7]) instead of being put back.
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S7]: doc:/Contract/StreamContract#S7
    @inlinable @inline(__always)
    final func forward(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = self.downstream.take() else { return .none }
        let demand = downstream.receive(input)
        // The field is `nil` here (taken above; a signal nested in the call found it so and left
        // it so): put back by initializing over the `nil`, which skips releasing it.
        if isLive { withUnsafeMutablePointer(to: &self.downstream) { $0.initialize(to: downstream) } }
        return demand
    }

    /// Ends the stream early ([S14], [S15]): cancels the upstream and sends `completion`, unless the
    /// stream has already ended (then only lets go of the downstream).
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    final func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let subscription = self.subscription
        subscription.lock.lock()
        guard case .live = subscription.phase else {
            subscription.lock.unlock()
            downstream = nil  // cancelled meanwhile: nothing is delivered (S6)
            return
        }
        let upstream = subscription.endLocked()
        subscription.lock.unlock()
        upstream.cancel()
        sendCompletion(completion)
    }

    /// Sends `value` downstream, then ends the stream with `.finished` (cancelling the upstream),
    /// unless the downstream cancelled while it received the value.
    @inlinable
    final func sendLast(_ value: Downstream.Input) {
        _ = forward(value)
        finish(.finished)
    }

    /// Sends `completion` downstream and lets go of the downstream.
    @inlinable
    final func sendCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let downstream = self.downstream.take() else { return }
        downstream.receive(completion: completion)
    }
}

// MARK: - Steps

/// The part of a relay operator that is its own: what one upstream value becomes.
///
/// A step is a small struct: the user's closure, if the operator has one, and any per-value
/// state (how many values are left to drop, the running result of `tryScan`, ...). It lives in
/// a ``StepRelaySubscriber`` and only the upstream's serialized signals ([S3]) touch it, so it
/// needs no lock. The subscriber is generic over it, so each operator's step is specialized and
/// inlined into the per-value path.
///
/// [S3]: doc:/Contract/StreamContract#S3
@usableFromInline
protocol RelayStep {
    /// The upstream's values.
    associatedtype Input
    /// What the operator sends.
    associatedtype Output

    /// Takes in one upstream value and says what to do with it. A thrown error cancels the
    /// upstream and fails the stream ([S14]); only the `try` operators throw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    mutating func next(_ input: Input) throws -> RelayAction<Output>
}

/// What a ``RelayStep`` makes of one upstream value.
@usableFromInline
enum RelayAction<Output> {
    /// Send this value on; the downstream's demand goes back to the upstream.
    case send(Output)
    /// Send nothing, and ask the upstream for one more value in its place.
    case drop
    /// Send nothing and ask for nothing (the value was asked for up front, as by `dropFirst`).
    case ignore
    /// Send this value, then finish ([S15]): the upstream is cancelled.
    ///
    /// [S15]: doc:/Contract/StreamContract#S15
    case sendAndFinish(Output)
    /// Send nothing and finish ([S15]): the upstream is cancelled.
    ///
    /// [S15]: doc:/Contract/StreamContract#S15
    case finish
}

/// The relay subscriber of the operators whose own part is a ``RelayStep``.
@usableFromInline
final class StepRelaySubscriber<Step: RelayStep, UpstreamFailure: Error, Downstream: Subscriber>:
    RelaySubscriber<Step.Input, UpstreamFailure, Downstream>
where Downstream.Input == Step.Output {
    /// Touched only by the upstream's serialized signals ([S3]).
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    @exclusivity(unchecked) @usableFromInline final var step: Step

    @inlinable
    init(
        downstream: Downstream, step: Step, name: StaticString, upFrontDemand: Subscribers.Demand,
        reportsNoneRequests: Bool
    ) {
        self.step = step
        super.init(
            downstream: downstream, name: name, upFrontDemand: upFrontDemand, reportsNoneRequests: reportsNoneRequests)
    }

    @inlinable
    override func receive(_ input: Step.Input) -> Subscribers.Demand {
        guard isLive else { return .none }
        do {
            switch try step.next(input) {
            case .send(let output):
                return forward(output)
            case .drop:
                return .max(1)
            case .ignore:
                return .none
            case .sendAndFinish(let output):
                sendLast(output)
            case .finish:
                finish(.finished)
            }
        } catch {
            // Only a `try` operator's step throws, and its downstream's failure is `any Error`.
            finish(.failure(error as! Downstream.Failure))
        }
        return .none
    }
}

extension Publisher {
    /// Subscribes `subscriber` through a ``StepRelaySubscriber`` running `step`: the subscriber
    /// gets a subscription of its own, named `name`.
    ///
    /// - Parameters:
    ///   - upFrontDemand: asked of the upstream once the subscriber has its subscription, on
    ///     top of what it asked for meanwhile (`dropFirst(n)` asks for the `n` it drops).
    ///   - reportsNoneRequests: whether `request(.none)` is reported ([S9]), where Combine traps.
    ///   - handsOverFirst: whether the subscriber gets its subscription before the upstream is
    ///     subscribed (Combine's `dropFirst`), rather than when the upstream's arrives.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    func subscribe<Step: RelayStep, S: Subscriber>(
        _ subscriber: S, through step: Step, name: StaticString,
        upFrontDemand: Subscribers.Demand = .none, reportsNoneRequests: Bool = false, handsOverFirst: Bool = false
    ) where Step.Input == Output, S.Input == Step.Output {
        let relay = StepRelaySubscriber<Step, Failure, S>(
            downstream: subscriber, step: step, name: name, upFrontDemand: upFrontDemand,
            reportsNoneRequests: reportsNoneRequests)
        if handsOverFirst {
            relay.handOverThenSubscribe(to: self)
        } else {
            receive(subscriber: relay)
        }
    }
}
