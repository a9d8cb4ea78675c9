/// The subscription of the time operators that read a scheduler's clock: `delay`, `debounce`,
/// `throttle` and `timeout`. It adds to ``SchedulingSubscription`` (the queue, the lock, the
/// serialized delivery) the three things they share:
///
/// - **The scheduler and its options**, on which all their work is scheduled.
/// - **Where the downstream's demand goes** (``DemandMode``). `delay` and `timeout` pass every
///   request to the upstream and never drop a value. `debounce` and `throttle` choose which
///   values go out, so they ask the upstream for `.unlimited` once the downstream has the
///   subscription, as Combine does, and keep the downstream's demand here (``demand``): a value
///   whose time comes without demand is dropped (S1).
/// - **One restartable timer** (`debounce`'s quiet time, `timeout`'s deadline). Timers are
///   numbered by ``generation``; whatever makes the running timer stale (a newer value, the
///   upstream's completion, the timer firing) bumps the number under the lock with
///   ``retireTimer()``, so a timer that fires with an old number does nothing. A new timer is
///   scheduled outside the lock by ``startTimer(_:at:interval:)``, which keeps its cancellable
///   only if the timer is still the current one once `schedule` returns: the
///   `ImmediateScheduler` runs it inside `schedule`, and another thread may have replaced it.
///   The timer is a repeating one, only because that form returns a cancellable; it is
///   cancelled when it fires.
///
/// Locking: every `var` here is guarded by the base class's `lock`; scheduling, cancelling a
/// timer and calling the upstream happen after unlocking. Scheduled work captures this object
/// only (see ``SchedulingSubscription/action(_:)``) and runs through ``perform(_:)``, which hands
/// `.timerFired` to ``timerFired(generation:)`` and `.emit` to ``emit()``.
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
