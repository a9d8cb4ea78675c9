/// A scheduler that runs every action at once, on the calling thread, whatever time it is asked
/// for.
///
/// Useful to make a time-based operator synchronous, or in tests of code that takes a scheduler
/// but whose timing does not matter. Its clock never moves.
///
/// ```swift
/// ImmediateScheduler.shared.schedule { print("now") }   // Prints: now (before returning)
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The immediate scheduler's time: a count of ticks that never advances by itself.
    public struct SchedulerTimeType: Strideable, Sendable {
        /// A number of ticks.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Hashable, Sendable
        {
            /// The number of ticks.
            public var magnitude: Int

            /// A stride of `value` ticks.
            public init(_ value: Int) { magnitude = value }
            /// A stride of `value` ticks.
            public init(integerLiteral value: Int) { magnitude = value }
            /// A stride of `value` ticks, rounded toward zero.
            public init(floatLiteral value: Double) { magnitude = Int(value) }
            /// A stride of `source` ticks, when it is an exact integer.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// The sum of two strides.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// The difference of two strides.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// The product of two strides.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds `rhs` to `lhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts `rhs` from `lhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies `lhs` by `rhs`.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
            /// Whether `lhs` is shorter than `rhs`.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// `s` ticks.
            public static func seconds(_ s: Int) -> Stride { Stride(s) }
            /// `s` ticks, rounded toward zero.
            public static func seconds(_ s: Double) -> Stride { Stride(Int(s)) }
            /// `ms` ticks.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(ms) }
            /// `us` ticks.
            public static func microseconds(_ us: Int) -> Stride { Stride(us) }
            /// `ns` ticks.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(ns) }
        }

        let ticks: Int

        /// The distance from this time to `other`.
        public func distance(to other: SchedulerTimeType) -> Stride { Stride(other.ticks - ticks) }
        /// This time moved by `n`.
        public func advanced(by n: Stride) -> SchedulerTimeType { SchedulerTimeType(ticks: ticks + n.magnitude) }
    }

    /// No options.
    public typealias SchedulerOptions = Never

    /// The immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// Always the same instant.
    public var now: SchedulerTimeType { SchedulerTimeType(ticks: 0) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` now.
    public func schedule(options: Never?, _ action: @escaping @Sendable () -> Void) {
        action()
    }

    /// Runs `action` now, ignoring `date`.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
                         _ action: @escaping @Sendable () -> Void) {
        action()
    }

    /// Runs `action` once, now; repeating is meaningless without a clock.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: Never?,
                         _ action: @escaping @Sendable () -> Void) -> Cancellable {
        action()
        return Subscriptions.empty
    }
}
