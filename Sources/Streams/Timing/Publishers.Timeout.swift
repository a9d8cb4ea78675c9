// MARK: - timeout

extension Publisher {
    /// Ends the stream if the upstream goes `interval` without sending a value.
    ///
    /// A timer of `interval` starts at subscription and starts again with each value. If it runs
    /// out, `timeout` cancels the upstream and finishes — or, given `customError`, fails with
    /// the error it returns. Values and the upstream's own completion are passed on, delivered on
    /// `scheduler`.
    ///
    /// <!-- marble timeout scheduler: $0.timeout(.seconds(3), scheduler: scheduler) -->
    /// ```text
    /// upstream: -a-b------c|
    ///           timeout(.seconds(3), scheduler: scheduler)     (one tick = 1 s)
    /// output:   -a-b--[;|]
    /// ```
    ///
    /// ![Marble diagram of timeout](marble-timeout)
    ///
    /// A value or completion that arrives at the very instant the timer runs out comes first:
    /// a value starts the timer again, a completion is passed on and there is no timeout.
    ///
    /// ```swift
    /// struct TooSlow: Error {}
    /// let scheduler = DispatchQueue.test   // virtual time, from StreamsTesting
    /// let replies = PassthroughSubject<String, any Error>()
    /// let c = replies
    ///     .timeout(.seconds(5), scheduler: scheduler, customError: { TooSlow() })
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// replies.send("pong")
    /// scheduler.advance(by: .seconds(5))
    /// // Prints: pong
    /// //         failure(TooSlow())
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The longest time allowed without a value, from subscription or from the
    ///     last value.
    ///   - scheduler: Where the timer runs and the events are delivered.
    ///   - options: Options for the scheduler.
    ///   - customError: Makes the error to fail with on a timeout; `nil` (the default) finishes
    ///     instead.
    /// - Returns: A publisher that passes on the upstream's values and completion, and ends the
    ///   stream when the upstream goes `interval` without a value.
    /// - Demand: requests go straight to the upstream, and demand the downstream returns from
    ///   `receive(_:)` is requested from the upstream when the value is delivered ([S1]). The timer
    ///   runs whether or not the downstream has asked for anything. Asking for `.none` does nothing
    ///   and is not passed on, as in Combine ([S9]).
    /// - Completion: the upstream's completion is passed on (after the values before it); on a
    ///   timeout, the upstream is cancelled and `.finished` or `.failure(customError())` follows
    ///   the values already on their way. What the upstream sends before its subscription or after
    ///   its end is ignored, and a second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream and the timer; the downstream and `customError` are
    ///   let go at once ([S6], [S7]).
    /// - Threading: values and the completion are delivered from work scheduled on `scheduler`
    ///   ([S13]), never two at once; `customError` runs on the scheduler too.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value: a lock round trip, one timer scheduled (the previous one
    ///   cancelled) and one delivery scheduled.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S13]: doc:/Contract/StreamContract#S13
    @inlinable
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options,
                           customError: customError)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/timeout(_:scheduler:options:customError:)``: the upstream's
    /// events, ended early if it goes too long without a value.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher that is timed.
        public let upstream: Upstream
        /// The longest time allowed without a value.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler the timer runs on and the events are delivered on.
        public let scheduler: Context
        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?
        /// Makes the error to fail with on a timeout; `nil` finishes instead.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that ends `upstream` when it goes `interval` without a value.
        ///
        /// - Parameters:
        ///   - upstream: The publisher to watch.
        ///   - interval: The longest time the upstream may go without sending a value.
        ///   - scheduler: The scheduler that keeps time and delivers the events.
        ///   - options: Options for the scheduler, or `nil`.
        ///   - customError: A closure that returns the error to fail with on a timeout, or `nil` to
        ///     finish instead.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
                    options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Subscribes `subscriber` to the timed events.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion, or
        ///   the timeout.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TimeoutSubscription(
                downstream: subscriber, interval: interval, scheduler: scheduler, options: options,
                customError: customError))
        }
    }
}
