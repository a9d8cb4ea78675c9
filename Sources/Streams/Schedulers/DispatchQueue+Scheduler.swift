import Dispatch

extension DispatchQueue: Scheduler {
    /// A point in time on a dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time.
        public var dispatchTime: DispatchTime

        /// The time `time`.
        ///
        /// - Parameter time: The dispatch time this scheduler time stands for.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// The interval from this time to `other`, in nanoseconds.
        ///
        /// Saturates instead of wrapping: a distance longer than `Int.max` nanoseconds (to or
        /// from `DispatchTime.distantFuture`) is `.nanoseconds(.max)`, in either direction, as in
        /// Combine (where such a distance is `DispatchTimeInterval.never`).
        ///
        /// - Parameter other: Another time.
        /// - Returns: The interval to `other`, negative if `other` is earlier.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = dispatchTime.uptimeNanoseconds
            let end = other.dispatchTime.uptimeNanoseconds
            let length = end >= start ? end - start : start - end
            if length > UInt64(Int.max) { return .nanoseconds(.max) }
            return .nanoseconds(end >= start ? Int(length) : -Int(length))
        }

        /// This time moved by `n`.
        ///
        /// Saturates instead of wrapping, as dispatch itself does: a time past `Int64.max`
        /// nanoseconds, or a stride of `.nanoseconds(.max)` (`DispatchTimeInterval.never`), gives
        /// `DispatchTime.distantFuture`, which stays where it is; moving back past the start of
        /// uptime gives the earliest time, 1 nanosecond.
        ///
        /// - Parameter n: The interval to move by; negative moves back.
        /// - Returns: The time `n` after this one.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let start = dispatchTime.uptimeNanoseconds
            if start == DispatchTime.distantFuture.uptimeNanoseconds || n.magnitude == .max {
                return SchedulerTimeType(.distantFuture)
            }
            if n.magnitude >= 0 {
                let (sum, overflow) = start.addingReportingOverflow(UInt64(n.magnitude))
                if overflow || sum > UInt64(Int64.max) { return SchedulerTimeType(.distantFuture) }
                return SchedulerTimeType(DispatchTime(uptimeNanoseconds: sum))
            }
            let back = UInt64(n.magnitude.magnitude)
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: start > back ? start - back : 1))
        }

        /// Decodes a time written by ``encode(to:)`` (its uptime in nanoseconds).
        ///
        /// - Parameter decoder: The decoder to read the uptime from.
        public init(from decoder: any Decoder) throws {
            let nanoseconds = try decoder.singleValueContainer().decode(UInt64.self)
            dispatchTime = DispatchTime(uptimeNanoseconds: nanoseconds)
        }

        /// Encodes the time as its uptime in nanoseconds.
        ///
        /// - Parameter encoder: The encoder to write the uptime to.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// Hashes the uptime.
        ///
        /// - Parameter hasher: The hasher to feed the uptime to.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        /// A duration on a dispatch queue, in nanoseconds. Integer and floating-point literals
        /// are seconds, as in Combine: `let wait: DispatchQueue.SchedulerTimeType.Stride = 0.5`.
        ///
        /// Arithmetic never traps: sums and differences stop at `Int.min`/`Int.max` nanoseconds,
        /// and the constructors clamp. Encoded as Combine encodes it,
        /// `{"_nanoseconds": <nanoseconds>}`, so that either can read what the other wrote.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable
        {
            /// The duration in nanoseconds.
            public var magnitude: Int

            /// The duration as a `DispatchTimeInterval`.
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            /// The duration of `timeInterval` (`.never` is the longest representable).
            ///
            /// - Parameter timeInterval: The duration, as dispatch writes it (`.seconds(1)`,
            ///   `.never`, ...).
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): magnitude = s.multipliedClamped(by: 1_000_000_000)
                case .milliseconds(let ms): magnitude = ms.multipliedClamped(by: 1_000_000)
                case .microseconds(let us): magnitude = us.multipliedClamped(by: 1_000)
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }

            /// `value` seconds.
            ///
            /// - Parameter value: The duration in whole seconds.
            public init(integerLiteral value: Int) {
                magnitude = value.multipliedClamped(by: 1_000_000_000)
            }

            /// `value` seconds.
            ///
            /// - Parameter value: The duration in seconds.
            public init(floatLiteral value: Double) {
                magnitude = Int(clampingSeconds: value)
            }

            /// `source` seconds, when it is an exact integer.
            ///
            /// - Parameter source: The duration in whole seconds.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                magnitude = seconds.multipliedClamped(by: 1_000_000_000)
            }

            private init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            private enum CodingKeys: String, CodingKey {
                case nanoseconds = "_nanoseconds"
            }

            /// Decodes a duration in Combine's form, `{"_nanoseconds": <nanoseconds>}`.
            ///
            /// - Parameter decoder: The decoder to read the duration from.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                magnitude = Int(clamping: try container.decode(Int64.self, forKey: .nanoseconds))
            }

            /// Encodes the duration in Combine's form, `{"_nanoseconds": <nanoseconds>}`.
            ///
            /// - Parameter encoder: The encoder to write the duration to.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(Int64(magnitude), forKey: .nanoseconds)
            }

            /// The sum of two durations, stopping at `Int.min`/`Int.max` nanoseconds.
            ///
            /// - Parameters:
            ///   - lhs: A duration.
            ///   - rhs: The duration to add.
            /// - Returns: The sum.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
                if overflow { return Stride(nanoseconds: rhs.magnitude < 0 ? .min : .max) }
                return Stride(nanoseconds: sum)
            }
            /// The difference of two durations, stopping at `Int.min`/`Int.max` nanoseconds.
            ///
            /// - Parameters:
            ///   - lhs: A duration.
            ///   - rhs: The duration to subtract.
            /// - Returns: The difference.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
                if overflow { return Stride(nanoseconds: rhs.magnitude < 0 ? .max : .min) }
                return Stride(nanoseconds: difference)
            }
            /// Zero, as in Combine: the product of two durations is not a duration.
            ///
            /// - Parameters:
            ///   - lhs: A duration; ignored.
            ///   - rhs: Another duration; ignored.
            /// - Returns: A duration of zero.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: 0) }
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
            public static func seconds(_ s: Int) -> Stride {
                Stride(nanoseconds: s.multipliedClamped(by: 1_000_000_000))
            }
            /// `s` seconds.
            ///
            /// - Parameter s: The number of seconds, fractions allowed.
            /// - Returns: A duration of `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: Int(clampingSeconds: s)) }
            /// `ms` milliseconds.
            ///
            /// - Parameter ms: The number of milliseconds.
            /// - Returns: A duration of `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(nanoseconds: ms.multipliedClamped(by: 1_000_000))
            }
            /// `us` microseconds.
            ///
            /// - Parameter us: The number of microseconds.
            /// - Returns: A duration of `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride {
                Stride(nanoseconds: us.multipliedClamped(by: 1_000))
            }
            /// `ns` nanoseconds.
            ///
            /// - Parameter ns: The number of nanoseconds.
            /// - Returns: A duration of `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }
        }
    }

    /// How a dispatch queue runs an action: quality of service, flags and an optional group.
    public struct SchedulerOptions {
        /// The quality of service of the work item.
        public var qos: DispatchQoS
        /// The work item's flags.
        public var flags: DispatchWorkItemFlags
        /// A group the work item joins, if any.
        public var group: DispatchGroup?

        /// Options with the given quality of service, flags and group.
        ///
        /// - Parameters:
        ///   - qos: The quality of service to run the work at; `.unspecified` by default.
        ///   - flags: The flags of the work item; none by default.
        ///   - group: A dispatch group to add the work to, or `nil`.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The current dispatch time.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Zero: dispatch allows any tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Runs `action` asynchronously on this queue.
    ///
    /// - Parameters:
    ///   - options: The quality of service, flags and group to run `action` with, or `nil` for the
    ///     defaults.
    ///   - action: The work to run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags, execute: action)
    }

    /// Runs `action` on this queue at `date`.
    ///
    /// - Parameters:
    ///   - date: The time to run `action` at.
    ///   - tolerance: Unused: the action runs as close to `date` as dispatch allows.
    ///   - options: The quality of service and flags to run `action` with, or `nil` for the
    ///     defaults.
    ///   - action: The work to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
        let options = options ?? SchedulerOptions()
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags, execute: action)
    }

    /// Runs `action` on this queue at `date`, then every `interval`, until cancelled (a
    /// `DispatchSourceTimer`).
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: The quality of service and flags to run `action` with, or `nil` for the
    ///     defaults.
    ///   - action: The work to run each time.
    /// - Returns: A cancellable that stops the timer.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? [], handler: action)
        timer.schedule(
            deadline: date.dispatchTime, repeating: interval.timeInterval,
            leeway: max(tolerance, minimumTolerance).timeInterval)
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

extension Int {
    /// `seconds` in nanoseconds, stopping at `Int.min`/`Int.max`; NaN is 0.
    init(clampingSeconds seconds: Double) {
        let nanoseconds = seconds * 1_000_000_000
        if nanoseconds.isNaN {
            self = 0
        } else if nanoseconds >= Double(Int.max) {
            self = .max
        } else if nanoseconds <= Double(Int.min) {
            self = .min
        } else {
            self = Int(nanoseconds)
        }
    }

    /// `self * factor`, stopping at `Int.min`/`Int.max` instead of overflowing.
    func multipliedClamped(by factor: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: factor)
        if !overflow { return product }
        return (self < 0) != (factor < 0) ? .min : .max
    }
}
