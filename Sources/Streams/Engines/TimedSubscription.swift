/// The base of the subscriptions of the time operators that read a scheduler's clock: `delay`,
/// `debounce`, `throttle` and `timeout` (their subclasses follow it in this file). It adds to
/// ``SchedulingSubscription`` (the queue, the lock, the serialized delivery) what they share:
///
/// - **The scheduler and its options**, on which all their work is scheduled.
/// - **Where the downstream's demand goes** (``DemandMode``). `delay` and `timeout` pass every
///   request to the upstream and never drop a value. `debounce` and `throttle` choose which
///   values go out, so they ask the upstream for `.unlimited` once the downstream has the
///   subscription, as Combine does, and keep the downstream's demand here (``demand``): a value
///   whose time comes without demand is dropped ([S1]).
/// - **One restartable timer** (`debounce`'s quiet time, `timeout`'s deadline). Timers are
///   numbered by ``generation``; whatever makes the running timer stale (a newer value, the
///   upstream's completion, the timer firing) bumps the number under the lock with
///   ``retireTimer()``, so a timer that fires with an old number does nothing. A new timer is
///   scheduled outside the lock by ``startTimer(_:at:interval:)``, which keeps its cancellable
///   only if the timer is still the current one once `schedule` returns: the
///   `ImmediateScheduler` runs it inside `schedule`, and another thread may have replaced it.
///   The timer is a repeating one, only because that form returns a cancellable; it is
///   cancelled when it fires.
/// - **The upstream's completion for `debounce` and `timeout`**
///   (``completeAfterQueuedEvents(_:withOptions:)``): the timer stops and the completion waits behind the
///   events already queued.
///
/// Locking: every `var` here is guarded by the base class's `lock`; scheduling, cancelling a
/// timer and calling the upstream happen after unlocking. Scheduled work captures this object
/// only (see ``SchedulingSubscription/action(_:)``) and runs through ``perform(_:)``, which hands
/// `.timerFired` to ``timerFired(generation:)`` and `.emit` to ``emit()``.
///
/// [S1]: doc:/Contract/StreamContract#S1
@usableFromInline
class TimedSubscription<Context: Scheduler, Downstream: Subscriber>: SchedulingSubscription<Downstream>,
    @unchecked Sendable  // all mutable state (here and in the base class) is guarded by `lock`
{
    /// Where the downstream's demand goes.
    @usableFromInline
    enum DemandMode {
        /// Requests go to the upstream (`delay`, `timeout`).
        case passedUpstream
        /// The upstream is asked for `.unlimited`; the downstream's demand is kept in ``demand``
        /// (`debounce`, `throttle`).
        case keptHere
    }

    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    @usableFromInline let demandMode: DemandMode
    /// The downstream's outstanding demand (`.keptHere` only).
    @usableFromInline var demand = Subscribers.Demand.none
    /// The number of the current timer; a timer knows the number it was started with.
    @usableFromInline var generation: UInt64 = 0

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?, demandMode: DemandMode,
         name: StaticString) {
        self.scheduler = scheduler
        self.options = options
        self.demandMode = demandMode
        super.init(downstream: downstream, name: name)
    }

    @inlinable
    override func didSubscribe(_ upstream: any Subscription) {
        if case .keptHere = demandMode { upstream.request(.unlimited) }
    }

    @inlinable
    override func addDemand(_ demand: Subscribers.Demand) {
        switch demandMode {
        case .passedUpstream:
            runningUpstream()?.request(demand)
        case .keptHere:
            lock.lock()
            if !isDone { self.demand += demand }
            lock.unlock()
        }
    }

    /// Takes one unit of the downstream's demand, if it has one left. Call with `lock` held.
    @inlinable
    final func takeDemand() -> Bool {
        guard demand > 0 else { return false }
        demand -= 1
        return true
    }

    // MARK: The timer

    /// Makes the running timer stale and takes it, to be cancelled after unlocking; the next
    /// timer gets the new ``generation``. Call with `lock` held.
    @inlinable
    final func retireTimer() -> (any Cancellable)? {
        generation &+= 1
        return timer.take()
    }

    /// Starts timer number `generation` (from ``retireTimer()``), due at `deadline`. Call
    /// without the lock held.
    @inlinable
    final func startTimer(_ generation: UInt64, at deadline: Context.SchedulerTimeType,
                          interval: Context.SchedulerTimeType.Stride) {
        let newTimer = scheduler.schedule(after: deadline, interval: interval, tolerance: scheduler.minimumTolerance,
                                          options: options, action(.timerFired(generation: generation)))
        lock.lock()
        if case .running = phase, self.generation == generation {
            timer = newTimer
            lock.unlock()
        } else {
            lock.unlock()
            newTimer.cancel()
        }
    }

    // MARK: The upstream's completion

    /// The upstream's completion, for `debounce` and `timeout`: stops the timer, drops the value
    /// still waiting for its quiet time (`debounce`'s; `timeout` keeps none), and queues the
    /// completion behind the events already queued, to be delivered on the scheduler — with the
    /// operator's options when `withOptions` (`timeout`), without (`debounce`), as in Combine.
    @inlinable
    final func completeAfterQueuedEvents(_ completion: Subscribers.Completion<Failure>, withOptions: Bool) {
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return
        }
        let finishedUpstream = endUpstream()
        let dropped = pending.take()
        let previousTimer = retireTimer()
        enqueueWaiting(.completion(completion))
        lock.unlock()
        _ = (finishedUpstream, dropped)  // let go of after unlocking
        previousTimer?.cancel()
        scheduler.schedule(options: withOptions ? options : nil, action(.deliverOne))
    }

    // MARK: Scheduled work

    @inlinable
    override func perform(_ work: ScheduledWork) {
        switch work {
        case .timerFired(let generation): timerFired(generation: generation)
        case .emit: emit()
        case .deliverOne: super.perform(work)
        }
    }

    /// Timer number `generation` ran out. Subclasses that start timers override this.
    @inlinable
    func timerFired(generation: UInt64) {
        super.perform(.timerFired(generation: generation))
    }

    /// The scheduled emission. Subclasses that schedule `.emit` override this.
    @inlinable
    func emit() {
        super.perform(.emit)
    }
}

