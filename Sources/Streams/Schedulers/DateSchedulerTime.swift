import Foundation

/// A point in time on a Foundation scheduler that keeps time by the wall clock: a `Date`,
/// encoded as `{"date": <date>}`, as in Combine.
///
/// `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` are this type, each with
/// its own scheduler as `Clock`: they behave alike, yet stay two distinct types (with two
/// distinct `Stride`s), as they are in Combine. `Clock` only tells them apart; no value of it is
/// stored.
public struct DateSchedulerTime<Clock>: Strideable, Codable, Hashable, Sendable {
    /// The date.
    public var date: Date

    /// The time `date`.
    ///
    /// - Parameter date: The date this time stands for.
    public init(_ date: Date) {
        self.date = date
    }

    /// The interval from this time to `other`, in seconds.
    ///
    /// - Parameter other: Another time.
    /// - Returns: The interval to `other`, negative if `other` is earlier.
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSince(date))
    }

    /// This time moved by `n` seconds.
    ///
    /// - Parameter n: The interval to move by; negative moves back.
    /// - Returns: The time `n` after this one.
    public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.timeInterval))
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
        ///
        /// - Parameter timeInterval: The duration in seconds.
        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
        /// `value` seconds.
        ///
        /// - Parameter value: The duration in whole seconds.
        public init(integerLiteral value: Int) { magnitude = TimeInterval(value) }
        /// `value` seconds.
        ///
        /// - Parameter value: The duration in seconds.
        public init(floatLiteral value: Double) { magnitude = value }
        /// `source` seconds, when it converts exactly.
        ///
        /// - Parameter source: The duration in whole seconds.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let value = TimeInterval(exactly: source) else { return nil }
            magnitude = value
        }

        /// The sum of two durations.
        ///
        /// - Parameters:
        ///   - lhs: A duration.
        ///   - rhs: The duration to add.
        /// - Returns: The sum.
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
        /// The difference of two durations.
        ///
        /// - Parameters:
        ///   - lhs: A duration.
        ///   - rhs: The duration to subtract.
        /// - Returns: The difference.
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
        /// The product of two durations' second counts.
        ///
        /// - Parameters:
        ///   - lhs: A duration.
        ///   - rhs: The duration to multiply by.
        /// - Returns: The product.
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
        /// Adds `rhs` to `lhs`.
        ///
        /// - Parameters:
        ///   - lhs: The duration to add to.
        ///   - rhs: The duration to add.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        /// Subtracts `rhs` from `lhs`.
        ///
        /// - Parameters:
        ///   - lhs: The duration to subtract from.
        ///   - rhs: The duration to subtract.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// Multiplies `lhs` by `rhs`.
        ///
        /// - Parameters:
        ///   - lhs: The duration to multiply.
        ///   - rhs: The duration to multiply by.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        /// Whether `lhs` is shorter than `rhs`.
        ///
        /// - Parameters:
        ///   - lhs: A duration.
        ///   - rhs: Another duration.
        /// - Returns: `true` if `lhs` is the shorter.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

        /// `s` seconds.
        ///
        /// - Parameter s: The number of seconds.
        /// - Returns: A duration of `s` seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
        /// `s` seconds.
        ///
        /// - Parameter s: The number of seconds, fractions allowed.
        /// - Returns: A duration of `s` seconds.
        public static func seconds(_ s: Double) -> Stride { Stride(s) }
        /// `ms` milliseconds.
        ///
        /// - Parameter ms: The number of milliseconds.
        /// - Returns: A duration of `ms` milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
        /// `us` microseconds.
        ///
        /// - Parameter us: The number of microseconds.
        /// - Returns: A duration of `us` microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
        /// `ns` nanoseconds.
        ///
        /// - Parameter ns: The number of nanoseconds.
        /// - Returns: A duration of `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
    }
}
