// Engine: Engines/RelaySubscription.swift.

// MARK: - measureInterval

extension Publisher {
    /// Replaces each value with the time since the previous one, as measured by a scheduler's
    /// clock.
    ///
    /// The first value is replaced with the time since the subscription. The interval is the
    /// scheduler's `Stride` (for a dispatch queue, a `DispatchQueue.SchedulerTimeType.Stride`
    /// in nanoseconds). The scheduler serves only as a clock: nothing is scheduled on it.
    ///
    /// <!-- marble measureInterval scheduler: $0.measureInterval(using: scheduler).map { $0.magnitude / 1_000_000_000 } -->
    /// ```text
    /// upstream: -a--b-c|
    ///           measureInterval(using: scheduler).map { $0.magnitude / 1_000_000_000 }
    ///                                                  (a dispatch queue's time; one tick = 1 s)
    /// output:   -1--3-2|
    /// ```
    ///
    /// ![Marble diagram of measureInterval](marble-measureInterval)
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test   // virtual time, from StreamsTesting
    /// let events = PassthroughSubject<Void, Never>()
    /// let c = events.measureInterval(using: scheduler).sink { print(Double($0.magnitude) / 1e9) }
    /// scheduler.advance(by: .seconds(2))
    /// events.send()
    /// scheduler.advance(by: .milliseconds(500))
    /// events.send()
    /// // Prints: 2.0
    /// //         0.5
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler whose clock (`now`) measures the time.
    ///   - options: Accepted for Combine's signature; unused, as nothing is scheduled.
    /// - Returns: A publisher that sends, for each upstream value, the time since the value before
    ///   it (or since the subscription).
    /// - Demand: passes through unchanged; `request(.none)` is ignored.
    /// - Completion: passes through unchanged.
    /// - Cancellation: the subscriber gets a subscription of its own (`MeasureInterval` in
    ///   `print()`): `cancel()` cancels the upstream once; after it, or after the completion,
    ///   requests and cancels are ignored and nothing more is delivered ([S6]).
    /// - Threading: values go out on the upstream's thread, at once: delivering them later
    ///   would add the scheduling delay to what is measured. This is the one time operator that
    ///   does not deliver on its scheduler ([S13] holds: it schedules nothing).
    /// - Combine compatibility: as Combine, which also reads only the scheduler's `now`. Demand
    ///   the subscriber returns for a value is returned to the upstream; Combine passes it on
    ///   as a `request` instead (the same demand either way).
    /// - Complexity: O(1) per value, no lock, no allocation; reads the clock once per value.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S13]: doc:/Contract/StreamContract#S13
    @inlinable
    public func measureInterval<S: Scheduler>(
        using scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/measureInterval(using:options:)``: the time between the
    /// upstream's values.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The time between two values, in the scheduler's time.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are timed.
        public let upstream: Upstream
        /// The scheduler whose clock measures the time.
        public let scheduler: Context

        /// Creates a publisher of the times between `upstream`'s values, measured on
        /// `scheduler`'s clock.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are timed.
        ///   - scheduler: The scheduler whose clock measures the intervals.
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Subscribes `subscriber` to the intervals.
        ///
        /// - Parameter subscriber: The subscriber that receives the intervals and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: MeasureIntervalSubscriber<Upstream.Output, Context, S>(
                    downstream: subscriber, scheduler: scheduler))
        }
    }
}

// MARK: - measureInterval: subscriber

/// The subscriber of `measureInterval`: the time of the last event is only touched from the
/// upstream's serialized signals ([S3]), so it needs no lock.
///
/// [S3]: doc:/Contract/StreamContract#S3
@usableFromInline
final class MeasureIntervalSubscriber<Input, Context: Scheduler, Downstream: Subscriber>:
    RelaySubscriber<Input, Downstream.Failure, Downstream>
where Downstream.Input == Context.SchedulerTimeType.Stride {
    @usableFromInline let scheduler: Context
    /// The time of the subscription, then of the last value.
    @exclusivity(unchecked) @usableFromInline var last: Context.SchedulerTimeType?

    @inlinable
    init(downstream: Downstream, scheduler: Context) {
        self.scheduler = scheduler
        super.init(downstream: downstream, name: "MeasureInterval")
    }

    /// Starts the clock before the downstream has its subscription, as Combine does.
    @inlinable
    override func willHandOver() {
        last = scheduler.now
    }

    @inlinable
    override func receive(_ input: Input) -> Subscribers.Demand {
        guard isLive else { return .none }
        let now = scheduler.now
        let previous = last ?? now
        last = now
        return forward(previous.distance(to: now))
    }
}
