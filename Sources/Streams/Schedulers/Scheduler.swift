/// A type that can express a time interval in seconds, milliseconds, microseconds and
/// nanoseconds: the `Stride` of every scheduler's time type.
public protocol SchedulerTimeIntervalConvertible {
    /// An interval of `s` seconds.
    ///
    /// - Parameter s: The number of seconds.
    /// - Returns: An interval of `s` seconds.
    static func seconds(_ s: Int) -> Self
    /// An interval of `s` seconds (fractions allowed).
    ///
    /// - Parameter s: The number of seconds, fractions allowed.
    /// - Returns: An interval of `s` seconds.
    static func seconds(_ s: Double) -> Self
    /// An interval of `ms` milliseconds.
    ///
    /// - Parameter ms: The number of milliseconds.
    /// - Returns: An interval of `ms` milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// An interval of `us` microseconds.
    ///
    /// - Parameter us: The number of microseconds.
    /// - Returns: An interval of `us` microseconds.
    static func microseconds(_ us: Int) -> Self
    /// An interval of `ns` nanoseconds.
    ///
    /// - Parameter ns: The number of nanoseconds.
    /// - Returns: An interval of `ns` nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}

/// Something that runs closures: now, after a moment, or repeatedly. Time-based operators
/// (`delay`, `debounce`, `receive(on:)`, ...) do all their waiting through one, so a test can
/// swap in a virtual-time scheduler and control time exactly ([S13]).
///
/// `DispatchQueue`, `RunLoop` and `OperationQueue` are schedulers, as in Combine, as are
/// ``ImmediateScheduler`` (runs everything at once) and ``AnyScheduler`` (type-erased, to inject
/// a real scheduler in production and a test one in tests). StreamsTesting's `TestScheduler`
/// runs on virtual time.
///
/// ```swift
/// DispatchQueue.main.schedule(after: DispatchQueue.main.now.advanced(by: .seconds(1))) {
///     print("a second later")
/// }
/// ```
///
/// - Combine compatibility: the actions are `@Sendable`: a scheduler may run them on another
///   thread, and Swift 6 checks what they capture (see "Deviations from Combine").
///
/// [S13]: doc:/Contract/StreamContract#S13
public protocol Scheduler<SchedulerTimeType> {
    /// The scheduler's notion of a point in time; its `Stride` is a duration.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible
    /// Options that affect how actions are run (for a dispatch queue: quality of service, ...).
    associatedtype SchedulerOptions

    /// The scheduler's current time.
    var now: SchedulerTimeType { get }
    /// The smallest tolerance the scheduler allows when running an action after a delay.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as possible.
    ///
    /// - Parameters:
    ///   - options: Options for the scheduler, or `nil`.
    ///   - action: The work to run.
    func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void)

    /// Runs `action` at `date` (or up to `tolerance` later).
    ///
    /// - Parameters:
    ///   - date: The time to run `action` at.
    ///   - tolerance: How late the action may run.
    ///   - options: Options for the scheduler, or `nil`.
    ///   - action: The work to run.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void)

    /// Runs `action` at `date` and then every `interval`, until the returned cancellable is
    /// cancelled.
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: Options for the scheduler, or `nil`.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that stops the runs.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable
}

extension Scheduler {
    /// Runs `action` as soon as possible, with no options.
    ///
    /// - Parameter action: The work to run.
    @inlinable
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` at `date`, with the minimum tolerance and no options.
    ///
    /// - Parameters:
    ///   - date: The time to run `action` at.
    ///   - action: The work to run.
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping @Sendable () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Runs `action` at `date` (or up to `tolerance` later), with no options.
    ///
    /// - Parameters:
    ///   - date: The time to run `action` at.
    ///   - tolerance: How late the action may run.
    ///   - action: The work to run.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping @Sendable () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` at `date` and then every `interval`, until cancelled; no options.
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that stops the runs.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` at `date` and then every `interval`, until cancelled; minimum tolerance, no
    /// options.
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that stops the runs.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }
}
