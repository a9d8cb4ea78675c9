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

        /// The interval from this time to `other`.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = Int64(bitPattern: dispatchTime.uptimeNanoseconds)
            let end = Int64(bitPattern: other.dispatchTime.uptimeNanoseconds)
            return .nanoseconds(Int(end &- start))
        }

        /// This time moved by `n`.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let moved = Int64(bitPattern: dispatchTime.uptimeNanoseconds) &+ Int64(n.magnitude)
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(max(0, moved))))
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

            /// The sum of two durations.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude &+ rhs.magnitude) }
            /// The difference of two durations.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude &- rhs.magnitude) }
            /// The product of two durations' nanosecond counts.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude &* rhs.magnitude) }
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
