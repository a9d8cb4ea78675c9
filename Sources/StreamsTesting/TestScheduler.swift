import Dispatch
import Foundation
import Streams

/// A scheduler on virtual time: nothing it is given runs until the test moves its clock.
///
/// Time-based code takes a scheduler; in a test, hand it a `TestScheduler` and drive time with
/// ``advance(by:)``, ``advance(to:)`` and ``run()``; when the work is handed over by tasks or
/// other threads, `await` ``advance(by:until:timeout:isolation:sourceLocation:)``, which waits
/// for it. Work runs in order of its time, and work due
/// at the same time in the order it was first scheduled — including work scheduled "now" from
/// inside other work, which runs before the clock moves on. Repeating work is scheduled again
/// after each run and keeps its first place in line: at an instant where it is due with other
/// work, it runs before the work scheduled after it was created (two timers made A then B, every
/// second and every two seconds from one start, run A, B, A, A, B), as combine-schedulers' test
/// scheduler does. Work whose cancellable was cancelled never runs.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let scheduler = DispatchQueue.test
/// var output: [Int] = []
/// let c = subject.debounce(for: .seconds(1), scheduler: scheduler).sink { output.append($0) }
/// subject.send(1)
/// scheduler.advance(by: .milliseconds(500))   // output == []
/// scheduler.advance(by: .milliseconds(500))   // output == [1]
/// ```
///
/// Async code that waits on the scheduler (`try await scheduler.sleep(for:)`, `for await` over
/// `scheduler.timer(interval:)`) is driven with `await scheduler.advance(by:)`: the async twin
/// gives the waiting tasks their turn before each piece of work and after the last.
///
/// `DispatchQueue.test`, `RunLoop.test` and `OperationQueue.test` make one whose time types match
/// those schedulers, so it drops in wherever code expects one (or an `AnySchedulerOf` it).
///
/// - Combine compatibility: it stands in for combine-schedulers' `TestScheduler`: the same
///   order of work (by time, then by when it was first scheduled, repeating work keeping its
///   place), the same async API, the same start instants. Differences: the clock never moves
///   backwards (work scheduled for a past time runs at the current time), and the async advance
///   runs in the caller's isolation instead of on the main actor.
///
/// - Threading: safe to use from any thread; work runs on the thread that advances the clock.
public final class TestScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>: Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
    let state: TestSchedulerState<SchedulerTimeType>

    /// A scheduler whose clock starts at `now`.
    ///
    /// - Parameter now: The virtual time the clock starts at.
    public init(now: SchedulerTimeType) {
        state = TestSchedulerState(now: now)
    }

    /// The virtual time: moves only when the test advances it.
    public var now: SchedulerTimeType { state.lock.withLock { state.now } }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Work scheduled and not yet run (repeating work counts once).
    public var pendingCount: Int { state.lock.withLock { state.queue.count } }

    /// Schedules `action` at the current virtual time; it runs when the clock is next advanced
    /// (even by zero).
    ///
    /// - Parameters:
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        state.enqueue(at: nil, action)
    }

    /// Schedules `action` at `date`.
    ///
    /// - Parameters:
    ///   - date: The virtual time to run `action` at.
    ///   - tolerance: Unused: the action runs exactly at `date`.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
        state.enqueue(at: date, action)
    }

    /// Schedules `action` at `date`, then every `interval` after each run, until cancelled.
    ///
    /// - Parameters:
    ///   - date: The virtual time of the first run.
    ///   - interval: The virtual time between runs.
    ///   - tolerance: Unused: each run is exactly on time.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that stops the runs.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        let repeating = RepeatingWork(state: state, interval: interval, action: action)
        repeating.schedule(at: date)
        return AnyCancellable { repeating.cancel() }
    }

    /// Moves the clock forward by `stride` (zero by default: runs what is due now), running
    /// everything due on the way, in order.
    ///
    /// - Parameter stride: How far to move the clock; zero by default.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant`, running everything due on the way, in order. The clock
    /// stands at each piece of work's time while it runs.
    ///
    /// An `instant` already passed does nothing, as in combine-schedulers. Work scheduled for a
    /// time already passed (by work that runs, say) runs at the current time: the clock never
    /// moves backwards (combine-schedulers' clock moves back to that time while it runs).
    ///
    /// - Parameter instant: The virtual time to move the clock to.
    public func advance(to instant: SchedulerTimeType) {
        advanceSynchronously(to: instant)
    }

    /// ``advance(to:)``, under a name of its own for async code that means the synchronous one
    /// (in an `async` context, `advance(to:)` is the `async` overload).
    func advanceSynchronously(to instant: SchedulerTimeType) {
        if instant < now { return }
        while let work = state.takeNext(dueBy: instant) {
            work()
        }
    }

    /// Runs everything scheduled, moving the clock to each piece of work's time, until nothing is
    /// left. Stops the program after a million pieces of work, which means work that schedules
    /// itself forever (a repeating timer: advance by a duration instead).
    public func run() {
        var count = 0
        while let work = state.takeNext(dueBy: nil) {
            count += 1
            if count > 1_000_000 {
                fatalError(
                    "TestScheduler.run(): over a million pieces of work; is a repeating action scheduled? Advance by a duration instead."
                )
            }
            work()
        }
    }
}

