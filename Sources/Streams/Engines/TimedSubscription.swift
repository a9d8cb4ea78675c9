/// The engine of the time operators `delay`, `debounce`, `throttle` and `timeout`: one
/// subscription class, ``TimedSubscription``, that runs an operator's state machine.
///
/// Each operator's file holds its state machine, a struct conforming to ``TimedStateMachine``:
/// an enum of its states, a method per event it takes (a value or the completion from the
/// upstream, a request or cancellation from the downstream, a timer or scheduled work running),
/// and an enum of the actions those methods return. The machine never calls out: it only changes
/// its state and says what to do. This file holds what the four share:
///
/// - **The lock**, over the machine, the downstream and the outbox. Every event is handled the
///   same way (``handle(_:)``): lock, run the machine's transition, unlock, then the machine's
///   ``TimedStateMachine/perform(_:in:)`` does the action (schedule or cancel a timer, request
///   from or cancel the upstream, deliver) with the lock released.
/// - **The outbox**: the events due for the downstream, oldest first. A transition that sends
///   something appends it to the outbox (under the lock, so events go out in the order the
///   machine decided them, whatever order the scheduler runs work in) and returns an action that
///   makes ``deliver()`` run. One thread at a time delivers (`isDelivering`), one event at a time
///   and outside the lock; a thread that finds someone delivering leaves its events to them. So
///   calls into the downstream never overlap, even on a concurrent scheduler ([S3]), and a
///   request from inside `receive(_:)` adds to the running delivery instead of growing the stack
///   ([S8]).
/// - **Scheduled work**, which names what ran (``TimedWork``): a closure handed to the scheduler
///   captures only this object, as a non-generic ``TimedWorkTarget``, never a value: so the
///   closures are `@Sendable` without the values having to be (a `@Sendable` closure also may not
///   capture the generic parameters' metatypes).
/// - **Timers** (`debounce`'s quiet time, `timeout`'s deadline): ``startTimer(_:after:)``
///   schedules one, numbered by the machine, and hands its cancellable to the machine, which
///   keeps it only if the timer is still its current one (the `ImmediateScheduler` runs a timer
///   inside `schedule`, and another thread may have started a newer one meanwhile). A timer is a
///   repeating schedule, only because that form returns a cancellable; it is cancelled when it
///   fires.
///
/// After `cancel()`, or once the completion is taken out of the outbox, the downstream and the
/// outbox are let go and the machine's ``TimedStateMachine/ended()`` lets go of the rest, all
/// after unlocking ([S6], [S7]). Work still in the scheduler keeps this (small) object, not the
/// downstream, alive until it runs; the machine, `done` by then, ignores it. What the upstream
/// sends before its subscription or after its end is ignored by the machines' states, and a
/// second subscription is cancelled ([S2]). `request(.none)` does nothing, as in Combine ([S9]).
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
/// [S9]: doc:/Contract/StreamContract#S9
@usableFromInline
final class TimedSubscription<Machine: TimedStateMachine, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, TimedWorkTarget, @unchecked Sendable  // all mutable state is guarded by `lock`
where Downstream.Input == Machine.Input, Downstream.Failure == Machine.Failure {
    @usableFromInline typealias Input = Machine.Input
    @usableFromInline typealias Failure = Machine.Failure
    @usableFromInline typealias Outbox = FIFOQueue<TimedEvent<Input, Failure>>

    @usableFromInline let scheduler: Machine.Context
    @usableFromInline let options: Machine.Context.SchedulerOptions?
    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)` on the state below: `lock` already makes every access exclusive
    // (Docs/Performance.md, "`@exclusivity(unchecked)`").
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    /// `nil` once the stream is over for the downstream.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// The events due for the downstream, oldest first.
    @exclusivity(unchecked) @usableFromInline var outbox = Outbox()
    /// Whether a thread is delivering the outbox; it stays `true` once the completion went out.
    @exclusivity(unchecked) @usableFromInline var isDelivering = false

    @inlinable
    init(
        machine: Machine, downstream: Downstream, scheduler: Machine.Context,
        options: Machine.Context.SchedulerOptions?
    ) {
        self.machine = machine
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    @usableFromInline var description: String { Machine.name }

    /// Runs `transition` on the machine under the lock, then performs the action it returns
    /// with the lock released.
    @inlinable
    func handle(_ transition: (inout Machine, inout Outbox) -> Machine.Action) {
        lock.lock()
        let action = transition(&machine, &outbox)
        lock.unlock()
        Machine.perform(action, in: self)
    }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard let downstream, machine.upstreamSubscribed(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
        handle { machine, _ in machine.downstreamSubscribed() }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let now = Machine.readsClock ? scheduler.now : nil
        handle { machine, _ in machine.upstreamSent(input, now: now) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        handle { machine, _ in machine.upstreamCompleted(completion) }
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard demand != .none else { return }
        handle { machine, _ in machine.downstreamRequested(demand) }
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard let downstream = downstream.take() else {
            lock.unlock()
            return
        }
        let undelivered = outbox.takeAll()
        let action = machine.ended()
        lock.unlock()
        Machine.perform(action, in: self)
        keepAlive(downstream, undelivered)  // let go of after unlocking
    }

    // MARK: For the machines' actions

    /// Delivers the outbox's events, oldest first, one at a time and outside the lock, unless
    /// another thread is delivering (it delivers them). Demand the downstream returns goes to the
    /// machine (``TimedStateMachine/downstreamRequested(_:)``); a completion ends the stream.
    @inlinable
    func deliver() {
        lock.lock()
        guard !isDelivering else {
            lock.unlock()
            return
        }
        isDelivering = true
        while let downstream, let event = outbox.popFirst() {
            switch event {
            case .value(let value):
                lock.unlock()
                let more = downstream.receive(value)
                if more != .none { handle { machine, _ in machine.downstreamRequested(more) } }
                lock.lock()
            case .completion(let completion):
                // `isDelivering` stays `true`: nothing follows the completion.
                self.downstream = nil
                let undelivered = outbox.takeAll()
                let action = machine.ended()
                lock.unlock()
                Machine.perform(action, in: self)
                downstream.receive(completion: completion)
                keepAlive(undelivered)  // let go of after unlocking
                return
            }
        }
        isDelivering = false
        lock.unlock()
    }

    /// The closure to hand the scheduler for `work`. It captures this object as a
    /// ``TimedWorkTarget``, not as its generic class: a `@Sendable` closure may not capture the
    /// generic parameters' metatypes, which are not `Sendable`.
    @inlinable
    func closure(for work: TimedWork) -> @Sendable () -> Void {
        let target: any TimedWorkTarget = self
        return { target.run(work) }
    }

    /// Schedules timer number `id`, due `interval` from now, and gives its cancellable to the
    /// machine (``TimedStateMachine/timerScheduled(_:id:)``); cancels it if the machine has moved
    /// on.
    @inlinable
    func startTimer(_ id: UInt64, after interval: Machine.Context.SchedulerTimeType.Stride) {
        let deadline = scheduler.now.advanced(by: interval)
        let timer = scheduler.schedule(
            after: deadline, interval: interval, tolerance: scheduler.minimumTolerance,
            options: options, closure(for: .timerFired(id: id)))
        lock.lock()
        let stale = machine.timerScheduled(timer, id: id)
        lock.unlock()
        stale?.cancel()
    }

    /// Runs scheduled `work`: hands it to the machine, with the scheduler's time if the machine
    /// reads it (``TimedStateMachine/readsClock``).
    @inlinable
    func run(_ work: TimedWork) {
        switch work {
        case .timerFired(let id):
            handle { machine, outbox in machine.timerFired(id, outbox: &outbox) }
        case .scheduled:
            let now = Machine.readsClock ? scheduler.now : nil
            handle { machine, outbox in machine.workRan(now: now, outbox: &outbox) }
        }
    }
}

/// An event on its way to the downstream.
@usableFromInline
enum TimedEvent<Input, Failure: Error> {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
}

/// The state machine of a time operator, run by ``TimedSubscription``.
///
/// The transitions are called with the engine's lock held: they change the state and return
/// what to do, and must not call out (not even to read the scheduler's clock: the engine reads
/// it before locking and passes it in). ``perform(_:in:)`` does the action, with the lock
/// released.
@usableFromInline
protocol TimedStateMachine {
    associatedtype Input
    associatedtype Failure: Error
    associatedtype Context: Scheduler
    /// What to do after a transition, outside the lock.
    associatedtype Action

    /// The subscription's description: the operator's name.
    static var name: String { get }
    /// Whether ``upstreamSent(_:now:)`` and ``workRan(now:outbox:)`` are given the scheduler's
    /// time (read before locking; `nil` otherwise). Machines that only schedule work for a time
    /// from now leave the clock to ``TimedSubscription/startTimer(_:after:)`` or their
    /// ``perform(_:in:)``, outside the lock.
    static var readsClock: Bool { get }

    /// The upstream sent its subscription. Returns `false` if the machine takes none now (a
    /// second one, or one after cancellation); the engine then cancels it.
    mutating func upstreamSubscribed(_ upstream: any Subscription) -> Bool
    /// The downstream has received the subscription.
    mutating func downstreamSubscribed() -> Action
    /// The upstream sent `value`, at `now` on the scheduler's clock (if ``readsClock``).
    mutating func upstreamSent(_ value: Input, now: Context.SchedulerTimeType?) -> Action
    /// The upstream completed.
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action
    /// The downstream asked for more, by a request or from `receive(_:)`; never `.none`.
    mutating func downstreamRequested(_ demand: Subscribers.Demand) -> Action
    /// Timer number `id` (started with ``TimedSubscription/startTimer(_:after:)``) ran out.
    mutating func timerFired(_ id: UInt64, outbox: inout FIFOQueue<TimedEvent<Input, Failure>>) -> Action
    /// Work scheduled with ``TimedWork/scheduled`` ran, at `now` if ``readsClock``.
    mutating func workRan(
        now: Context.SchedulerTimeType?,
        outbox: inout FIFOQueue<TimedEvent<Input, Failure>>
    ) -> Action
    /// Timer number `id` is scheduled: keep `timer` if it is the current one, or return it to
    /// be cancelled.
    mutating func timerScheduled(_ timer: any Cancellable, id: UInt64) -> (any Cancellable)?
    /// The stream is over for the downstream: it cancelled, or the completion is going out.
    mutating func ended() -> Action

    /// Does `action`, with the lock released.
    static func perform<Downstream: Subscriber>(_ action: Action, in subscription: TimedSubscription<Self, Downstream>)
    where Downstream.Input == Input, Downstream.Failure == Failure
}

/// What work a ``TimedSubscription`` hands a scheduler says when it runs.
@usableFromInline
enum TimedWork: Sendable {
    /// Timer number `id` ran out.
    case timerFired(id: UInt64)
    /// Work scheduled once (at a time, or at once) ran: the machine knows what it was for.
    case scheduled
}

/// What scheduled closures call: a non-generic face of ``TimedSubscription``.
@usableFromInline
protocol TimedWorkTarget: AnyObject, Sendable {
    /// Runs scheduled `work`.
    func run(_ work: TimedWork)
}
