import Dispatch
import Foundation

extension OperationQueue: Scheduler {
    /// A point in time for an operation queue: a `Date`. A type of its own, as in Combine (it
    /// has the same shape as `RunLoop.SchedulerTimeType`), encoded as `{"date": <date>}`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date.
        public var date: Date

        /// The time `date`.
        public init(_ date: Date) {
            self.date = date
        }

        /// The interval from this time to `other`, in seconds.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        /// This time moved by `n` seconds.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        /// A duration in seconds (`TimeInterval`). Literals are seconds. Encoded as
        /// `{"magnitude": <seconds>}`, as in Combine.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable
        {
            /// The duration in seconds.
            public var magnitude: TimeInterval
            /// The duration in seconds.
            public var timeInterval: TimeInterval { magnitude }

            /// A duration of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
            /// `value` seconds.
            public init(integerLiteral value: Int) { magnitude = TimeInterval(value) }
            /// `value` seconds.
            public init(floatLiteral value: Double) { magnitude = value }
            /// `source` seconds, when it converts exactly.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = TimeInterval(exactly: source) else { return nil }
                magnitude = value
            }

            /// The sum of two durations.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// The difference of two durations.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// The product of two durations' second counts.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds `rhs` to `lhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts `rhs` from `lhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies `lhs` by `rhs`.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
            /// Whether `lhs` is shorter than `rhs`.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
            /// `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            /// `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
            /// `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
            /// `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
        }
    }

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

    /// Adds `action` to this queue as an operation at `date` (a dispatch timer waits until then;
    /// a date too far away to represent is never reached).
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: Self.dispatchTime(of: date)) { [self] in
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
        // In clamped nanoseconds: dispatch traps on a `Double` interval it cannot represent.
        timer.schedule(deadline: Self.dispatchTime(of: date),
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
