import Dispatch
import Foundation

extension OperationQueue: Scheduler {
    /// A point in time for an operation queue: a `Date`. A ``DateSchedulerTime`` of its own, so a
    /// type distinct from the other Foundation schedulers' (as in Combine), with its own `Stride`.
    public typealias SchedulerTimeType = DateSchedulerTime<OperationQueue>

    /// An operation queue takes no options.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to this queue as an operation.
    ///
    /// - Parameters:
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        addOperation(action)
    }

    /// Adds `action` to this queue at once, as an operation that becomes ready at `date`.
    ///
    /// As in Combine, the operation is in the queue from now on: `operationCount` counts it,
    /// `cancelAllOperations()` cancels it (it then never runs), `waitUntilAllOperationsAreFinished()`
    /// waits for it, and a suspended queue (`isSuspended`) holds it. It depends on a gate
    /// operation that a dispatch timer finishes at `date` (a date too far away to represent is
    /// never reached).
    ///
    /// - Parameters:
    ///   - date: The time at which the operation becomes ready.
    ///   - tolerance: Unused: the operation becomes ready as close to `date` as dispatch allows.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
        let gate = BlockOperation {}
        let operation = BlockOperation(block: action)
        operation.addDependency(gate)
        addOperation(operation)
        DispatchQueue.global().asyncAfter(deadline: Self.dispatchTime(of: date)) {
            gate.start()
        }
    }

    /// Adds `action` to this queue as an operation at `date`, then every `interval`, until
    /// cancelled (a dispatch timer keeps time).
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that stops the runs.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [self] in addOperation(action) }
        // In clamped nanoseconds: dispatch traps on a `Double` interval it cannot represent.
        timer.schedule(
            deadline: Self.dispatchTime(of: date),
            repeating: .nanoseconds(Int(clampingSeconds: interval.timeInterval)),
            leeway: .nanoseconds(Int(clampingSeconds: tolerance.timeInterval)))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }

    /// The dispatch time of `date`: now if it is past, the distant future if it is too far away.
    private static func dispatchTime(of date: SchedulerTimeType) -> DispatchTime {
        .now() + .nanoseconds(Int(clampingSeconds: max(0, date.date.timeIntervalSinceNow)))
    }
}
