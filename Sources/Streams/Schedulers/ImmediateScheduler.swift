/// A scheduler that runs every action at once, on the calling thread, whatever time it is asked
/// for.
///
/// Useful to make a time-based operator synchronous, or in tests of code that takes a scheduler
/// but whose timing does not matter. Its clock never moves: every time is the same instant, the
/// distance between any two times is zero, and the duration constructors (`.seconds(_:)`, ...)
/// give zero, as in Combine.
///
/// ```swift
/// ImmediateScheduler.shared.schedule { print("now") }   // Prints: now (before returning)
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The immediate scheduler's time: a single instant. Advancing it gives the same instant, and
    /// the distance between two times is always zero (as in Combine).
    public struct SchedulerTimeType: Strideable, Sendable {
        /// A number of ticks.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Hashable, Sendable
        {
            /// The number of ticks.
            public var magnitude: Int

            /// A stride of `value` ticks.
            ///
            /// - Parameter value: The number of ticks.
            public init(_ value: Int) { magnitude = value }
            /// A stride of `value` ticks.
            ///
            /// - Parameter value: The number of ticks.
            public init(integerLiteral value: Int) { magnitude = value }
            /// A stride of `value` ticks, rounded toward zero.
            ///
            /// - Parameter value: The number of ticks; the fraction is dropped.
            public init(floatLiteral value: Double) { magnitude = Int(value) }
            /// A stride of `source` ticks, when it is an exact integer.
            ///
            /// - Parameter source: The number of ticks.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// The sum of two strides.
            ///
            /// - Parameters:
            ///   - lhs: A stride.
            ///   - rhs: The stride to add.
            /// - Returns: The sum.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// The difference of two strides.
            ///
            /// - Parameters:
            ///   - lhs: A stride.
            ///   - rhs: The stride to subtract.
            /// - Returns: The difference.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// The product of two strides.
            ///
            /// - Parameters:
            ///   - lhs: A stride.
            ///   - rhs: The stride to multiply by.
            /// - Returns: The product.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds `rhs` to `lhs`.
            ///
            /// - Parameters:
            ///   - lhs: The stride to add to.
            ///   - rhs: The stride to add.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts `rhs` from `lhs`.
            ///
            /// - Parameters:
            ///   - lhs: The stride to subtract from.
            ///   - rhs: The stride to subtract.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies `lhs` by `rhs`.
            ///
            /// - Parameters:
            ///   - lhs: The stride to multiply.
            ///   - rhs: The stride to multiply by.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
            /// Whether `lhs` is shorter than `rhs`.
            ///
            /// - Parameters:
            ///   - lhs: A stride.
            ///   - rhs: Another stride.
            /// - Returns: `true` if `lhs` is the shorter.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Zero: the immediate scheduler has no clock (as in Combine).
            ///
            /// - Parameter s: A number of seconds; ignored.
            /// - Returns: A stride of zero.
            public static func seconds(_ s: Int) -> Stride { 0 }
            /// Zero: the immediate scheduler has no clock (as in Combine).
            ///
            /// - Parameter s: A number of seconds; ignored.
            /// - Returns: A stride of zero.
            public static func seconds(_ s: Double) -> Stride { 0 }
            /// Zero: the immediate scheduler has no clock (as in Combine).
            ///
            /// - Parameter ms: A number of milliseconds; ignored.
            /// - Returns: A stride of zero.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }
            /// Zero: the immediate scheduler has no clock (as in Combine).
            ///
            /// - Parameter us: A number of microseconds; ignored.
            /// - Returns: A stride of zero.
            public static func microseconds(_ us: Int) -> Stride { 0 }
            /// Zero: the immediate scheduler has no clock (as in Combine).
            ///
            /// - Parameter ns: A number of nanoseconds; ignored.
            /// - Returns: A stride of zero.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }

        /// Zero: every time is the same instant.
        ///
        /// - Parameter other: Another time; ignored.
        /// - Returns: A stride of zero.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }
        /// This same instant: the clock never moves.
        ///
        /// - Parameter n: The stride to move by; ignored.
        /// - Returns: This time.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    /// No options.
    public typealias SchedulerOptions = Never

    /// The immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// Always the same instant.
    public var now: SchedulerTimeType { SchedulerTimeType() }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` now.
    ///
    /// - Parameters:
    ///   - options: Always `nil`: the immediate scheduler has no options.
    ///   - action: The work to run.
    public func schedule(options: Never?, _ action: @escaping @Sendable () -> Void) {
        action()
    }

    /// Runs `action` now, ignoring `date`.
    ///
    /// - Parameters:
    ///   - date: The time to run at; ignored.
    ///   - tolerance: How late the action may run; ignored.
    ///   - options: Always `nil`: the immediate scheduler has no options.
    ///   - action: The work to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping @Sendable () -> Void
    ) {
        action()
    }

    /// Runs `action` once, now; repeating is meaningless without a clock.
    ///
    /// - Parameters:
    ///   - date: The time of the first run; ignored.
    ///   - interval: The time between runs; ignored.
    ///   - tolerance: How late each run may be; ignored.
    ///   - options: Always `nil`: the immediate scheduler has no options.
    ///   - action: The work to run, once.
    /// - Returns: A cancellable that does nothing: the action has already run.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        action()
        return Subscriptions.empty
    }
}
