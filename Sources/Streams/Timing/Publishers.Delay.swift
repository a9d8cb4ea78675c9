// Engine: Sources/Streams/Engines/TimedSubscription.swift runs DelayStateMachine (below).

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
    /// - Complexity: O(1) amortized per event, one scheduled action per event; O(events on their
    ///   way) memory.
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
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
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
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
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
            upstream.receive(
                subscriber: TimedSubscription(
                    machine: DelayStateMachine(interval: interval, tolerance: tolerance), downstream: subscriber,
                    scheduler: scheduler, options: options))
        }
    }
}

// MARK: - The state machine

/// `delay` as a state machine. Each event (value or completion) waits in `waiting` as it
/// arrives, and work is scheduled `interval` later; each time such work runs, the oldest waiting
/// event goes to the outbox. So events go out in the upstream's order whatever order the
/// scheduler runs the work in. Requests pass to the upstream.
@usableFromInline
struct DelayStateMachine<Input, Failure: Error, Context: Scheduler>: TimedStateMachine {
    @usableFromInline
    enum State {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Receiving events from the upstream.
        case running(upstream: any Subscription)
        /// The upstream completed; its completion is the last waiting event.
        case upstreamFinished
        /// The downstream cancelled, or the completion is in the outbox: nothing more happens.
        case done
    }

    @usableFromInline
    enum Action {
        case none
        /// Pass the downstream's demand to the upstream.
        case request(Subscribers.Demand, from: any Subscription)
        /// Schedule the work that sends the oldest waiting event, `interval` from now; let go of
        /// the upstream if it just finished.
        case scheduleDelivery(
            after: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            finished: (any Subscription)?)
        /// Deliver the outbox.
        case deliver
        /// Cancel the upstream (if given); let go of the events that will not be delivered.
        case cancel(upstream: (any Subscription)?, dropped: FIFOQueue<TimedEvent<Input, Failure>>)
    }

    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    @usableFromInline let tolerance: Context.SchedulerTimeType.Stride
    @usableFromInline var state = State.awaitingSubscription
    /// The events received and not yet due, oldest first.
    @usableFromInline var waiting = FIFOQueue<TimedEvent<Input, Failure>>()

    @inlinable
    init(interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride) {
        self.interval = interval
        self.tolerance = tolerance
    }

    @inlinable static var name: String { "Delay" }
    @inlinable static var readsClock: Bool { false }

    @inlinable
    mutating func upstreamSubscribed(_ upstream: any Subscription) -> Bool {
        guard case .awaitingSubscription = state else { return false }
        state = .running(upstream: upstream)
        return true
    }

    @inlinable
    mutating func downstreamSubscribed() -> Action {
        .none  // the downstream's requests go to the upstream as they come
    }

    @inlinable
    mutating func upstreamSent(_ value: Input, now _: Context.SchedulerTimeType?) -> Action {
        guard case .running = state else { return .none }
        waiting.append(.value(value))
        return .scheduleDelivery(after: interval, tolerance: tolerance, finished: nil)
    }

    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
        guard case .running(let upstream) = state else { return .none }
        state = .upstreamFinished
        waiting.append(.completion(completion))
        return .scheduleDelivery(after: interval, tolerance: tolerance, finished: upstream)
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
        .none  // `delay` starts no timer
    }

    @inlinable
    mutating func timerScheduled(_ timer: any Cancellable, id: UInt64) -> (any Cancellable)? {
        timer  // `delay` starts no timer
    }

    @inlinable
    mutating func ended() -> Action {
        let upstream = if case .running(let upstream) = state { upstream } else { Optional<any Subscription>.none }
        state = .done
        return .cancel(upstream: upstream, dropped: waiting.takeAll())
    }

    @inlinable
    static func perform<Downstream: Subscriber>(_ action: Action, in subscription: TimedSubscription<Self, Downstream>)
    where Downstream.Input == Input, Downstream.Failure == Failure {
        switch action {
        case .none:
            break
        case .request(let demand, let upstream):
            upstream.request(demand)
        case .scheduleDelivery(let interval, let tolerance, let finished):
            keepAlive(finished)
            let scheduler = subscription.scheduler
            scheduler.schedule(
                after: scheduler.now.advanced(by: interval), tolerance: tolerance,
                options: subscription.options, subscription.closure(for: .scheduled))
        case .deliver:
            subscription.deliver()
        case .cancel(let upstream, let dropped):
            upstream?.cancel()
            _ = dropped
        }
    }
}
