// The engine of the operators that consume their upstream and answer with one value of their
// own, then a completion: `reduce`, `collect()`, `count`, `min`/`max`, `first`, `last`,
// `contains`, `allSatisfy` and their `try` forms; and, passing values on as they come,
// `collect(_:)` and `replaceEmpty`. One object, ``ReducingSubscription``, is both the
// subscriber to the upstream and the subscription the downstream gets; what is particular to
// each operator is a ``Reduction``: what a value does to the running state, and the answer.
// `first`, `contains` and `allSatisfy` share one, ``SearchReduction``.
//
// State machine (``ReducingSubscription/State``, under the lock):
//
//     awaitingSubscription --upstream's subscription--> reducing
//     reducing --upstream finished, or an early answer--> delivering   (the downstream has asked)
//                                                     --> holding(answer?) (not yet, S5)
//     holding --first request--> delivering --answer (if any), then .finished--> done
//     any --upstream failure, a thrown error, cancel()--> done
//
// A true reduction asks the upstream for `.unlimited` once the downstream has the
// subscription, as Combine does, and uses the downstream's requests only to know that the
// answer is wanted; it holds a bare `.finished` (no answer) for demand too (S5). One that sends
// values on (``Reduction/demandFactor``) passes the downstream's demand up instead, and holds
// only a waiting answer. An early answer cancels the upstream (S15); a thrown error or an
// upstream failure goes down at once (S14).
//
// Locking: one `Lock` guards the state (with the upstream's subscription or the waiting
// answer), the downstream and whether it has asked for anything. It is taken at the
// subscription, at the end, and by `request` and `cancel`, never while calling out. A value
// goes to the reduction without taking it: values come one at a time (S3) and nothing else
// touches the reduction. Only a reduction that sends values on takes the lock per value sent,
// to read the downstream.
//
// Performance: the reduction and the "subscribed" flag are `@exclusivity(unchecked)` (only the
// upstream's serialized signals touch them); see Docs/Performance.md.

/// The operator-specific half of a ``ReducingSubscription``: what each upstream value does to the
/// running state, and what to send once the upstream has finished.
///
/// A reduction is a small struct (an accumulator and the user's closure). It lives inside the
/// subscription and is only touched from the upstream's serialized signals ([S3]), so it needs no
/// lock of its own.
///
/// [S3]: doc:/Contract/StreamContract#S3
@usableFromInline
protocol Reduction {
    /// The upstream's values.
    associatedtype Input
    /// What the operator sends.
    associatedtype Output

    /// How the downstream's demand reaches the upstream.
    ///
    /// `nil` (the default) for a true reduction: the upstream is asked for `.unlimited` as soon as
    /// the downstream has the subscription, and a request only tells that the downstream wants
    /// the one value. A number `n` for an operator that sends values as they come: nothing is
    /// asked up front, and a request for `d`, or demand `d` returned for a value sent on, asks
    /// the upstream for `d * n`.
    var demandFactor: Int? { get }

    /// Whether the upstream is asked for `.unlimited` as soon as the downstream has the
    /// subscription. The default is `true` for a true reduction and `false` for one with a
    /// ``demandFactor``; `replaceEmpty` asks for both, as Combine does.
    var asksForUnlimited: Bool { get }

    /// Whether `request(.none)` is reported as a broken rule ([S9]), as Combine traps for
    /// `collect(_:)` and `replaceEmpty`. The default, `false`, accepts it and does nothing.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    var rejectsRequestForNone: Bool { get }

    /// Takes in one upstream value and says what to do: nothing yet, send a value on now, or
    /// finish early with the answer (which cancels the upstream, [S15]). A thrown error fails the
    /// stream and cancels the upstream ([S14]); only the `try` operators throw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    /// [S15]: doc:/Contract/StreamContract#S15
    mutating func reduce(_ input: Input) throws -> ReductionStep<Output>

    /// The value to send after the upstream finished, or `nil` to send only `.finished`.
    mutating func result() -> Output?
}

extension Reduction {
    /// A true reduction: the upstream is asked for `.unlimited` at once.
    @inlinable var demandFactor: Int? { nil }
    /// A true reduction asks for `.unlimited`; one with a demand factor passes demand up.
    @inlinable var asksForUnlimited: Bool { demandFactor == nil }
    /// `request(.none)` is accepted and does nothing.
    @inlinable var rejectsRequestForNone: Bool { false }
}

