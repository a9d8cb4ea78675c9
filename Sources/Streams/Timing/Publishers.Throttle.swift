// Engine: Sources/Streams/Engines/TimedSubscription.swift runs ThrottleStateMachine (below).

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
    /// - Complexity: O(1) per value; one scheduled action per value sent.
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
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            latest: Bool
        ) {
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
            upstream.receive(
                subscriber: TimedSubscription(
                    machine: ThrottleStateMachine(interval: interval, latest: latest), downstream: subscriber,
                    scheduler: scheduler, options: nil))
        }
    }
}

// MARK: - The state machine

/// `throttle` as a state machine. A value that finds nothing waiting and the downstream with
/// demand becomes the waiting value, and one emission is scheduled for it: at once, or
/// `interval` after the last value sent. Values that arrive while one waits replace it
/// (`latest`) or are dropped. The emission sends the waiting value and, if the upstream
/// completed meanwhile, the completion after it.
@usableFromInline
struct ThrottleStateMachine<Input, Failure: Error, Context: Scheduler>: TimedStateMachine {
    @usableFromInline
    enum State {
        /// Created; the upstream has not sent its subscription yet.
        case awaitingSubscription
        /// Receiving values from the upstream (asked for `.unlimited`). An emission is scheduled
        /// exactly when a value is `waiting`.
        case running(upstream: any Subscription)
        /// The upstream completed: the scheduled emission sends the waiting value, if any, then
        /// this completion.
        case finishing(Subscribers.Completion<Failure>)
        /// The completion is in the outbox, or the downstream cancelled: nothing more happens.
        case done
    }

    @usableFromInline
    enum Action {
        case none
        /// Ask the upstream for everything: `throttle` keeps the downstream's demand itself.
        case requestUnlimited(from: any Subscription)
        /// Schedule the emission at `deadline`, or at once if `nil`.
        case scheduleEmission(at: Context.SchedulerTimeType?)
        /// Let go of the finished upstream and, if `scheduleEmission`, schedule the emission at
        /// once.
        case finish(finished: any Subscription, scheduleEmission: Bool)
        /// Deliver the outbox.
        case deliver
        /// Let go of the replaced value.
        case letGo(Input?)
        /// Cancel the upstream (if given); let go of what is dropped.
        case cancel(upstream: (any Subscription)?, dropped: Input?, completion: Subscribers.Completion<Failure>?)
    }

    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    /// Whether a value that arrives while one waits replaces it.
    @usableFromInline let latest: Bool
    @usableFromInline var state = State.awaitingSubscription
    /// While `running` or `finishing`: the value the scheduled emission sends. It holds one unit
    /// of the downstream's demand.
    @usableFromInline var waiting: Input?
    /// When the last value was sent; `nil` before the first.
    @usableFromInline var lastEmission: Context.SchedulerTimeType?
    /// While `running`: the downstream's outstanding demand, beyond the unit `waiting` holds.
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init(interval: Context.SchedulerTimeType.Stride, latest: Bool) {
        self.interval = interval
        self.latest = latest
    }

    @inlinable static var name: String { "Throttle" }
    @inlinable static var readsClock: Bool { true }

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
    mutating func upstreamSent(_ value: Input, now: Context.SchedulerTimeType?) -> Action {
        guard case .running = state, let now else { return .none }
        if waiting != nil {
            // A value is waiting: it holds the demand; keep the latest or the first.
            guard latest else { return .none }
            let replaced = waiting
            waiting = value
            return .letGo(replaced)
        }
        guard demand > 0 else { return .none }  // no demand: dropped
        demand -= 1
        waiting = value
        if let earliest = lastEmission?.advanced(by: interval), earliest > now {
            return .scheduleEmission(at: earliest)
        }
        return .scheduleEmission(at: nil)
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
        return .finish(finished: upstream, scheduleEmission: waiting == nil)
    }

    /// The scheduled emission.
    @inlinable
    mutating func workRan(
        now: Context.SchedulerTimeType?,
        outbox: inout FIFOQueue<TimedEvent<Input, Failure>>
    ) -> Action {
        switch state {
        case .running:
            guard let value = waiting.take() else { return .none }
            lastEmission = now
            outbox.append(.value(value))
            return .deliver
        case .finishing(let completion):
            if let value = waiting.take() { outbox.append(.value(value)) }
            outbox.append(.completion(completion))
            state = .done
            return .deliver
        case .awaitingSubscription, .done:
            return .none
        }
    }

    @inlinable
    mutating func timerFired(_ id: UInt64, outbox: inout FIFOQueue<TimedEvent<Input, Failure>>) -> Action {
        .none  // `throttle` starts no timer
    }

    @inlinable
    mutating func timerScheduled(_ timer: any Cancellable, id: UInt64) -> (any Cancellable)? {
        timer  // `throttle` starts no timer
    }

    @inlinable
    mutating func ended() -> Action {
        let ending = state
        state = .done
        switch ending {
        case .running(let upstream):
            return .cancel(upstream: upstream, dropped: waiting.take(), completion: nil)
        case .finishing(let completion):
            return .cancel(upstream: nil, dropped: waiting.take(), completion: completion)
        case .awaitingSubscription, .done:
            return .none
        }
    }

    @inlinable
    static func perform<Downstream: Subscriber>(_ action: Action, in subscription: TimedSubscription<Self, Downstream>)
    where Downstream.Input == Input, Downstream.Failure == Failure {
        let scheduler = subscription.scheduler
        switch action {
        case .none:
            break
        case .requestUnlimited(let upstream):
            upstream.request(.unlimited)
        case .scheduleEmission(let deadline?):
            scheduler.schedule(
                after: deadline, tolerance: scheduler.minimumTolerance, options: nil,
                subscription.closure(for: .scheduled))
        case .scheduleEmission(nil):
            scheduler.schedule(options: nil, subscription.closure(for: .scheduled))
        case .finish(let finished, let scheduleEmission):
            keepAlive(finished)
            if scheduleEmission { scheduler.schedule(options: nil, subscription.closure(for: .scheduled)) }
        case .deliver:
            subscription.deliver()
        case .letGo(let replaced):
            _ = replaced
        case .cancel(let upstream, let dropped, let completion):
            upstream?.cancel()
            _ = (dropped, completion)
        }
    }
}
