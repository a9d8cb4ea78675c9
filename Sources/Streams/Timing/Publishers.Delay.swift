// MARK: - delay

extension Publisher {
    /// Delivers every value and the completion a fixed time later, on a scheduler.
    ///
    /// Each event the upstream sends — values, `.finished` and a failure alike — is held for
    /// `interval` and then delivered on `scheduler`, so the whole stream is shifted in time and
    /// the spacing between events is kept. Events always come out in the order they went in.
    /// The subscription itself is not delayed.
    ///
    /// <!-- marble delay scheduler: $0.delay(for: .seconds(2), scheduler: scheduler) -->
    /// ```text
    /// upstream: -a-b---c|
    ///           delay(for: .seconds(2), scheduler: scheduler)     (one tick = 1 s)
    /// output:   ---a-b---c|
    /// ```
    ///
    /// ![Marble diagram of delay](marble-delay)
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test   // virtual time, from StreamsTesting
    /// let c = [1, 2, 3].publisher
    ///     .delay(for: .seconds(1), scheduler: scheduler)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// scheduler.advance(by: .milliseconds(999))   // nothing yet
    /// scheduler.advance(by: .milliseconds(1))
    /// // Prints: 1
    /// //         2
    /// //         3
    /// //         finished
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long to hold each event.
    ///   - tolerance: How much later (or earlier) than `interval` the scheduler may deliver;
    ///     `nil` means the scheduler's `minimumTolerance`.
    ///   - scheduler: Where the events are delivered.
    ///   - options: Options for the scheduler.
    /// - Returns: A publisher that delivers the upstream's values and completion `interval` later,
    ///   on `scheduler`.
    /// - Demand: requests go straight to the upstream, and demand the downstream returns from
    ///   `receive(_:)` is requested from the upstream when the value is delivered. So the
    ///   upstream sends only what was asked for ([S1]); values on their way count against it. Asking
    ///   for `.none` does nothing and is not passed on, as in Combine ([S9]).
    /// - Completion: `.finished` and failures are delayed like values, after every value sent
    ///   before them. A request made while only the completion is still on its way is ignored. What
    ///   the upstream sends before its subscription or after its end is ignored, and a second
    ///   subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream; events on their way are dropped and the downstream
    ///   is let go at once ([S6], [S7]). Scheduled work keeps the operator's (small) subscription
    ///   object until it runs, and then does nothing.
    /// - Threading: every event is delivered from work scheduled on `scheduler` ([S13]), never two
    ///   at once.
    /// - Combine compatibility: as Combine, which documents that `Delay` delays "elements and
    ///   completion"; a failure is delayed too.
    /// - Complexity: O(1) amortized per event, one scheduled action and two lock round trips per
    ///   event; O(events on their way) memory.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S13]: doc:/Contract/StreamContract#S13
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
                         scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/delay(for:tolerance:scheduler:options:)``: the upstream's
    /// values and completion, each delivered a fixed time later.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are delayed.
        public let upstream: Upstream
        /// How long each event is held.
        public let interval: Context.SchedulerTimeType.Stride
        /// How much the scheduler may deviate from `interval`.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler the events are delivered on.
        public let scheduler: Context
        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers `upstream`'s events `interval` later on
        /// `scheduler`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose events are delayed.
        ///   - interval: How long to hold each event.
        ///   - tolerance: How late each event may be delivered.
        ///   - scheduler: The scheduler that keeps time and delivers the events.
        ///   - options: Options for the scheduler, or `nil`.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
                    tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
                    options: Context.SchedulerOptions? = nil) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` to the delayed events.
        ///
        /// - Parameter subscriber: The subscriber that receives the delayed values and completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DelaySubscription(
                downstream: subscriber, interval: interval, tolerance: tolerance, scheduler: scheduler,
                options: options))
        }
    }
}
