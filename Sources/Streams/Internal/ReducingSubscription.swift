/// The operator-specific half of a ``ReducingSubscription``: what each upstream value does to the
/// running state, and what to send once the upstream has finished.
///
/// A reduction is a small struct (an accumulator and the user's closure). It lives inside the
/// subscription and is only touched from the upstream's serialized signals (S3), so it needs no
/// lock of its own.
@usableFromInline
protocol Reduction {
    /// The upstream's values.
    associatedtype Input
    /// The one value the operator sends.
    associatedtype Output

    /// Takes in one upstream value. Returns the answer as soon as it is known before the upstream
    /// ends (`contains` has seen its value), which cancels the upstream (S15); returns `nil` to
    /// go on. A thrown error fails the stream and cancels the upstream (S14); only the `try`
    /// operators throw.
    mutating func reduce(_ input: Input) throws -> Output?

    /// The value to send after the upstream finished, or `nil` to send only `.finished`.
    mutating func result() -> Output?
}

/// The subscription of the operators that consume their whole upstream and send at most one value,
/// then a completion: `reduce`, `collect()`, `count`, `ignoreOutput`, `min`/`max`, `contains`,
/// `allSatisfy`, `last` and their `try` forms.
///
/// It is the subscriber to the upstream and the subscription the downstream receives. Once the
/// downstream has the subscription it asks the upstream for `.unlimited` (as Combine does), and
/// feeds each value to its ``Reduction`` without taking the lock: values come one at a time (S3)
/// and nothing else touches the reduction. The lock guards what the downstream's thread touches
/// too: the state (with the upstream subscription or the waiting result), the downstream, and
/// whether the downstream has asked for anything.
///
/// The answer comes when the upstream finishes, or earlier from the reduction (which cancels the
/// upstream, S15); a thrown error or an upstream failure goes down at once (S5, S14). A value is
/// only sent once the downstream has asked for one (S1): until then it waits in ``State/holding``.
/// `cancel()` lets go of the downstream, the upstream and any waiting value (S7), and nothing is
/// delivered after it (S6), not even the completion that would follow a value being delivered
/// while it was called.
///
/// The reduction, with the user's closures, is dropped as soon as the upstream's part is over
/// (its completion, or an early answer), even while the answer waits for demand. After a
/// `cancel()` it goes with this object, once the cancelled upstream and the downstream let go of
/// it (a sink does at once): dropping it from `cancel()`'s thread would take the lock per value.
@usableFromInline
final class ReducingSubscription<Reducing: Reduction, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible,
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
        /// The upstream is done (or cancelled early); the answer waits for demand.
        case holding(Downstream.Input)
        /// The answer is being sent; `cancel()` now only stops the completion that follows.
        case delivering
        /// Completed or cancelled.
        case done
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var state = State.awaitingSubscription
    @usableFromInline var downstream: Downstream?
    /// Whether the downstream has asked for a value. One is all it can get.
    @usableFromInline var demanded = false
    /// `nil` once the upstream's part is over; values that still arrive are ignored (S4).
    @exclusivity(unchecked) @usableFromInline var reduction: Reducing?
    @usableFromInline let name: StaticString

    @inlinable
    init(downstream: Downstream, reduction: Reducing, name: StaticString) {
        self.downstream = downstream
        self.reduction = reduction
        self.name = name
    }

    @usableFromInline var description: String { "\(name)" }

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
        lock.unlock()
        // The downstream first: a synchronous upstream may finish inside `request`.
        downstream.receive(subscription: self)
        lock.lock()
        let isReducing = if case .reducing = state { true } else { false }
        lock.unlock()
        if isReducing { subscription.request(.unlimited) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        do {
            if case .some(.some(let answer)) = try reduction?.reduce(input) {
                reduction = nil
                end(with: answer, cancellingUpstream: true)
            }
        } catch {
            reduction = nil
            fail(error as! Downstream.Failure, cancellingUpstream: true)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard var reduction = self.reduction.take() else { return }
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
        guard demand.isValidRequest(of: "\(name)") else { return }
        lock.lock()
        guard case .holding(let answer) = state else {
            demanded = true
            lock.unlock()
            return
        }
        state = .delivering
        let downstream = self.downstream.take()
        lock.unlock()
        if let downstream { deliver(answer, to: downstream) }
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
        _ = downstream
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
        if let answer, !demanded {
            state = .holding(answer)
            lock.unlock()
            if cancellingUpstream { upstream.cancel() }
            return
        }
        state = answer == nil ? .done : .delivering
        let downstream = self.downstream.take()
        lock.unlock()
        if cancellingUpstream { upstream.cancel() }
        guard let downstream else { return }
        if let answer {
            deliver(answer, to: downstream)
        } else {
            downstream.receive(completion: .finished)
        }
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

    /// Sends the answer, then `.finished` unless `cancel()` came meanwhile.
    @inlinable
    func deliver(_ answer: Downstream.Input, to downstream: Downstream) {
        _ = downstream.receive(answer)
        lock.lock()
        let wasCancelled = if case .delivering = state { false } else { true }
        state = .done
        lock.unlock()
        if !wasCancelled { downstream.receive(completion: .finished) }
    }
}