/// A test scheduler with the time and options types of `S`: `TestSchedulerOf<DispatchQueue>`.
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension DispatchQueue {
    /// A new virtual-time scheduler with `DispatchQueue`'s time types, starting at an uptime of
    /// one nanosecond (zero would mean "now" to Dispatch).
    public static var test: TestSchedulerOf<DispatchQueue> {
        TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension RunLoop {
    /// A new virtual-time scheduler with `RunLoop`'s time types, starting at the Unix epoch (as
    /// combine-schedulers' does).
    public static var test: TestSchedulerOf<RunLoop> {
        TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension OperationQueue {
    /// A new virtual-time scheduler with `OperationQueue`'s time types, starting at the Unix
    /// epoch (as combine-schedulers' does).
    public static var test: TestSchedulerOf<OperationQueue> {
        TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

/// The clock and the queue of a ``TestScheduler``.
// all fields guarded by `lock`
final class TestSchedulerState<Time: Strideable & Sendable>: @unchecked Sendable where Time.Stride: Sendable {
    struct Work {
        let time: Time
        let sequence: UInt64
        let action: @Sendable () -> Void
    }

    let lock = Lock()
    var now: Time
    var queue: [Work] = []
    private var nextSequence: UInt64 = 0
    /// How many times work was scheduled: a waiter that saw `generation` wakes when it changes.
    private(set) var generation: UInt64 = 0
    /// Tasks waiting for work to be scheduled (``waitForWork(after:until:)``).
    private var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    private var nextWaiter: UInt64 = 0

    init(now: Time) {
        self.now = now
    }

    /// Queues `action` at `time` (`nil`: now) and returns its place in line (for ``remove(_:)``):
    /// after everything already queued for that time, or, given the `sequence` it was first
    /// scheduled with (a repeating action's next run), in that place among work due at `time`.
    /// Wakes the tasks waiting for work.
    @discardableResult
    func enqueue(at time: Time?, sequence given: UInt64? = nil, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        lock.lock()
        let sequence: UInt64
        if let given {
            sequence = given
        } else {
            nextSequence += 1
            sequence = nextSequence
        }
        queue.append(Work(time: time ?? now, sequence: sequence, action: action))
        generation &+= 1
        let woken = waiters
        waiters = [:]
        lock.unlock()
        for waiter in woken.values { waiter.resume(returning: true) }
        return sequence
    }

    /// Suspends until work is scheduled after the scheduler's ``generation`` was `seen` (at
    /// once if it already was), and returns `true`; returns `false` when `deadline` passes or
    /// the task is cancelled first.
    func waitForWork(after seen: UInt64, until deadline: ContinuousClock.Instant) async -> Bool {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                lock.lock()
                if generation != seen || Task.isCancelled {
                    let scheduled = generation != seen
                    lock.unlock()
                    continuation.resume(returning: scheduled)
                    return
                }
                waiters[id] = continuation
                lock.unlock()
                // Whole milliseconds, rounded up, at most a day: Dispatch's interval is an `Int`.
                let milliseconds = (min(remaining, .seconds(86_400)) / .milliseconds(1)).rounded(.up)
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) {
                    self.stopWaiting(id)
                }
            }
        } onCancel: {
            stopWaiting(id)
        }
    }

    /// Ends waiter `id`'s wait without work, if it still waits.
    private func stopWaiting(_ id: UInt64) {
        let waiter = lock.withLock { waiters.removeValue(forKey: id) }
        waiter?.resume(returning: false)
    }

    /// Takes queued work out, so that it never runs.
    func remove(_ sequence: UInt64) {
        lock.withLock { queue.removeAll { $0.sequence == sequence } }
    }

    /// Removes the earliest work due by `deadline` (any, for `nil`), sets the clock to its time,
    /// and returns its action; or, when none is due, moves the clock to `deadline` and returns
    /// `nil`. Picking the earliest afresh each time puts work scheduled by work in its place.
    func takeNext(dueBy deadline: Time?) -> (@Sendable () -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        var best: Int?
        for index in queue.indices {
            let work = queue[index]
            if let deadline, work.time > deadline { continue }
            if let current = best,
                (queue[current].time, queue[current].sequence) <= (work.time, work.sequence)
            {
                continue
            }
            best = index
        }
        guard let index = best else {
            if let deadline, deadline > now { now = deadline }
            return nil
        }
        let work = queue.remove(at: index)
        if work.time > now { now = work.time }
        return work.action
    }
}

/// A repeating action on a test scheduler: each run schedules the next, until cancelled.
///
/// Every run keeps the place in line the action was first scheduled with: among work due at
/// the same instant, a timer created before other work runs before it at every tick, as in
/// combine-schedulers' test scheduler (two timers made A then B, every 1 and every 2 from the
/// same start, run A, B, A, A, B).
// `cancelled`, `queued` guarded by `lock`
private final class RepeatingWork<Time: Strideable & Sendable>: @unchecked Sendable
where Time.Stride: Sendable {
    let state: TestSchedulerState<Time>
    let interval: Time.Stride
    let action: @Sendable () -> Void
    let lock = Lock()
    var cancelled = false
    /// The place in line of the queued run, the same for every run; `nil` once cancelled.
    var queued: UInt64?

    init(state: TestSchedulerState<Time>, interval: Time.Stride, action: @escaping @Sendable () -> Void) {
        self.state = state
        self.interval = interval
        self.action = action
    }

    func schedule(at time: Time) {
        let place = lock.withLock { queued }
        let sequence = state.enqueue(at: time, sequence: place) { [self] in
            if lock.withLock({ cancelled }) { return }
            schedule(at: time.advanced(by: interval))
            action()
        }
        lock.lock()
        let isCancelled = cancelled
        if !isCancelled { queued = sequence }
        lock.unlock()
        if isCancelled { state.remove(sequence) }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let sequence = queued
        queued = nil
        lock.unlock()
        if let sequence { state.remove(sequence) }
    }
}
