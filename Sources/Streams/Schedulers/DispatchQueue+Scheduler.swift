import Dispatch

extension DispatchQueue: Scheduler {
    /// A point in time on a dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time.
        public var dispatchTime: DispatchTime

        /// The time `time`.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// The interval from this time to `other`, in nanoseconds.
        ///
        /// Saturates instead of wrapping: a distance longer than `Int.max` nanoseconds (to or
        /// from `DispatchTime.distantFuture`) is `.nanoseconds(.max)`, in either direction, as in
        /// Combine (where such a distance is `DispatchTimeInterval.never`).
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
        public init(from decoder: any Decoder) throws {
            let nanoseconds = try decoder.singleValueContainer().decode(UInt64.self)
            dispatchTime = DispatchTime(uptimeNanoseconds: nanoseconds)
        }

        /// Encodes the time as its uptime in nanoseconds.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// Hashes the uptime.
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
            public init(integerLiteral value: Int) {
                magnitude = value.multipliedClamped(by: 1_000_000_000)
            }

            /// `value` seconds.
            public init(floatLiteral value: Double) {
                magnitude = Int(clampingSeconds: value)
            }

            /// `source` seconds, when it is an exact integer.
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
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                magnitude = Int(clamping: try container.decode(Int64.self, forKey: .nanoseconds))
            }

            /// Encodes the duration in Combine's form, `{"_nanoseconds": <nanoseconds>}`.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(Int64(magnitude), forKey: .nanoseconds)
            }

            /// The sum of two durations, stopping at `Int.min`/`Int.max` nanoseconds.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
                if overflow { return Stride(nanoseconds: rhs.magnitude < 0 ? .min : .max) }
                return Stride(nanoseconds: sum)
            }
            /// The difference of two durations, stopping at `Int.min`/`Int.max` nanoseconds.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
                if overflow { return Stride(nanoseconds: rhs.magnitude < 0 ? .max : .min) }
                return Stride(nanoseconds: difference)
            }
            /// Zero, as in Combine: the product of two durations is not a duration.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: 0) }
            /// Adds `rhs` to `lhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts `rhs` from `lhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies `lhs` by `rhs`.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
            /// Whether `lhs` is shorter than `rhs`.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: s.multipliedClamped(by: 1_000_000_000)) }
            /// `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: Int(clampingSeconds: s)) }
            /// `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms.multipliedClamped(by: 1_000_000)) }
            /// `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us.multipliedClamped(by: 1_000)) }
            /// `ns` nanoseconds.
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
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags, execute: action)
    }

    /// Runs `action` on this queue at `date`.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        let options = options ?? SchedulerOptions()
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags, execute: action)
    }

    /// Runs `action` on this queue at `date`, then every `interval`, until cancelled (a
    /// `DispatchSourceTimer`).
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping @Sendable () -> Void) -> Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? [], handler: action)
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval,
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
