/// A scheduler that hides the type of the scheduler it wraps.
///
/// Inject schedulers this way: code takes an `AnySchedulerOf<DispatchQueue>`; production passes
/// `AnyScheduler(DispatchQueue.main)`, tests pass a virtual-time test scheduler
/// (StreamsTesting's `AnyScheduler(DispatchQueue.test)`), and the code cannot tell.
///
/// ```swift
/// struct Environment {
///     var mainQueue: AnySchedulerOf<DispatchQueue>
/// }
/// let live = Environment(mainQueue: AnyScheduler(DispatchQueue.main))
/// ```
///
/// Combine has no type-erased scheduler. Streams declares no `eraseToAnyScheduler()` on
/// ``Scheduler``: Point-Free's combine-schedulers declares that name (with an `AnyScheduler` of
/// its own), and a library that brings it along must compile unchanged against Streams. The
/// ComposableArchitecture module, which plays the part of the Composable Architecture (whose
/// apps get combine-schedulers with it), declares `eraseToAnyScheduler()`.
///
/// The wrapped scheduler must be `Sendable` (dispatch and operation queues and the test scheduler
/// are; a `RunLoop` is not, so it cannot be wrapped).
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible, SchedulerTimeType: Sendable,
    SchedulerTimeType.Stride: Sendable, SchedulerOptions: SendableMetatype
{
    private let nowBody: @Sendable () -> SchedulerTimeType
    private let minimumToleranceBody: @Sendable () -> SchedulerTimeType.Stride
    private let scheduleBody: @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void
    private let scheduleAfterBody: @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?,
                                              @escaping @Sendable () -> Void) -> Void
    private let scheduleRepeatingBody: @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride,
                                                  SchedulerOptions?, @escaping @Sendable () -> Void) -> Cancellable

    /// Wraps `scheduler`.
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
    public init(
        minimumTolerance: @escaping @Sendable () -> SchedulerTimeType.Stride,
        now: @escaping @Sendable () -> SchedulerTimeType,
        scheduleImmediately: @escaping @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void,
        delayed: @escaping @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?,
                                      @escaping @Sendable () -> Void) -> Void,
        interval: @escaping @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride,
                                       SchedulerOptions?, @escaping @Sendable () -> Void) -> Cancellable
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
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        scheduleBody(options, action)
    }

    /// Schedules `action` at `date` on the wrapped scheduler.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        scheduleAfterBody(date, tolerance, options, action)
    }

    /// Schedules repeating `action` on the wrapped scheduler.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping @Sendable () -> Void) -> Cancellable {
        scheduleRepeatingBody(date, interval, tolerance, options, action)
    }
}

/// The type-erased scheduler with the same time and options as `S`:
/// `AnySchedulerOf<DispatchQueue>`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>