// MARK: - delay: subscription

/// The subscription of `delay`: each event goes into the queue as it arrives, waiting, and work
/// scheduled `interval` later marks the oldest waiting event due. Requests pass to the upstream.
@usableFromInline
final class DelaySubscription<Context: Scheduler, Downstream: Subscriber>: TimedSubscription<Context, Downstream>,
    @unchecked Sendable  // all mutable state is the base classes', guarded by `lock`
{
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    @usableFromInline let tolerance: Context.SchedulerTimeType.Stride

    @inlinable
    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride,
         tolerance: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?) {
        self.interval = interval
        self.tolerance = tolerance
        super.init(downstream: downstream, scheduler: scheduler, options: options, demandMode: .passedUpstream,
                   name: "Delay")
    }

    @inlinable
    override func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return .none
        }
        enqueueWaiting(.value(input))
        lock.unlock()
        scheduleDelivery()
        return .none
    }

    @inlinable
    override func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return
        }
        let finishedUpstream = endUpstream()
        enqueueWaiting(.completion(completion))
        lock.unlock()
        _ = finishedUpstream  // let go of after unlocking
        scheduleDelivery()
    }

    /// Makes the oldest waiting event due `interval` from now.
    @inlinable
    func scheduleDelivery() {
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options,
                           action(.deliverOne))
    }
}

// MARK: - debounce: subscription

/// The subscription of `debounce`. Each value becomes the waiting value and restarts the timer;
/// when the timer runs out, the waiting value goes out if the downstream has demand.
@usableFromInline
final class DebounceSubscription<Context: Scheduler, Downstream: Subscriber>: TimedSubscription<Context, Downstream>,
    @unchecked Sendable  // all mutable state (in the base classes) is guarded by `lock`
{
    @usableFromInline let dueTime: Context.SchedulerTimeType.Stride

    @inlinable
    init(downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
         options: Context.SchedulerOptions?) {
        self.dueTime = dueTime
        super.init(downstream: downstream, scheduler: scheduler, options: options, demandMode: .keptHere,
                   name: "Debounce")
    }

    @inlinable
    override func receive(_ input: Input) -> Subscribers.Demand {
        let dueDate = scheduler.now.advanced(by: dueTime)
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return .none
        }
        let replaced = pending.take()
        pending = input
        let previousTimer = retireTimer()
        let generation = self.generation
        lock.unlock()
        previousTimer?.cancel()
        _ = replaced
        startTimer(generation, at: dueDate, interval: dueTime)
        return .none
    }

    @inlinable
    override func receive(completion: Subscribers.Completion<Failure>) {
        completeAfterQueuedEvents(completion, withOptions: false)
    }

    /// The quiet time after the value that started timer number `generation` is over: delivers
    /// that value if it is still the waiting one and the downstream has demand; drops it
    /// otherwise.
    @inlinable
    override func timerFired(generation: UInt64) {
        lock.lock()
        guard case .running = phase, self.generation == generation else {
            lock.unlock()
            return
        }
        let firedTimer = retireTimer()
        let value = pending.take()
        let delivers = value != nil && takeDemand()
        if delivers, let value { enqueueDue(.value(value)) }
        lock.unlock()
        firedTimer?.cancel()
        if delivers { drain() }
    }
}

// MARK: - throttle: subscription