/// What a ``Reduction`` makes of one upstream value.
@usableFromInline
enum ReductionStep<Output> {
    /// The value was taken in; nothing to send.
    case consumed
    /// Send this value on now. Only for a reduction with a ``Reduction/demandFactor``, whose
    /// upstream sends nothing that was not asked for.
    case send(Output)
    /// The answer is known before the upstream ends: cancel the upstream, send the answer once it
    /// is asked for, then `.finished`.
    case finish(Output)
}

/// The reduction of the operators that look for one value and stop there: `first(where:)`,
/// `contains(where:)`, and `allSatisfy`, which looks for the first value that fails its
/// predicate. At the first value for which `predicate` returns `stopsAt`, the search finishes
/// early with `found(value)` (which cancels the upstream, [S15]); if the upstream finishes first,
/// the answer is `notFound`. Each operator's file says how it sets one up.
///
/// [S15]: doc:/Contract/StreamContract#S15
@usableFromInline
struct SearchReduction<Input, Output>: Reduction {
    @usableFromInline let predicate: (Input) throws -> Bool
    @usableFromInline let stopsAt: Bool
    @usableFromInline let found: (Input) -> Output
    @usableFromInline let notFound: Output?

    @inlinable
    init(
        predicate: @escaping (Input) throws -> Bool, stopsAt: Bool, found: @escaping (Input) -> Output,
        notFound: Output?
    ) {
        self.predicate = predicate
        self.stopsAt = stopsAt
        self.found = found
        self.notFound = notFound
    }

    @inlinable
    mutating func reduce(_ input: Input) throws -> ReductionStep<Output> {
        try predicate(input) == stopsAt ? .finish(found(input)) : .consumed
    }

    @inlinable
    mutating func result() -> Output? { notFound }
}

