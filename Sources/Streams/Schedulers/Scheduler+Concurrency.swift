// Waiting on a scheduler from async code: `sleep` and an asynchronous `timer`. Every scheduler
// has them, so a feature that sleeps on an injected scheduler is tested on virtual time: give it
// a `TestScheduler` and `await scheduler.advance(by:)`. (`SendableMetatype`: every concrete time
// type is one; the timer's closures, which run on the scheduler's threads, name the type.)

extension Scheduler where SchedulerTimeType: SendableMetatype {
    /// Suspends the current task for `duration` of this scheduler's time.
    ///
    /// The wait is scheduled on this scheduler, so on a `TestScheduler` it ends when the test
    /// moves the clock past it (`await scheduler.advance(by:)`), not in real time. Cancelling the
    /// task ends the wait at once, with `CancellationError`.
    ///
    /// ```swift
    /// func autosave(on scheduler: some Scheduler<DispatchQueue.SchedulerTimeType>) async throws {
    ///     try await scheduler.sleep(for: .seconds(5))
    ///     print("saved")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - duration: How long to wait, in the scheduler's time.
    ///   - tolerance: How late the wake-up may be; zero by default.
    ///   - options: Options for the scheduler.
    ///   - isolation: Where the caller runs; the wait stays there (so a scheduler that is not
    ///     `Sendable` can be used from an actor).
    /// - Throws: `CancellationError` if the task is cancelled before or during the wait.
    /// - Combine compatibility: Combine has no async API on schedulers; this is combine-schedulers'.
    public func sleep(
        for duration: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try Task.checkCancellation()
        let alarm = SleepAlarm()
        await withTaskCancellationHandler {
            // Resumed by the scheduler's action straight onto the caller's isolation: on a
            // `TestScheduler` driven from the same actor, the task runs before the advance goes on.
            await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, Never>) in
                alarm.wait(continuation)
                // A repeating schedule, for its cancellable: the alarm cancels it when it rings.
                let schedule = schedule(
                    after: now.advanced(by: duration), interval: duration, tolerance: tolerance,
                    options: options
                ) { alarm.ring() }
                alarm.hold(schedule)
            }
        } onCancel: {
            alarm.ring()
        }
        try Task.checkCancellation()
    }

    /// Suspends the current task until this scheduler's clock reaches `deadline`; at once if it
    /// already has.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.main
    /// let deadline = scheduler.now.advanced(by: .seconds(1))
    /// // in an async context: try await scheduler.sleep(until: deadline)
    /// ```
    ///
    /// - Parameters:
    ///   - deadline: The time to wait for.
    ///   - tolerance: How late the wake-up may be; zero by default.
    ///   - options: Options for the scheduler.
    ///   - isolation: Where the caller runs; the wait stays there.
    /// - Throws: `CancellationError` if the task is cancelled before or during the wait.
    public func sleep(
        until deadline: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try await sleep(for: now.distance(to: deadline), tolerance: tolerance, options: options, isolation: isolation)
    }

    /// An asynchronous sequence of this scheduler's time every `interval`, from one `interval`
    /// from now, until the iterating task stops (or is cancelled).
    ///
    /// Each element is the time of its tick: `now + interval`, `now + 2 × interval`, ... — on a
    /// `TestScheduler` exactly the clock's time when the tick runs; on a real scheduler the time
    /// the tick was due. Ticks the iterating task has not taken yet wait for it, in order. When
    /// the iteration ends, the repeating schedule is cancelled.
    ///
    /// ```swift
    /// func countdown(on scheduler: some Scheduler<DispatchQueue.SchedulerTimeType>) async {
    ///     var left = 3
    ///     for await _ in scheduler.timer(interval: .seconds(1)) {
    ///         left -= 1
    ///         if left == 0 { break }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time between two ticks.
    ///   - tolerance: How late a tick may be; zero by default.
    ///   - options: Options for the scheduler.
    /// - Returns: The ticks, as an `AsyncStream`.
    /// - Combine compatibility: Combine has no async API on schedulers; this is combine-schedulers'.
    public func timer(
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil
    ) -> AsyncStream<SchedulerTimeType> {
        AsyncStream { continuation in
            let start = now.advanced(by: interval)
            let ticks = TimerTicks(continuation, first: start, interval: interval)
            let repeating = schedule(after: start, interval: interval, tolerance: tolerance, options: options) {
                ticks.tick()
            }
            ticks.hold(repeating)
        }
    }
}

/// The clock of one asynchronous ``Scheduler/timer(interval:tolerance:options:)``: the time of
/// the next tick, and the repeating schedule to cancel when the iteration ends.
// `upcoming`, `schedule`, `cancelled` guarded by `lock`
final class TimerTicks<Time: Strideable & SendableMetatype>: @unchecked Sendable {
    private let lock = Lock()
    private let continuation: AsyncStream<Time>.Continuation
    private var upcoming: Time
    private let interval: Time.Stride
    private var schedule: (any Cancellable)?
    private var cancelled = false

    init(_ continuation: AsyncStream<Time>.Continuation, first: Time, interval: Time.Stride) {
        self.continuation = continuation
        upcoming = first
        self.interval = interval
        continuation.onTermination = { [weak self] _ in self?.cancel() }
    }

    /// Yields the time of the tick that is running; the next one is an `interval` later.
    func tick() {
        let tick = lock.withLock {
            let tick = upcoming
            upcoming = upcoming.advanced(by: interval)
            return tick
        }
        continuation.yield(tick)
    }

    /// Keeps the repeating schedule, or cancels it if the iteration has ended already.
    func hold(_ schedule: any Cancellable) {
        let stopped = lock.withLock { () -> Bool in
            if cancelled { return true }
            self.schedule = schedule
            return false
        }
        if stopped { schedule.cancel() }
    }

    /// The iteration ended: cancels the repeating schedule.
    func cancel() {
        let schedule = lock.withLock { () -> (any Cancellable)? in
            cancelled = true
            return self.schedule.take()
        }
        schedule?.cancel()
    }
}

/// One `sleep`: the waiting task's continuation, resumed once — by the scheduler's action or by
/// the task's cancellation, whichever comes first — and the schedule to cancel then.
final class SleepAlarm: @unchecked Sendable {  // every field guarded by `lock`
    private let lock = Lock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var schedule: (any Cancellable)?
    private var rung = false

    /// Keeps the sleeping task's continuation (resumes it at once if the alarm already rang).
    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let ringNow = lock.withLock { () -> Bool in
            if rung { return true }
            self.continuation = continuation
            return false
        }
        if ringNow { continuation.resume() }
    }

    /// Keeps the schedule, or cancels it if the alarm already rang.
    func hold(_ schedule: any Cancellable) {
        let cancelNow = lock.withLock { () -> Bool in
            if rung { return true }
            self.schedule = schedule
            return false
        }
        if cancelNow { schedule.cancel() }
    }

    /// Wakes the task (once) and cancels the schedule.
    func ring() {
        let (continuation, schedule) = lock.withLock { () -> (CheckedContinuation<Void, Never>?, (any Cancellable)?) in
            rung = true
            return (self.continuation.take(), self.schedule.take())
        }
        schedule?.cancel()
        continuation?.resume()
    }
}
