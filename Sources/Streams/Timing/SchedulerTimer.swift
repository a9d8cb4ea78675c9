// Engine: Engines/TimerCore.swift.

/// A connectable publisher that sends the time of a ``Scheduler`` every interval: the
/// scheduler-driven counterpart of Foundation's `Timer.publish(every:on:in:)`.
///
/// Make one with ``publish(every:tolerance:on:options:)``. The timer starts on ``connect()``
/// (or with `autoconnect()`) and sends `scheduler.now` at each tick, the first one `interval`
/// after connecting. Every attached subscriber with demand gets the tick; one without demand
/// misses it, as with Combine's timer. Connecting while connected returns the running
/// connection; after the connection is cancelled, `connect()` starts a new one.
///
/// Because it schedules through any ``Scheduler``, code that needs a timer can take one as a
/// dependency and a test can pass a virtual-time scheduler:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
/// var count = 0
/// let c = timer.autoconnect().sink { _ in count += 1 }
/// scheduler.advance(by: .seconds(5))
/// print(count)
/// // Prints: 5
/// ```
///
/// - Combine compatibility: not in Combine, which only has Foundation's `Timer.publish` (a run
///   loop timer). It is a top-level type of Streams, not a member of `Publishers` or a method of
///   `Scheduler`, so that a library's own `Publishers.Timer` and `timerPublisher(every:)` (as
///   Point-Free's combine-schedulers and CombineExt declare them) keep compiling unchanged
///   against Streams. Code written for those spells it
///   `SchedulerTimer.publish(every: interval, on: scheduler)`.
public final class SchedulerTimer<Context: Scheduler>: ConnectablePublisher {
    /// The scheduler's time at the tick.
    public typealias Output = Context.SchedulerTimeType
    /// A timer cannot fail.
    public typealias Failure = Never

    /// The time between two ticks.
    public let interval: Context.SchedulerTimeType.Stride
    /// How late a tick may be; `nil` means the scheduler's minimum tolerance.
    public let tolerance: Context.SchedulerTimeType.Stride?
    /// The scheduler the ticks are scheduled on and delivered on.
    public let scheduler: Context
    /// Options for the scheduler's repeating schedule.
    public let options: Context.SchedulerOptions?
    @usableFromInline let core: TimerCore<Context.SchedulerTimeType>

    /// A connectable publisher that ticks every `interval` on `scheduler`, sending the
    /// scheduler's time at each tick.
    ///
    /// Nothing happens until the publisher is connected: call `connect()`, or use
    /// `autoconnect()` to connect on the first subscriber. The first tick comes one `interval`
    /// after connecting, then one every `interval`. Because it runs on any ``Scheduler``, a test
    /// can drive it with a virtual-time scheduler instead of waiting.
    ///
    /// <!-- marble SchedulerTimer-publish scheduler source: SchedulerTimer.publish(every: .seconds(2), on: scheduler).autoconnect().map(seconds) -->
    /// ```text
    ///         SchedulerTimer.publish(every: 2 ticks, on: scheduler).autoconnect(), subscribed at tick 0
    /// output: --2-4-6-    (each value the scheduler's time, shown in ticks since the start)
    /// ```
    ///
    /// ![Marble diagram of SchedulerTimer.publish](marble-SchedulerTimer-publish)
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let start = scheduler.now
    /// let c = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
    ///     .autoconnect()
    ///     .sink { print(start.distance(to: $0) == .seconds(1)) }
    /// scheduler.advance(by: .seconds(1))
    /// // Prints: true
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time between two ticks.
    ///   - tolerance: How late a tick may be; `nil` (the default) is the scheduler's
    ///     ``Scheduler/minimumTolerance``.
    ///   - scheduler: The scheduler the ticks are scheduled on and delivered on.
    ///   - options: Options for the scheduler's repeating schedule.
    /// - Returns: A connectable publisher of the scheduler's time at each tick.
    /// - Demand: a tick goes to each subscriber that has demand at that moment; a subscriber
    ///   without demand misses the tick (it is not saved for later). Asking for `.none` does
    ///   nothing, as in Combine ([S9]).
    /// - Completion: never completes.
    /// - Cancellation: cancelling a subscriber detaches it; cancelling the connection stops the
    ///   repeating schedule.
    /// - Threading: ticks are delivered where the scheduler runs its actions ([S13]).
    /// - Combine compatibility: not in Combine; shaped as Foundation's
    ///   `Timer.publish(every:tolerance:on:in:options:)`, with a scheduler for the run loop and
    ///   its mode. Replaces `scheduler.timerPublisher(every:)` and `Publishers.Timer(every:scheduler:)`
    ///   of earlier Streams (and of combine-schedulers).
    /// - Complexity: O(subscribers) per tick.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S13]: doc:/Contract/StreamContract#S13
    public static func publish(
        every interval: Context.SchedulerTimeType.Stride,
        tolerance: Context.SchedulerTimeType.Stride? = nil,
        on scheduler: Context,
        options: Context.SchedulerOptions? = nil
    ) -> SchedulerTimer {
        SchedulerTimer(interval: interval, tolerance: tolerance, scheduler: scheduler, options: options)
    }

    /// Creates a timer that ticks every `interval` on `scheduler` once connected: the same as
    /// ``publish(every:tolerance:on:options:)``.
    ///
    /// - Parameters:
    ///   - interval: The time between two ticks.
    ///   - tolerance: How late a tick may be; `nil` (the default) is the scheduler's
    ///     ``Scheduler/minimumTolerance``.
    ///   - scheduler: The scheduler the ticks are scheduled on and delivered on.
    ///   - options: Options for the scheduler's repeating schedule.
    public init(
        interval: Context.SchedulerTimeType.Stride,
        tolerance: Context.SchedulerTimeType.Stride? = nil,
        scheduler: Context,
        options: Context.SchedulerOptions? = nil
    ) {
        self.interval = interval
        self.tolerance = tolerance
        self.scheduler = scheduler
        self.options = options
        core = TimerCore { [scheduler] in scheduler.now }
    }

    /// Attaches `subscriber`; it receives the ticks that find it with demand.
    ///
    /// - Parameter subscriber: The subscriber that receives the scheduler's time at each tick.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        core.attach(subscriber)
    }

    /// Starts ticking (or returns the running connection); cancel the result to stop. Safe to
    /// call from any thread when the scheduler is.
    ///
    /// - Returns: A cancellable that stops the ticks.
    public func connect() -> Cancellable {
        core.connect { tick in
            scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                interval: interval,
                tolerance: tolerance ?? scheduler.minimumTolerance,
                options: options,
                tick
            )
        }
    }
}

extension SchedulerTimer: Sendable
where Context: Sendable, Context.SchedulerTimeType.Stride: Sendable, Context.SchedulerOptions: Sendable {}
