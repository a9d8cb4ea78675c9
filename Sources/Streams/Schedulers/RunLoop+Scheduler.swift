import Foundation

extension RunLoop: Scheduler {
    /// A point in time for a run loop: a `Date`. A ``DateSchedulerTime`` of its own, so a
    /// type distinct from the other Foundation schedulers' (as in Combine), with its own `Stride`.
    public typealias SchedulerTimeType = DateSchedulerTime<RunLoop>

    /// A run loop takes no options.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` on this run loop's thread, the next time the run loop runs.
    ///
    /// - Parameters:
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        perform(action)
    }

    /// Runs `action` on this run loop's thread at `date` (a one-shot timer in the default mode).
    ///
    /// - Parameters:
    ///   - date: The time to run `action` at.
    ///   - tolerance: How late the action may run (the timer's tolerance).
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Runs `action` on this run loop's thread at `date`, then every `interval`, until cancelled
    /// (a repeating timer in the default mode).
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be (the timer's tolerance).
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that invalidates the timer.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in action() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        return AnyCancellable { timer.invalidate() }
    }
}
