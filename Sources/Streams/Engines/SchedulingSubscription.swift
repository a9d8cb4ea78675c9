/// The base of the subscriptions of the operators that deliver later, from work they schedule
/// on a scheduler: `delay`, `debounce`, `throttle` and `timeout`.
///
/// It is the subscriber to the upstream and the subscription the downstream receives, and it
/// owns what those operators share: the lock, the phase of the subscription, the downstream, an
/// optional timer, and a first-in first-out queue of events on their way down. Values are kept
/// here, never in the scheduled closures, which capture only this object (as a non-generic
/// ``ScheduledWorkTarget``, see ``action(_:)``): so the closures are `@Sendable` without the
/// values having to be.
///
/// An event goes into the queue either *waiting* (`delay` and `timeout` put each event in as it
/// arrives, and scheduled work later marks the oldest waiting one due) or *due* (`debounce` and
/// `throttle` put a value in when its time has come; `debounce`'s completion waits like `delay`'s
/// events). The events wait in the queue of a ``SerialDelivery`` whose drain hands the *due* ones
/// to the downstream, one at a time, in order, outside the lock; whoever finds the drain token
/// taken leaves its events to its holder. So calls into the downstream never overlap ([S3]),
/// even on a concurrent scheduler, their order is the queue's whatever order the scheduler runs
/// work in, and a request from inside `receive(_:)` that makes the upstream send again through
/// the `ImmediateScheduler` adds to the running drain instead of growing the stack ([S8]).
///
/// After `cancel()`, or once the completion is delivered, nothing more goes out ([S4], [S6]), and the
/// downstream, the upstream subscription, the queue, the waiting value and the timer are let go,
/// after unlocking ([S7]). Work still in the scheduler keeps this object (not the downstream) alive
/// until it runs; then it finds the phase `done` and does nothing.
///
/// `request(.none)` is accepted and does nothing, as in Combine ([S9]). Subclasses take the
/// upstream's values and completion only while the phase is `running`: what a misbehaving
/// upstream sends before its subscription or after its end is ignored, and a second
/// subscription is cancelled ([S2]).
///
/// Subclasses implement the upstream's `receive(_:)` and `receive(completion:)`, and
/// ``addDemand(_:)``, which takes the downstream's requests and the demand it returns from
/// `receive(_:)`.
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
/// [S4]: doc:/Contract/StreamContract#S4
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
/// [S9]: doc:/Contract/StreamContract#S9
@usableFromInline
class SchedulingSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    ScheduledWorkTarget, SerialDelivery, @unchecked Sendable  // all mutable state is guarded by `lock`
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    enum Phase {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Receiving from the upstream.
        case running(any Subscription)
        /// The upstream is over (it completed, or a timeout cancelled it); its completion is
        /// queued or scheduled.
        case upstreamFinished
        /// The completion was delivered, or the downstream cancelled.
        case done
    }

    @usableFromInline
    enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    /// What the drain token holder hands out.
    @usableFromInline
    enum Delivery {
        case value(Input, Downstream)
        /// The completion, with what the stream lets go of.
        case end(Subscribers.Completion<Failure>, Downstream, Leftovers)
    }

    /// What is let go when the stream ends; taken under the lock and dropped after unlocking.
    @usableFromInline
    struct Leftovers {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var events: FIFOQueue<Event>
        @usableFromInline var timer: (any Cancellable)?
        @usableFromInline var pending: Input?

        @inlinable
        init(downstream: Downstream?, events: FIFOQueue<Event>, timer: (any Cancellable)?, pending: Input?) {
            self.downstream = downstream
            self.events = events
            self.timer = timer
            self.pending = pending
        }
    }

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)` on the state below: `lock` already makes every access exclusive
    // (Docs/Performance.md, "`@exclusivity(unchecked)`").
    @exclusivity(unchecked) @usableFromInline final var phase = Phase.awaitingSubscription
    /// `nil` once the stream is over.
    @exclusivity(unchecked) @usableFromInline final var downstream: Downstream?
    /// The events not yet delivered, and the drain token.
    @exclusivity(unchecked) @usableFromInline final var serial = SerialQueue<Event>()
    /// How many of the oldest queued events are due.
    @exclusivity(unchecked) @usableFromInline final var due = 0
    /// The operator's timer (`debounce`, `timeout`); cancelled when the stream ends.
    @exclusivity(unchecked) @usableFromInline final var timer: (any Cancellable)?
    /// The value waiting for its time (`debounce`, `throttle`).
    @exclusivity(unchecked) @usableFromInline final var pending: Input?
    @usableFromInline let name: StaticString

    @inlinable
    init(downstream: Downstream, name: StaticString) {
        self.downstream = downstream
        self.name = name
    }

    @usableFromInline var description: String { "\(name)" }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    final func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = phase, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase = .running(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        if let upstream = runningUpstream() { didSubscribe(upstream) }
    }

    /// Called once the downstream has the subscription, unless it cancelled meanwhile.
    @inlinable
    func didSubscribe(_ upstream: any Subscription) {}

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        fatalError("abstract")
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        fatalError("abstract")
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    final func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard demand != .none else { return }
        addDemand(demand)
    }

    /// Takes demand from the downstream: requested, or returned from `receive(_:)`. Called
    /// without the lock held.
    @inlinable
    func addDemand(_ demand: Subscribers.Demand) {
        fatalError("abstract")
    }

    @inlinable
    final func cancel() {
        lock.lock()
        if case .done = phase {
            lock.unlock()
            return
        }
        let upstream = if case .running(let upstream) = phase { upstream } else { Optional<any Subscription>.none }
        phase = .done
        let leftovers = takeLeftovers()
        lock.unlock()
        upstream?.cancel()
        leftovers.timer?.cancel()
        didEnd()
    }

    /// Called once, without the lock held, when the stream ends (cancelled or completed), to let
    /// go of what a subclass keeps ([S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    @inlinable
    func didEnd() {}

    // MARK: Scheduled work

    /// The closure to hand a scheduler for `work`. It captures this object as a
    /// ``ScheduledWorkTarget``, not as its generic class: a `@Sendable` closure may not capture
    /// the generic parameters' metatypes, which are not `Sendable`.
    @inlinable
    final func action(_ work: ScheduledWork) -> @Sendable () -> Void {
        let target: any ScheduledWorkTarget = self
        return { target.perform(work) }
    }

    /// Runs scheduled `work`. The base class does `.deliverOne`; subclasses that schedule other
    /// work override this.
    @inlinable
    func perform(_ work: ScheduledWork) {
        switch work {
        case .deliverOne: markOneDueAndDrain()
        case .emit, .timerFired: fatalError("\(name) scheduled \(work) but does not perform it")
        }
    }

    // MARK: For subclasses

    /// The upstream subscription while the upstream is running.
    @inlinable
    final func runningUpstream() -> (any Subscription)? {
        lock.lock()
        defer { lock.unlock() }
        if case .running(let upstream) = phase { return upstream }
        return nil
    }

    /// Marks the upstream over, and returns its subscription so that it is let go after
    /// unlocking. Call with the lock held.
    @inlinable
    final func endUpstream() -> (any Subscription)? {
        let upstream = if case .running(let upstream) = phase { upstream } else { Optional<any Subscription>.none }
        phase = .upstreamFinished
        return upstream
    }

    /// Whether the stream is over for the downstream. Call with the lock held.
    @inlinable
    final var isDone: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Puts `event` at the back of the queue, waiting. Call with the lock held.
    @inlinable
    final func enqueueWaiting(_ event: Event) {
        serial.pending.append(event)
    }

    /// Puts `event` at the back of the queue, due: only when every queued event is due. Call
    /// with the lock held, then ``drain()`` after unlocking.
    @inlinable
    final func enqueueDue(_ event: Event) {
        serial.pending.append(event)
        due += 1
    }

    /// Marks every queued event due. Call with the lock held, then ``drain()`` after unlocking.
    @inlinable
    final func markAllDue() {
        due = serial.pending.count
    }

    /// Marks the oldest waiting event due and delivers what is due: the work a `delay` or
    /// `timeout` schedules per event.
    @inlinable
    final func markOneDueAndDrain() {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        if due < serial.pending.count { due += 1 }
        unlockOrDrainLocked()
    }

    /// Takes everything the stream ends with. Call with the lock held; drop the result after
    /// unlocking.
    @inlinable
    final func takeLeftovers() -> Leftovers {
        due = 0
        return Leftovers(downstream: downstream.take(), events: serial.pending.takeAll(), timer: timer.take(),
                         pending: pending.take())
    }

    /// Hands the due events to the downstream, in order, one at a time and outside the lock,
    /// unless another drain is doing it already. Demand the downstream returns goes to
    /// ``addDemand(_:)``; a completion ends the stream.
    @inlinable
    final func drain() {
        lock.lock()
        unlockOrDrainLocked()
    }

    // MARK: SerialDelivery

    /// The oldest event, if it is due.
    @inlinable
    final func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Delivery> {
        guard due > 0, let downstream, let event = serial.pending.popFirst() else { return .stop(nil) }
        due -= 1
        switch event {
        case .value(let value):
            return .deliver(.value(value, downstream))
        case .completion(let completion):
            phase = .done
            return .deliver(.end(completion, downstream, takeLeftovers()))
        }
    }

    @inlinable
    final func deliver(_ delivery: Delivery) -> DeliveryResult {
        switch delivery {
        case .value(let value, let downstream):
            let more = downstream.receive(value)
            if more != .none { addDemand(more) }
            return .returned(.none)
        case .end(let completion, let downstream, let leftovers):
            leftovers.timer?.cancel()
            downstream.receive(completion: completion)
            didEnd()
            return .leave  // the token stays taken: nothing follows the completion
        }
    }
}

/// Work a ``SchedulingSubscription`` schedules.
@usableFromInline
enum ScheduledWork: Sendable {
    /// Mark the oldest waiting event due and deliver what is due (`delay`, `timeout`).
    case deliverOne
    /// Send the waiting value and completion (`throttle`).
    case emit
    /// Timer number `generation` fired (`debounce`, `timeout`).
    case timerFired(generation: UInt64)
}

/// What scheduled closures call: a non-generic face of ``SchedulingSubscription``.
@usableFromInline
protocol ScheduledWorkTarget: AnyObject, Sendable {
    /// Runs scheduled `work`.
    func perform(_ work: ScheduledWork)
}
