// Engine: Sources/Streams/Engines/TimedSubscription.swift runs TimeoutStateMachine (below).

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
    /// - Complexity: O(1) per value: one timer scheduled (the previous one cancelled) and one
    ///   delivery scheduled.
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
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options,
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
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
        ) {
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
            upstream.receive(
                subscriber: TimedSubscription(
                    machine: TimeoutStateMachine(interval: interval, customError: customError), downstream: subscriber,
                    scheduler: scheduler, options: options))
        }
    }
}

// MARK: - The state machine

/// `timeout` as a state machine. Values and the upstream's completion wait in `waiting` as they
/// arrive, and work scheduled at once moves the oldest to the outbox each time it runs. A timer
/// starts once the downstream has its subscription and restarts with each value; timers are
/// numbered (`timerID`), so one that fires after a newer value started another does nothing.
/// When the current one runs out, the upstream is cancelled and the timeout's completion goes
/// out after everything waiting.
@usableFromInline
struct TimeoutStateMachine<Input, Failure: Error, Context: Scheduler>: TimedStateMachine {
    @usableFromInline
    enum State {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Receiving events from the upstream, timed.
        case running(upstream: any Subscription)
        /// The upstream completed; its completion is the last waiting event.
        case upstreamFinished
        /// The timer ran out: the upstream is being cancelled and the timeout's completion made.
        case timingOut
        /// The downstream cancelled, or the completion is in the outbox: nothing more happens.
        case done
    }

    @usableFromInline
    enum Action {
        case none
        /// Pass the downstream's demand to the upstream.
        case request(Subscribers.Demand, from: any Subscription)
        /// Cancel the previous timer and start timer number `id`; then, if `scheduleDelivery`,
        /// schedule the work that sends the oldest waiting event, at once.
        case restartTimer(
            id: UInt64, after: Context.SchedulerTimeType.Stride, cancelling: (any Cancellable)?,
            scheduleDelivery: Bool)
        /// Cancel the timer, let go of the finished upstream, schedule the work that sends the
        /// oldest waiting event (the completion's turn comes after the values').
        case finish(cancelling: (any Cancellable)?, finished: any Subscription)
        /// Deliver the outbox.
        case deliver
        /// Cancel the timer that fired and the upstream, make the completion (calling
        /// `customError` if given) and hand it to ``timedOut(_:outbox:)``.
        case timeOut(cancelling: (any Cancellable)?, upstream: any Subscription, customError: (() -> Failure)?)
        /// Cancel the upstream (if given) and the timer; let go of what will not be delivered.
        case cancel(
            upstream: (any Subscription)?, timer: (any Cancellable)?,
            dropped: FIFOQueue<TimedEvent<Input, Failure>>, customError: (() -> Failure)?)
    }

    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    /// Makes the error of a timeout; `nil` finishes instead. Let go of when the stream ends.
    @usableFromInline var customError: (() -> Failure)?
    @usableFromInline var state = State.awaitingSubscription
    /// The events received and not yet due, oldest first.
    @usableFromInline var waiting = FIFOQueue<TimedEvent<Input, Failure>>()
    /// While `running`: the current timer, once scheduled.
    @usableFromInline var timer: (any Cancellable)?
    /// The number of the current timer; 0 before the first.
    @usableFromInline var timerID: UInt64 = 0

    @inlinable
    init(interval: Context.SchedulerTimeType.Stride, customError: (() -> Failure)?) {
        self.interval = interval
        self.customError = customError
    }

    @inlinable static var name: String { "Timeout" }
    @inlinable static var readsClock: Bool { false }

    @inlinable
    mutating func upstreamSubscribed(_ upstream: any Subscription) -> Bool {
        guard case .awaitingSubscription = state else { return false }
        state = .running(upstream: upstream)
        return true
    }

    /// Starts the first timer, unless a value that arrived meanwhile has: only now, so that a
    /// timer that runs out at once (the `ImmediateScheduler`) cannot complete before the
    /// downstream has its subscription ([S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @inlinable
    mutating func downstreamSubscribed() -> Action {
        guard case .running = state, timerID == 0 else { return .none }
        timerID = 1
        return .restartTimer(id: timerID, after: interval, cancelling: nil, scheduleDelivery: false)
    }

