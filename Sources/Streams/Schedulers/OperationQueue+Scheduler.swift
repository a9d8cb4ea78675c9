import Dispatch
import Foundation

extension OperationQueue: Scheduler {
    /// A point in time for an operation queue: a `Date` (the same type as a run loop's).
    public typealias SchedulerTimeType = RunLoop.SchedulerTimeType

    /// An operation queue takes no options.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to this queue as an operation.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        addOperation(action)
    }

    /// Adds `action` to this queue as an operation at `date` (a dispatch timer waits until then).
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        let delay = max(0, date.date.timeIntervalSinceNow)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            addOperation(action)
        }
    }

    /// Adds `action` to this queue as an operation at `date`, then every `interval`, until
    /// cancelled (a dispatch timer keeps time).
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping @Sendable () -> Void) -> Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [self] in addOperation(action) }
        let delay = max(0, date.date.timeIntervalSinceNow)
        timer.schedule(deadline: .now() + delay, repeating: interval.timeInterval,
                       leeway: .nanoseconds(Int(clampingSeconds: tolerance.timeInterval)))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
