extension Subscribers {
    /// How many more values a subscriber wants: a count, or ``unlimited``.
    ///
    /// A subscriber passes demand to `Subscription.request(_:)` and returns it from
    /// `Subscriber.receive(_:)`; the two add up. A publisher never sends more values than the
    /// outstanding demand ([S1]).
    ///
    /// Arithmetic saturates, as Combine documents: anything added to ``unlimited`` is
    /// ``unlimited``, a sum that would overflow becomes ``unlimited``, ``unlimited`` minus anything
    /// is ``unlimited``, and a subtraction that would go below zero gives ``none``.
    ///
    /// ```swift
    /// let d: Subscribers.Demand = .max(2) + .max(3)   // max(5)
    /// let fewer = d - 7                               // max(0)
    /// let more = d + .unlimited                       // unlimited
    /// ```
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// The count; `unlimitedRawValue` means unlimited. Never above it.
        @usableFromInline let rawValue: UInt

        @usableFromInline static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

        @inlinable init(rawValue: UInt) {
            self.rawValue = Swift.min(rawValue, Demand.unlimitedRawValue)
        }

        /// As many values as the publisher can produce.
        @inlinable public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

        /// No values. Returned from `receive(_:)` to ask for nothing more; *requesting* it is an API
        /// violation ([S9]).
        ///
        /// [S9]: doc:/Contract/StreamContract#S9
        @inlinable public static var none: Demand { Demand(rawValue: 0) }

        /// A demand for at most `value` values. A negative `value` is an API violation ([S9]).
        ///
        /// - Parameter value: The most values to ask for; not negative.
        /// - Returns: A demand for at most `value` values.
        ///
        /// [S9]: doc:/Contract/StreamContract#S9
        @inlinable
        public static func max(_ value: Int) -> Demand {
            if value < 0 {
                reportAPIViolation("S9", "Subscribers.Demand.max(\(value)): a demand cannot be negative")
                return .none
            }
            return Demand(rawValue: UInt(value))
        }