/// The subscriber and subscription of the reducing operators; see the comment at the top of
/// this file.
///
/// A value or completion that comes before the upstream's subscription, or after the upstream's
/// part is over, is ignored, and a second upstream subscription is cancelled ([S2]). `cancel()` lets go of the downstream, the upstream and any waiting answer
/// ([S7]), and nothing is delivered after it ([S6]), not even the completion that would follow an
/// answer being delivered while it was called.
///
/// The reduction, with the user's closures, is dropped as soon as the upstream's part is over
/// (its completion, or an early answer), even while the answer waits for demand. After a
/// `cancel()` it goes with this object, once the cancelled upstream and the downstream let go of
/// it (a sink does at once): dropping it from `cancel()`'s thread would take the lock per value.
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
@usableFromInline
final class ReducingSubscription<Reducing: Reduction, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable  // state, downstream, demanded: guarded by `lock`; reduction: upstream signals only
where Downstream.Input == Reducing.Output {
    @usableFromInline typealias Input = Reducing.Input
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline
    enum State {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Consuming the upstream.
        case reducing(Subscription)
        /// The upstream is done (or cancelled early); the answer (or, with `nil`, a bare
        /// `.finished`) waits for demand.
        case holding(Downstream.Input?)
        /// The answer is being sent; `cancel()` now only stops the completion that follows.
        case delivering
        /// Completed or cancelled.
        case done
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var state = State.awaitingSubscription
    @usableFromInline var downstream: Downstream?
    /// Whether the downstream has asked for anything. The answer comes after every value sent on
    /// (there are none, or the upstream only sent them because more was asked for), so then the
    /// downstream is waiting for it.
    @usableFromInline var demanded = false
    /// `nil` once the upstream's part is over; values that still arrive are ignored ([S4]).
    ///
    /// [S4]: doc:/Contract/StreamContract#S4
    @exclusivity(unchecked) @usableFromInline var reduction: Reducing?
    /// Whether the upstream's subscription has come; signals before it are ignored ([S2]). Set
    /// and read only from the upstream's serialized signals ([S3]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    @exclusivity(unchecked) @usableFromInline var isSubscribed = false
    /// The reduction's ``Reduction/demandFactor``.
    @usableFromInline let demandFactor: Int?
    /// The reduction's ``Reduction/asksForUnlimited``.
    @usableFromInline let asksForUnlimited: Bool
    /// The reduction's ``Reduction/rejectsRequestForNone``.
    @usableFromInline let rejectsRequestForNone: Bool
    @usableFromInline let name: StaticString

    @inlinable
    init(downstream: Downstream, reduction: Reducing, name: StaticString) {
        self.downstream = downstream
        self.reduction = reduction
        self.demandFactor = reduction.demandFactor
        self.asksForUnlimited = reduction.asksForUnlimited
        self.rejectsRequestForNone = reduction.rejectsRequestForNone
        self.name = name
    }

    @usableFromInline var description: String { "\(name)" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .reducing(subscription)
        isSubscribed = true
        lock.unlock()
        // The downstream first: a synchronous upstream may finish inside `request`.
        downstream.receive(subscription: self)
        guard asksForUnlimited else { return }
        lock.lock()
        let isReducing = if case .reducing = state { true } else { false }
        lock.unlock()
        if isReducing { subscription.request(.unlimited) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard isSubscribed else { return .none }
        do {
            switch try reduction?.reduce(input) {
            case nil, .consumed?:
                return .none
            case .send(let value)?:
                lock.lock()
                guard case .reducing = state, let downstream else {
                    lock.unlock()
                    return .none
                }
                lock.unlock()
                return downstream.receive(value) * (demandFactor ?? 1)
            case .finish(let answer)?:
                reduction = nil
                end(with: answer, cancellingUpstream: true)
                return .none
            }
        } catch {
            reduction = nil
            fail(error as! Downstream.Failure, cancellingUpstream: true)
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard isSubscribed, var reduction = self.reduction.take() else { return }
        switch completion {
        case .finished:
            end(with: reduction.result(), cancellingUpstream: false)
        case .failure(let error):
            fail(error as! Downstream.Failure, cancellingUpstream: false)
        }
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none {
            // S9: Combine traps only for `collect(_:)` and `replaceEmpty`; the others ignore it.
            if rejectsRequestForNone {
                _ = demand.isValidRequest(of: "\(name)")
            }
            return
        }
        lock.lock()
        switch state {
        case .reducing(let upstream):
            demanded = true
            lock.unlock()
            if let demandFactor { upstream.request(demand * demandFactor) }
        case .holding(let answer):
            state = .delivering
            let downstream = self.downstream.take()
            lock.unlock()
            if let downstream { deliver(answer, to: downstream) }
        case .awaitingSubscription, .delivering, .done:
            lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let previous = state
        if case .done = previous {
            lock.unlock()
            return
        }
        state = .done
        let downstream = self.downstream.take()
        lock.unlock()
        // `previous` (the upstream, or a waiting answer) and the downstream are released here,
        // after unlocking.
        if case .reducing(let upstream) = previous { upstream.cancel() }
        keepAlive(downstream)
    }

    // MARK: Ending

    /// Sends `answer` (when there is one) and `.finished`, or keeps the answer until the
    /// downstream asks for it.
    @inlinable
    func end(with answer: Downstream.Input?, cancellingUpstream: Bool) {
        lock.lock()
        guard case .reducing(let upstream) = state else {
            lock.unlock()
            return
        }
        if !demanded, answer != nil || demandFactor == nil {
            state = .holding(answer)
            lock.unlock()
            if cancellingUpstream { upstream.cancel() }
            return
        }
        state = .delivering
        let downstream = self.downstream.take()
        lock.unlock()
        if cancellingUpstream { upstream.cancel() }
        if let downstream { deliver(answer, to: downstream) }
    }

    @inlinable
    func fail(_ error: Downstream.Failure, cancellingUpstream: Bool) {
        lock.lock()
        guard case .reducing(let upstream) = state else {
            lock.unlock()
            return
        }
        state = .done
        let downstream = self.downstream.take()
        lock.unlock()
        if cancellingUpstream { upstream.cancel() }
        downstream?.receive(completion: .failure(error))
    }

    /// Sends the answer (if any), then `.finished` unless `cancel()` came meanwhile.
    @inlinable
    func deliver(_ answer: Downstream.Input?, to downstream: Downstream) {
        if let answer { _ = downstream.receive(answer) }
        lock.lock()
        let wasCancelled = if case .delivering = state { false } else { true }
        state = .done
        lock.unlock()
        if !wasCancelled { downstream.receive(completion: .finished) }
    }
}

extension Publisher {
    /// Subscribes `subscriber` through a ``ReducingSubscription`` running `reduction`: the
    /// subscriber gets it as its subscription, named `name`.
    @inlinable
    func subscribe<Reducing: Reduction, S: Subscriber>(
        _ subscriber: S, reducing reduction: Reducing, name: StaticString
    )
    where Reducing.Input == Output, S.Input == Reducing.Output {
        receive(
            subscriber: ReducingSubscription<Reducing, Failure, S>(
                downstream: subscriber, reduction: reduction, name: name))
    }
}
