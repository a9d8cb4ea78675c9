// MARK: - debounce

extension Publisher {
    /// Sends a value only once `dueTime` has passed without a newer one.
    ///
    /// Each value starts a timer of `dueTime` on `scheduler` and replaces the value that was
    /// waiting, which is dropped. When the timer runs out, the waiting value is delivered on the
    /// scheduler. So a burst of values gives one value, its last, `dueTime` after the burst ends:
    /// the classic use is a search field that should query only once the user stops typing.
    ///
    /// <!-- marble debounce scheduler: $0.debounce(for: .seconds(2), scheduler: scheduler) -->
    /// ```text
    /// upstream: -a-b-----c-d|
    ///           debounce(for: .seconds(2), scheduler: scheduler)     (one tick = 1 s)
    /// output:   -----b------|
    /// ```
    ///
    /// ![Marble diagram of debounce](marble-debounce)
    ///
    /// `b` arrives exactly when `a`'s timer is due. A value replaces the waiting one if it
    /// arrives before the scheduler runs that timer (the timer then finds a newer value and does
    /// nothing), as in the diagram; had the timer run first, `a` would have gone out and `b`
    /// would have started a wait of its own. `d` is still waiting when the upstream
    /// finishes, and is dropped.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test   // virtual time, from StreamsTesting
    /// let typed = PassthroughSubject<String, Never>()
    /// let c = typed.debounce(for: .milliseconds(300), scheduler: scheduler).sink { print($0) }
    /// typed.send("s")
    /// typed.send("sw")
    /// scheduler.advance(by: .milliseconds(100))
    /// typed.send("swi")
    /// scheduler.advance(by: .milliseconds(300))
    /// // Prints: swi
    /// ```
    ///
    /// - Parameters:
    ///   - dueTime: How long the upstream must stay quiet before the latest value is sent.
    ///   - scheduler: Where the timer runs and the values and completion are delivered.
    ///   - options: Options for the scheduler, given with the quiet-time timers (the completion is
    ///     scheduled without them, as in Combine).
    /// - Returns: A publisher that sends a value once `dueTime` has passed without a newer one.
    /// - Demand: asks the upstream for `.unlimited` once the downstream has the subscription (as
    ///   Combine does) and keeps the downstream's demand itself. A value whose time comes while
    ///   the downstream has no outstanding demand is dropped, not kept for a later request
    ///   ([S1]; as Combine). Asking for `.none` does nothing and is not passed on, as in Combine
    ///   ([S9]).
    /// - Completion: `.finished` or a failure is delivered on the scheduler at once, and a value
    ///   still waiting for its time is dropped. Combine does the same (it is not documented; it
    ///   is what Combine is observed to do). To keep that last value, wait for the quiet time
    ///   before completing, or debounce with your own operator. What the upstream sends before its
    ///   subscription or after its end is ignored, and a second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream and the timer; the waiting value and the downstream
    ///   are let go at once ([S6], [S7]).
    /// - Threading: values and the completion are delivered from work scheduled on `scheduler`
    ///   ([S13]), never two at once.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value. Each value takes the subscription's one lock twice (before
    ///   and after scheduling its timer), schedules one timer and cancels the previous one; a
    ///   value that goes out takes the lock three more times (when its timer fires, and before
    ///   and after the delivery).
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S13]: doc:/Contract/StreamContract#S13
    @inlinable
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/debounce(for:scheduler:options:)``: a value only after a
    /// quiet time with no newer one.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are debounced.
        public let upstream: Upstream
        /// How long the upstream must stay quiet before the latest value is sent.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler the timer runs on and the events are delivered on.
        public let scheduler: Context
        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that sends `upstream`'s latest value once it has been quiet for
        /// `dueTime`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are debounced.
        ///   - dueTime: How long the upstream must be quiet before its latest value is sent.
        ///   - scheduler: The scheduler that keeps time and delivers the values.
        ///   - options: Options for the scheduler, or `nil`.
        @inlinable
        public init(upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
                    options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` to the debounced values.
        ///
        /// - Parameter subscriber: The subscriber that receives the debounced values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DebounceSubscription(
                downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}