        /// The number of values asked for, or `nil` when the demand is ``unlimited``.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
        }

        /// `unlimited`, or `max(n)`.
        public var description: String {
            if let max { return "max(\(max))" }
            return "unlimited"
        }

        // MARK: Demand and Demand

        /// The sum of two demands, saturating at ``unlimited``.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: The demand to add.
        /// - Returns: The sum, or ``unlimited`` if either is.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            // Each is at most 2^63; wrapping only happens when both are unlimited.
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow ? .unlimited : Demand(rawValue: sum)
        }

        /// Adds `rhs` to `lhs`, saturating at ``unlimited``.
        ///
        /// - Parameters:
        ///   - lhs: The demand to add to.
        ///   - rhs: The demand to add.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// The difference of two demands: ``unlimited`` minus anything is ``unlimited``; anything
        /// else minus ``unlimited``, or a difference below zero, is ``none``.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: The demand to subtract.
        /// - Returns: The difference, never below ``none``.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs.rawValue == unlimitedRawValue { return .unlimited }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Subtracts `rhs` from `lhs` as `lhs - rhs` does.
        ///
        /// - Parameters:
        ///   - lhs: The demand to subtract from.
        ///   - rhs: The demand to subtract.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        // MARK: Demand and Int

        /// Adds a count: ``unlimited`` stays ``unlimited``; a negative `rhs` subtracts, stopping
        /// at ``none``.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: The count to add; a negative count subtracts.
        /// - Returns: The sum, never below ``none``.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            if rhs < 0 { return lhs - rhs.magnitude }
            return lhs + Demand(rawValue: UInt(rhs))
        }

        /// Adds a count to `lhs` as ``+(_:_:)-(_,Int)`` does.
        ///
        /// - Parameters:
        ///   - lhs: The demand to add to.
        ///   - rhs: The count to add; a negative count subtracts.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// Subtracts a count: ``unlimited`` stays ``unlimited``; below zero gives ``none``; a
        /// negative `rhs` adds.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: The count to subtract; a negative count adds.
        /// - Returns: The difference, never below ``none``.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if rhs < 0 { return lhs + Demand(rawValue: rhs.magnitude) }
            return lhs - UInt(rhs)
        }

        /// Subtracts a count from `lhs` as `lhs - rhs` does.
        ///
        /// - Parameters:
        ///   - lhs: The demand to subtract from.
        ///   - rhs: The count to subtract; a negative count adds.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        @inlinable
        static func - (lhs: Demand, rhs: UInt) -> Demand {
            if lhs.rawValue == unlimitedRawValue { return .unlimited }
            return lhs.rawValue > rhs ? Demand(rawValue: lhs.rawValue - rhs) : .none
        }

        /// Multiplies by a count: ``unlimited`` stays ``unlimited``, overflow gives ``unlimited``,
        /// a negative or zero factor gives ``none``.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: The factor.
        /// - Returns: The product.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs.rawValue == unlimitedRawValue { return .unlimited }
            if rhs <= 0 { return .none }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow ? .unlimited : Demand(rawValue: product)
        }

        /// Multiplies `lhs` by a count as ``*(_:_:)`` does.
        ///
        /// - Parameters:
        ///   - lhs: The demand to multiply.
        ///   - rhs: The factor.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        // MARK: Comparisons

        /// Whether `lhs` asks for fewer values than `rhs`; ``unlimited`` is more than any count.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: Another demand.
        /// - Returns: `true` if `lhs` is the smaller.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Whether the demand is a count equal to `rhs` (never true for ``unlimited``).
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: A count.
        /// - Returns: `true` if `lhs` is the count `rhs`.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue == UInt(rhs) }
        /// Whether the demand is not the count `rhs`.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: A count.
        /// - Returns: `true` if `lhs` is not the count `rhs`.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }
        /// Whether `rhs` is a count equal to `lhs` (never true for ``unlimited``).
        ///
        /// - Parameters:
        ///   - lhs: A count.
        ///   - rhs: A demand.
        /// - Returns: `true` if `rhs` is the count `lhs`.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        /// Whether `rhs` is not the count `lhs`.
        ///
        /// - Parameters:
        ///   - lhs: A count.
        ///   - rhs: A demand.
        /// - Returns: `true` if `rhs` is not the count `lhs`.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

        /// Whether the demand is more than `rhs` values (``unlimited`` is more than any count).
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: A count.
        /// - Returns: `true` if `lhs` asks for more than `rhs` values.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs.rawValue > UInt(rhs) }
        /// Whether the demand is at least `rhs` values.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: A count.
        /// - Returns: `true` if `lhs` asks for `rhs` values or more.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { rhs <= 0 || lhs.rawValue >= UInt(rhs) }
        /// Whether the demand is fewer than `rhs` values.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: A count.
        /// - Returns: `true` if `lhs` asks for fewer than `rhs` values.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool { !(lhs >= rhs) }
        /// Whether the demand is at most `rhs` values.
        ///
        /// - Parameters:
        ///   - lhs: A demand.
        ///   - rhs: A count.
        /// - Returns: `true` if `lhs` asks for `rhs` values or fewer.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }

        /// Whether `lhs` is more than the demand.
        ///
        /// - Parameters:
        ///   - lhs: A count.
        ///   - rhs: A demand.
        /// - Returns: `true` if `rhs` asks for fewer than `lhs` values.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        /// Whether `lhs` is at least the demand.
        ///
        /// - Parameters:
        ///   - lhs: A count.
        ///   - rhs: A demand.
        /// - Returns: `true` if `rhs` asks for `lhs` values or fewer.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }
        /// Whether `lhs` is fewer than the demand.
        ///
        /// - Parameters:
        ///   - lhs: A count.
        ///   - rhs: A demand.
        /// - Returns: `true` if `rhs` asks for more than `lhs` values.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        /// Whether `lhs` is at most the demand.
        ///
        /// - Parameters:
        ///   - lhs: A count.
        ///   - rhs: A demand.
        /// - Returns: `true` if `rhs` asks for `lhs` values or more.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }

        // MARK: Codable

        /// Decodes a demand stored as its count (`unlimited` as 2^63).
        ///
        /// - Parameter decoder: The decoder to read the count from.
        public init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode(UInt.self)
            self.init(rawValue: raw)
        }

        /// Encodes the demand as its count (`unlimited` as 2^63).
        ///
        /// - Parameter encoder: The encoder to write the count to.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
