import Dispatch
import Foundation

/// A scheduler that hides the type of the scheduler it wraps.
///
/// Inject schedulers this way: code takes an `AnySchedulerOf<DispatchQueue>`; production passes
/// `DispatchQueue.main.eraseToAnyScheduler()`, tests pass a virtual-time test scheduler
/// (StreamsTesting's `DispatchQueue.test.eraseToAnyScheduler()`), and the code cannot tell.
///
/// ```swift
/// struct Environment {
///     var mainQueue: AnySchedulerOf<DispatchQueue>
/// }
/// let live = Environment(mainQueue: DispatchQueue.main.eraseToAnyScheduler())
/// ```
///
/// The wrapped scheduler must be `Sendable` (dispatch and operation queues and the test scheduler
/// are). A `RunLoop` is not: only the main one can be erased (`RunLoop.main.eraseToAnyScheduler()`,
/// or `.main`), because it can be found again from any thread. `.main` and `.global(qos:)` are
/// the erased main and global dispatch queues.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, Sendable
where
    SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible, SchedulerTimeType: Sendable,
    SchedulerTimeType.Stride: Sendable, SchedulerOptions: SendableMetatype
{
    private let nowBody: @Sendable () -> SchedulerTimeType
    private let minimumToleranceBody: @Sendable () -> SchedulerTimeType.Stride
    private let scheduleBody: @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void
    private let scheduleAfterBody:
        @Sendable (
            SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping @Sendable () -> Void
        ) -> Void
    private let scheduleRepeatingBody:
        @Sendable (
            SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride,
            SchedulerOptions?, @escaping @Sendable () -> Void
        ) -> Cancellable

    /// Wraps `scheduler`.
    ///
    /// - Parameter scheduler: The scheduler to wrap; it must be `Sendable`.
    public init<S: Scheduler & Sendable>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        nowBody = { scheduler.now }
        minimumToleranceBody = { scheduler.minimumTolerance }
        scheduleBody = { scheduler.schedule(options: $0, $1) }
        scheduleAfterBody = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
        scheduleRepeatingBody = { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) }
    }

    /// Makes a scheduler out of closures, for a scheduler with special behaviour in a test or a
    /// preview.
    ///
    /// - Parameters:
    ///   - minimumTolerance: A closure that returns the scheduler's minimum tolerance.
    ///   - now: A closure that returns the scheduler's current time.
    ///   - scheduleImmediately: A closure that takes the options and an action, and runs the action
    ///     as soon as possible.
    ///   - delayed: A closure that takes a time, a tolerance, the options and an action, and runs
    ///     the action at that time.
    ///   - interval: A closure that takes a start time, an interval, a tolerance, the options and
    ///     an action, runs the action at the start time and then at each interval, and returns a
    ///     cancellable that stops it.
    public init(
        minimumTolerance: @escaping @Sendable () -> SchedulerTimeType.Stride,
        now: @escaping @Sendable () -> SchedulerTimeType,
        scheduleImmediately: @escaping @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void,
        delayed:
            @escaping @Sendable (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?,
                @escaping @Sendable () -> Void
            ) -> Void,
        interval:
            @escaping @Sendable (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride,
                SchedulerOptions?, @escaping @Sendable () -> Void
            ) -> Cancellable
    ) {
        nowBody = now
        minimumToleranceBody = minimumTolerance
        scheduleBody = scheduleImmediately
        scheduleAfterBody = delayed
        scheduleRepeatingBody = interval
    }

    /// The wrapped scheduler's current time.
    public var now: SchedulerTimeType { nowBody() }
    /// The wrapped scheduler's minimum tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

    /// Schedules `action` on the wrapped scheduler.
    ///
    /// - Parameters:
    ///   - options: Options for the wrapped scheduler, or `nil`.
    ///   - action: The work to run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        scheduleBody(options, action)
    }

    /// Schedules `action` at `date` on the wrapped scheduler.
    ///
    /// - Parameters:
    ///   - date: The time to run `action` at.
    ///   - tolerance: How late the action may run.
    ///   - options: Options for the wrapped scheduler, or `nil`.
    ///   - action: The work to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
        scheduleAfterBody(date, tolerance, options, action)
    }

    /// Schedules repeating `action` on the wrapped scheduler.
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: Options for the wrapped scheduler, or `nil`.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that stops the runs.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        scheduleRepeatingBody(date, interval, tolerance, options, action)
    }
}