    @inlinable
    mutating func upstreamSent(_ value: Input, now _: Context.SchedulerTimeType?) -> Action {
        guard case .running = state else { return .none }
        waiting.append(.value(value))
        timerID &+= 1
        return .restartTimer(id: timerID, after: interval, cancelling: timer.take(), scheduleDelivery: true)
    }

    @inlinable
    mutating func timerScheduled(_ timer: any Cancellable, id: UInt64) -> (any Cancellable)? {
        guard case .running = state, id == timerID else { return timer }
        self.timer = timer
        return nil
    }

    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
        guard case .running(let upstream) = state else { return .none }
        state = .upstreamFinished
        timerID &+= 1
        waiting.append(.completion(completion))
        return .finish(cancelling: timer.take(), finished: upstream)
    }

    @inlinable
    mutating func downstreamRequested(_ demand: Subscribers.Demand) -> Action {
        guard case .running(let upstream) = state else { return .none }
        return .request(demand, from: upstream)
    }

    /// The work scheduled for an event: the oldest waiting event is due.
    @inlinable
    mutating func workRan(
        now _: Context.SchedulerTimeType?,
        outbox: inout FIFOQueue<TimedEvent<Input, Failure>>
    ) -> Action {
        guard let event = waiting.popFirst() else { return .none }
        if case .completion = event { state = .done }
        outbox.append(event)
        return .deliver
    }

    @inlinable
    mutating func timerFired(_ id: UInt64, outbox: inout FIFOQueue<TimedEvent<Input, Failure>>) -> Action {
        guard case .running(let upstream) = state, id == timerID else { return .none }
        state = .timingOut
        timerID &+= 1  // this timer is over: one that is still being scheduled is cancelled
        return .timeOut(cancelling: timer.take(), upstream: upstream, customError: customError)
    }

    /// The timeout's completion is made: everything waiting goes to the outbox, then it.
    @inlinable
    mutating func timedOut(
        _ completion: Subscribers.Completion<Failure>,
        outbox: inout FIFOQueue<TimedEvent<Input, Failure>>
    ) -> Action {
        guard case .timingOut = state else { return .none }  // the downstream cancelled meanwhile
        state = .done
        while let event = waiting.popFirst() { outbox.append(event) }
        outbox.append(.completion(completion))
        return .deliver
    }

    @inlinable
    mutating func ended() -> Action {
        let upstream = if case .running(let upstream) = state { upstream } else { Optional<any Subscription>.none }
        state = .done
        return .cancel(
            upstream: upstream, timer: timer.take(), dropped: waiting.takeAll(),
            customError: customError.take())
    }

    @inlinable
    static func perform<Downstream: Subscriber>(_ action: Action, in subscription: TimedSubscription<Self, Downstream>)
    where Downstream.Input == Input, Downstream.Failure == Failure {
        switch action {
        case .none:
            break
        case .request(let demand, let upstream):
            upstream.request(demand)
        case .restartTimer(let id, let interval, let previous, let scheduleDelivery):
            previous?.cancel()
            subscription.startTimer(id, after: interval)
            if scheduleDelivery {
                subscription.scheduler.schedule(options: subscription.options, subscription.closure(for: .scheduled))
            }
        case .finish(let timer, let finished):
            timer?.cancel()
            keepAlive(finished)
            subscription.scheduler.schedule(options: subscription.options, subscription.closure(for: .scheduled))
        case .deliver:
            subscription.deliver()
        case .timeOut(let fired, let upstream, let customError):
            fired?.cancel()
            upstream.cancel()
            let completion: Subscribers.Completion<Failure> = customError.map { .failure($0()) } ?? .finished
            subscription.handle { machine, outbox in machine.timedOut(completion, outbox: &outbox) }
        case .cancel(let upstream, let timer, let dropped, let customError):
            upstream?.cancel()
            timer?.cancel()
            _ = (dropped, customError)
        }
    }
}
