// Engine: Sources/Streams/Engines/TimedSubscription.swift runs DebounceStateMachine (below).

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
    /// - Complexity: O(1) per value: each value schedules one timer and cancels the previous one.
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
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
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
            upstream.receive(
                subscriber: TimedSubscription(
                    machine: DebounceStateMachine(dueTime: dueTime), downstream: subscriber, scheduler: scheduler,
                    options: options))
        }
    }
}

// MARK: - The state machine

/// `debounce` as a state machine. Each value becomes the waiting value and restarts the timer of
/// the quiet time; when the timer runs out, the waiting value goes out if the downstream has
/// demand, and is dropped if not. The upstream's completion drops the waiting value and is
/// delivered from work scheduled at once.
///
/// Timers are numbered (`timerID`): whatever makes the running timer stale (a newer value, the
/// completion, the timer firing) moves the number on, so a timer that fires with an older number
/// does nothing.
@usableFromInline
struct DebounceStateMachine<Input, Failure: Error, Context: Scheduler>: TimedStateMachine {
    @usableFromInline
    enum State {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Receiving values from the upstream (asked for `.unlimited`).
        case running(upstream: any Subscription)
        /// The upstream completed; its completion waits for the work scheduled to deliver it.
        case finishing(Subscribers.Completion<Failure>)
        /// The completion is in the outbox, or the downstream cancelled: nothing more happens.
        case done
    }

    @usableFromInline
    enum Action {
        case none
        /// Ask the upstream for everything: `debounce` keeps the downstream's demand itself.
        case requestUnlimited(from: any Subscription)
        /// Cancel the previous timer, let go of the value it was for, start timer number `id`.
        case restartTimer(
            id: UInt64, after: Context.SchedulerTimeType.Stride, cancelling: (any Cancellable)?,
            replaced: Input?)
        /// Cancel the timer that fired and deliver the outbox.
        case deliver(cancelling: (any Cancellable)?)
        /// Schedule the delivery of the completion (without the options, as in Combine), cancel
        /// the timer, let go of the finished upstream and the dropped value.
        case scheduleCompletion(cancelling: (any Cancellable)?, finished: any Subscription, dropped: Input?)
        /// Cancel the upstream (if given) and the timer, let go of what is dropped.
        case cancel(upstream: (any Subscription)?, timer: (any Cancellable)?, dropped: Input?)
        /// Let go of the completion that will not be delivered.
        case letGo(Subscribers.Completion<Failure>)
    }

    @usableFromInline let dueTime: Context.SchedulerTimeType.Stride
    @usableFromInline var state = State.awaitingSubscription
    /// While `running`: the latest value, waiting for its quiet time.
    @usableFromInline var waiting: Input?
    /// While `running`: the current timer, once scheduled.
    @usableFromInline var timer: (any Cancellable)?
    /// The number of the current timer.
    @usableFromInline var timerID: UInt64 = 0
    /// While `running`: the downstream's outstanding demand.
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init(dueTime: Context.SchedulerTimeType.Stride) {
        self.dueTime = dueTime
    }

    @inlinable static var name: String { "Debounce" }
    @inlinable static var readsClock: Bool { false }

    @inlinable
    mutating func upstreamSubscribed(_ upstream: any Subscription) -> Bool {
        guard case .awaitingSubscription = state else { return false }
        state = .running(upstream: upstream)
        return true
    }

    @inlinable
    mutating func downstreamSubscribed() -> Action {
        guard case .running(let upstream) = state else { return .none }
        return .requestUnlimited(from: upstream)
    }

    @inlinable
    mutating func upstreamSent(_ value: Input, now _: Context.SchedulerTimeType?) -> Action {
        guard case .running = state else { return .none }
        let replaced = waiting
        waiting = value
        timerID &+= 1
        return .restartTimer(id: timerID, after: dueTime, cancelling: timer.take(), replaced: replaced)
    }

    @inlinable
    mutating func timerScheduled(_ timer: any Cancellable, id: UInt64) -> (any Cancellable)? {
        guard case .running = state, id == timerID else { return timer }
        self.timer = timer
        return nil
    }

    @inlinable
    mutating func timerFired(_ id: UInt64, outbox: inout FIFOQueue<TimedEvent<Input, Failure>>) -> Action {
        guard case .running = state, id == timerID else { return .none }
        timerID &+= 1  // this timer is over: one that is still being scheduled is cancelled
        let fired = timer.take()
        guard demand > 0, let value = waiting.take() else {
            return .cancel(upstream: nil, timer: fired, dropped: waiting.take())  // no demand: dropped
        }
        demand -= 1
        outbox.append(.value(value))
        return .deliver(cancelling: fired)
    }

    @inlinable
    mutating func downstreamRequested(_ demand: Subscribers.Demand) -> Action {
        if case .running = state { self.demand += demand }
        return .none
    }

    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
        guard case .running(let upstream) = state else { return .none }
        state = .finishing(completion)
        timerID &+= 1
        return .scheduleCompletion(cancelling: timer.take(), finished: upstream, dropped: waiting.take())
    }

    @inlinable
    mutating func workRan(
        now _: Context.SchedulerTimeType?,
        outbox: inout FIFOQueue<TimedEvent<Input, Failure>>
    ) -> Action {
        guard case .finishing(let completion) = state else { return .none }
        state = .done
        outbox.append(.completion(completion))
        return .deliver(cancelling: nil)
    }

    @inlinable
    mutating func ended() -> Action {
        let ending = state
        state = .done
        switch ending {
        case .running(let upstream):
            return .cancel(upstream: upstream, timer: timer.take(), dropped: waiting.take())
        case .finishing(let completion):
            return .letGo(completion)
        case .awaitingSubscription, .done:
            return .none
        }
    }

    @inlinable
    static func perform<Downstream: Subscriber>(_ action: Action, in subscription: TimedSubscription<Self, Downstream>)
    where Downstream.Input == Input, Downstream.Failure == Failure {
        switch action {
        case .none:
            break
        case .requestUnlimited(let upstream):
            upstream.request(.unlimited)
        case .restartTimer(let id, let dueTime, let previous, let replaced):
            previous?.cancel()
            _ = replaced
            subscription.startTimer(id, after: dueTime)
        case .deliver(let fired):
            fired?.cancel()
            subscription.deliver()
        case .scheduleCompletion(let timer, let finished, let dropped):
            timer?.cancel()
            _ = (finished, dropped)
            subscription.scheduler.schedule(options: nil, subscription.closure(for: .scheduled))
        case .cancel(let upstream, let timer, let dropped):
            upstream?.cancel()
            timer?.cancel()
            _ = dropped
        case .letGo(let completion):
            _ = completion
        }
    }
}