/// The type-erased scheduler with the same time and options as `S`:
/// `AnySchedulerOf<DispatchQueue>`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler
where
    Self: Sendable, SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable,
    SchedulerOptions: SendableMetatype
{
    /// Wraps this scheduler in an ``AnyScheduler``.
    ///
    /// - Returns: An ``AnyScheduler`` that wraps this scheduler.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

extension AnyScheduler {
    /// Returns itself: erasing twice adds nothing.
    ///
    /// - Returns: This scheduler.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> { self }
}

// MARK: - The main and global schedulers, erased

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// The main dispatch queue, erased: `DispatchQueue.main.eraseToAnyScheduler()`.
    ///
    /// ```swift
    /// struct Environment { var mainQueue: AnySchedulerOf<DispatchQueue> }
    /// let live = Environment(mainQueue: .main)
    /// ```
    public static var main: Self {
        DispatchQueue.main.eraseToAnyScheduler()
    }

    /// A global dispatch queue of quality of service `qos`, erased.
    ///
    /// ```swift
    /// let background: AnySchedulerOf<DispatchQueue> = .global(qos: .background)
    /// ```
    ///
    /// - Parameter qos: The quality of service of the queue; `.default` by default.
    /// - Returns: The global queue of that quality of service, erased.
    public static func global(qos: DispatchQoS.QoSClass = .default) -> Self {
        DispatchQueue.global(qos: qos).eraseToAnyScheduler()
    }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
    /// The main operation queue, erased.
    ///
    /// ```swift
    /// let main: AnySchedulerOf<OperationQueue> = .main
    /// ```
    public static var main: Self {
        OperationQueue.main.eraseToAnyScheduler()
    }
}

extension AnyScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
    /// The main run loop, erased.
    ///
    /// A `RunLoop` is not `Sendable`, so it cannot be captured by the erased scheduler's closures;
    /// these look up `RunLoop.main` each time instead (scheduling on the main run loop from any
    /// thread goes through `perform` and timers, which Foundation makes safe).
    ///
    /// ```swift
    /// let main: AnySchedulerOf<RunLoop> = .main
    /// ```
    public static var main: Self {
        AnyScheduler(
            minimumTolerance: { RunLoop.main.minimumTolerance },
            now: { RunLoop.main.now },
            scheduleImmediately: { RunLoop.main.schedule(options: $0, $1) },
            delayed: { RunLoop.main.schedule(after: $0, tolerance: $1, options: $2, $3) },
            interval: { RunLoop.main.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) })
    }
}

extension RunLoop {
    /// Wraps the main run loop in an ``AnyScheduler``: `RunLoop.main.eraseToAnyScheduler()`.
    ///
    /// Only the main run loop can be erased: a `RunLoop` is not `Sendable`, and the main one is the
    /// only one the erased scheduler can find again from any thread (`AnySchedulerOf<RunLoop>.main`
    /// says how). Erasing another thread's run loop stops the program with a message saying so;
    /// give that code a `DispatchQueue` instead.
    ///
    /// ```swift
    /// let main = RunLoop.main.eraseToAnyScheduler()
    /// ```
    ///
    /// - Returns: `AnySchedulerOf<RunLoop>.main`.
    public func eraseToAnyScheduler() -> AnySchedulerOf<RunLoop> {
        guard self === RunLoop.main else {
            fatalError(
                "eraseToAnyScheduler(): only RunLoop.main can be erased (a RunLoop is not Sendable, and only "
                    + "the main one can be found again from any thread); use a DispatchQueue for other threads")
        }
        return .main
    }
}