/// The subscription of `throttle`. At most one emission is scheduled at a time
/// (`isEmissionScheduled`); it sends the waiting value (the base class's `pending`) and, if the
/// upstream completed meanwhile, the completion after it.
@usableFromInline
final class ThrottleSubscription<Context: Scheduler, Downstream: Subscriber>: TimedSubscription<Context, Downstream>,
    @unchecked Sendable  // all mutable state (here and in the base classes) is guarded by `lock`
{
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    @usableFromInline let latest: Bool
    /// When the last value was sent; `nil` before the first.
    @usableFromInline var lastEmission: Context.SchedulerTimeType?
    @usableFromInline var isEmissionScheduled = false
    /// The upstream's completion, waiting for the scheduled emission.
    @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?

    @inlinable
    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
        self.interval = interval
        self.latest = latest
        super.init(downstream: downstream, scheduler: scheduler, options: nil, demandMode: .keptHere, name: "Throttle")
    }

    @inlinable
    override func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return .none
        }
        if isEmissionScheduled {
            // A value is waiting: it holds the demand; keep the latest or the first.
            let replaced = latest ? pending.take() : nil
            if latest { pending = input }
            lock.unlock()
            _ = replaced
            return .none
        }
        guard takeDemand() else {
            lock.unlock()
            return .none
        }
        pending = input
        isEmissionScheduled = true
        let earliest = lastEmission.map { $0.advanced(by: interval) }
        lock.unlock()
        if let earliest, earliest > now {
            scheduler.schedule(after: earliest, tolerance: scheduler.minimumTolerance, options: nil, action(.emit))
        } else {
            scheduler.schedule(options: nil, action(.emit))
        }
        return .none
    }

    @inlinable
    override func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return
        }
        let finishedUpstream = endUpstream()
        pendingCompletion = completion
        let mustSchedule = !isEmissionScheduled
        isEmissionScheduled = true
        lock.unlock()
        _ = finishedUpstream  // let go of after unlocking
        if mustSchedule {
            scheduler.schedule(options: nil, action(.emit))
        }
    }

    /// The scheduled emission: sends the waiting value, then the waiting completion, if any.
    @inlinable
    override func emit() {
        let now = scheduler.now
        lock.lock()
        guard !isDone, isEmissionScheduled else {
            lock.unlock()
            return
        }
        isEmissionScheduled = false
        if let value = pending.take() {
            lastEmission = now
            enqueueDue(.value(value))
        }
        if let completion = pendingCompletion.take() {
            enqueueDue(.completion(completion))
        }
        lock.unlock()
        drain()
    }

    @inlinable
    override func didEnd() {
        lock.lock()
        let completion = pendingCompletion.take()
        lock.unlock()
        _ = completion
    }
}

// MARK: - timeout: subscription

/// The subscription of `timeout`. Values and the upstream's completion go into the queue as they
/// arrive, waiting, and work scheduled at once marks them due. The timer (a repeating one, for its
/// cancellable) is numbered by `generation`, so one that fires after a newer value arrived does
/// nothing. A timeout marks everything queued due, behind which it puts its own completion.
@usableFromInline
final class TimeoutSubscription<Context: Scheduler, Downstream: Subscriber>: TimedSubscription<Context, Downstream>,
    @unchecked Sendable  // all mutable state (here and in the base classes) is guarded by `lock`
{
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    /// `nil` once the stream is over.
    @usableFromInline var customError: (() -> Failure)?

    @inlinable
    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
         options: Context.SchedulerOptions?, customError: (() -> Failure)?) {
        self.interval = interval
        self.customError = customError
        super.init(downstream: downstream, scheduler: scheduler, options: options, demandMode: .passedUpstream,
                   name: "Timeout")
    }

    @inlinable
    override func didSubscribe(_ upstream: any Subscription) {
        // Started once the downstream has the subscription, so that a timer that runs out at
        // once (the `ImmediateScheduler`) cannot complete before it (S2). A value that arrived
        // meanwhile has started it already.
        lock.lock()
        let started = generation != 0
        lock.unlock()
        if !started { restartTimer() }
    }

    @inlinable
    override func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return .none
        }
        enqueueWaiting(.value(input))
        lock.unlock()
        restartTimer()
        scheduler.schedule(options: options, action(.deliverOne))
        return .none
    }

    @inlinable
    override func receive(completion: Subscribers.Completion<Failure>) {
        completeAfterQueuedEvents(completion, withOptions: true)
    }

    @inlinable
    override func didEnd() {
        lock.lock()
        let customError = self.customError.take()
        lock.unlock()
        _ = customError
    }

    /// Starts the timer again from now, cancelling the previous one.
    @inlinable
    func restartTimer() {
        let deadline = scheduler.now.advanced(by: interval)
        lock.lock()
        guard case .running = phase else {
            lock.unlock()
            return
        }
        let previousTimer = retireTimer()
        let generation = self.generation
        lock.unlock()
        previousTimer?.cancel()
        startTimer(generation, at: deadline, interval: interval)
    }

    /// Timer number `generation` ran out: if no value came since it started, cancels the
    /// upstream and ends the stream after the values already queued.
    @inlinable
    override func timerFired(generation: UInt64) {
        lock.lock()
        guard case .running(let upstream) = phase, self.generation == generation else {
            lock.unlock()
            return
        }
        phase = .upstreamFinished
        let firedTimer = retireTimer()
        let makeError = customError
        lock.unlock()
        firedTimer?.cancel()
        upstream.cancel()
        let completion: Subscribers.Completion<Failure> = makeError.map { .failure($0()) } ?? .finished
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        enqueueWaiting(.completion(completion))
        markAllDue()
        lock.unlock()
        drain()
    }
}
