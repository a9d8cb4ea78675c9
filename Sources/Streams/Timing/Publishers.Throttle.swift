// MARK: - throttle

extension Publisher {
    /// Sends at most one value per `interval`: the first or the latest of those that arrive in
    /// between.
    ///
    /// A value that arrives when nothing has been sent for at least `interval` (the first value
    /// of the stream, or one after a quiet time) is sent at once — as soon as `scheduler` runs
    /// it. A value that arrives sooner waits until `interval` after the last value sent; values
    /// that arrive while one is waiting either replace it (`latest: true`) or are dropped
    /// (`latest: false`). So values go out no closer together than `interval`.
    ///
    /// <!-- marble throttle-latest scheduler row=2: $0.throttle(for: .seconds(3), scheduler: scheduler, latest: true) -->
    /// <!-- marble throttle-first scheduler row=3: $0.throttle(for: .seconds(3), scheduler: scheduler, latest: false) -->
    /// ```text
    /// upstream: -abcd-----f|
    ///           throttle(for: .seconds(3), scheduler: scheduler, latest: true)     (1 tick = 1 s)
    /// output:   -a--d-----f|
    ///
    ///           throttle(for: .seconds(3), scheduler: scheduler, latest: false)
    /// output:   -a--b-----f|
    /// ```
    ///
    /// ![Marble diagram of throttle-latest](marble-throttle-latest)
    ///
    /// `a` is sent at once; `b`, `c` and `d` arrive within 3 s of it, so one of them is sent 3 s
    /// after `a` (`d` arrives at that same instant, just before the throttle sends). `f` comes
    /// after a quiet time and is sent at once; so is `|`, as nothing is waiting.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test   // virtual time, from StreamsTesting
    /// let taps = PassthroughSubject<Int, Never>()
    /// let c = taps.throttle(for: .seconds(1), scheduler: scheduler, latest: true).sink { print($0) }
    /// taps.send(1)
    /// scheduler.advance()                        // 1 goes at once
    /// taps.send(2)
    /// taps.send(3)
    /// scheduler.advance(by: .seconds(1))         // the latest of 2, 3, a second after 1
    /// // Prints: 1
    /// //         3
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The least time between two values sent.
    ///   - scheduler: Where values and the completion are delivered and time is read.
    ///   - latest: `true` to send the latest value of each interval, `false` the first.
    /// - Returns: A publisher that sends at most one of the upstream's values per `interval`.
    /// - Demand: asks the upstream for `.unlimited` once the downstream has the subscription (as
    ///   Combine does) and keeps the downstream's demand itself. A value that arrives while the
    ///   downstream has no outstanding demand and nothing is waiting is dropped ([S1]; as Combine);
    ///   the waiting value holds one unit of demand, so replacing it (`latest: true`) needs none.
    ///   Asking for `.none` does nothing and is not passed on, as in Combine ([S9]).
    /// - Completion: if a value is waiting, the completion (`.finished` or a failure) is delivered
    ///   right after it, at its time; otherwise at once, on the scheduler. What the upstream sends
    ///   before its subscription or after its end is ignored, and a second subscription is
    ///   cancelled ([S2]).
    /// - Cancellation: cancels the upstream; the waiting value and the downstream are let go at
    ///   once ([S6], [S7]); the already scheduled delivery then does nothing.
    /// - Threading: values and the completion are delivered from work scheduled on `scheduler`
    ///   ([S13]), never two at once.
    /// - Combine compatibility: as Combine is observed to behave (its documentation only says
    ///   that the first value is delivered, then one per interval): the first value goes out at
    ///   once, not at the end of a first interval, and a completion waits for the waiting value.
    ///   One difference in a corner: Combine drops a value that would replace the waiting one
    ///   when the downstream has no further demand.
    /// - Complexity: O(1) per value, one lock round trip; one scheduled action per value sent.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S13]: doc:/Contract/StreamContract#S13
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/throttle(for:scheduler:latest:)``: at most one value per
    /// interval, the first or the latest.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are throttled.
        public let upstream: Upstream
        /// The least time between two values sent.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler the events are delivered on.
        public let scheduler: Context
        /// Whether the latest value of an interval is sent (`true`) or the first (`false`).
        public let latest: Bool

        /// Creates a publisher that sends at most one of `upstream`'s values per `interval`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are throttled.
        ///   - interval: The shortest time between two values sent.
        ///   - scheduler: The scheduler that keeps time and delivers the values.
        ///   - latest: `true` to send the latest of the values that arrived in between, `false` the
        ///     first.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
                    latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Subscribes `subscriber` to the throttled values.
        ///
        /// - Parameter subscriber: The subscriber that receives the throttled values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ThrottleSubscription(
                downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}
