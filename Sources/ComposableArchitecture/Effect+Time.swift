import Streams

// Effects and time: waiting before the work starts (`deferred`, `debounce`), limiting how often
// actions are sent (`throttle`), and a timer. Every one of them does its waiting on the
// scheduler it is given, so a test passes `DispatchQueue.test` and moves time itself (S13).

extension Effect {
    /// Waits `dueTime` on `scheduler`, then starts the effect; its actions are delivered on
    /// `scheduler`.
    ///
    /// The work itself is not started early: nothing of the effect runs (no request is made, no
    /// task is started) until the time has passed. Cancelling while it waits means the work
    /// never starts.
    ///
    /// <!-- marble effect-deferred scheduler source: Effect(value: "a").deferred(for: .seconds(3), scheduler: scheduler) -->
    /// ```text
    /// effect:                            [a|]      (sends a at once when started)
    ///                                    deferred(for: 3 ticks, scheduler: scheduler)
    /// output:                            ---[a|]
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .showToast(let message):
    ///     state.toast = message
    ///     return Effect(value: .hideToast).deferred(for: .seconds(2), scheduler: environment.mainQueue)
    /// ```
    ///
    /// - Parameters:
    ///   - dueTime: How long to wait before starting the effect.
    ///   - scheduler: Where to wait, start the work and deliver its actions.
    ///   - options: Options for the scheduler, or `nil`.
    /// - Returns: An effect that starts this one once `dueTime` has passed.
    /// - Completion: finishes when the effect finishes, after the wait.
    /// - Cancellation: cancelling during the wait cancels the scheduled start; afterwards it
    ///   cancels the work.
    /// - Threading: the effect is started and its actions are delivered on `scheduler`.
    /// - Complexity: one scheduled action to start, one per action delivered.
    public func deferred<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Effect {
        if isNone { return .none }
        return .composed { context in
            // Made now, when the store starts the effect, so cancellation identifiers inside it
            // are stamped now (a cancel during the wait still wins); subscribed after the wait.
            let work = self.publisherOrEmpty(in: context)
            return Just(())
                .delay(for: dueTime, scheduler: scheduler, options: options)
                .flatMap { _ -> Publishers.ReceiveOn<AnyPublisher<Output, Never>, S> in
                    work.receive(on: scheduler, options: options)
                }
                .eraseToAnyPublisher()
        }
    }

    /// Starts the effect only once no other effect with the same `id` has been started for
    /// `dueTime`: each new one replaces the one waiting ([A8]).
    ///
    /// The classic use is a search field: every keystroke returns a search effect debounced
    /// under one identifier, and only the last one, once typing has paused, runs. It is
    /// ``deferred(for:scheduler:options:)`` made `cancellable(id:, cancelInFlight: true)`: the
    /// work does not start before `dueTime` has passed, and an effect started under `id` cancels
    /// the one still waiting (or already running) under it. `.cancel(id:)` cancels it too.
    ///
    /// <!-- marble effect-debounce scheduler: runEffects($0) { Effect(value: $0.uppercased()).debounce(id: "search", for: .seconds(3), scheduler: scheduler) } -->
    /// ```text
    /// queries:  a-b|           (each returns search(query).debounce(id: Search.self, for: 3 ticks, ...))
    /// output:   -----[B|]      (B: search("b")'s result; search("a") never started)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case let .queryChanged(query):
    ///     state.query = query
    ///     return environment.search(query)
    ///         .map(AppAction.searchResponse)
    ///         .debounce(id: SearchID.self, for: .milliseconds(300), scheduler: environment.mainQueue)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The identifier the effects to debounce share (any hashable, sendable value).
    ///   - dueTime: How long to wait before starting the work.
    ///   - scheduler: Where to wait, start the work and deliver its actions.
    ///   - options: Options for the scheduler.
    /// - Returns: The effect, started once `dueTime` has passed with no newer one under `id`.
    /// - Completion: finishes when the work finishes, or at once when replaced or cancelled.
    /// - Cancellation: by `id`, like any `cancellable(id:)` effect; a later debounce under `id`
    ///   cancels this one.
    /// - Threading: the work is started and its actions are delivered on `scheduler`.
    /// - Complexity: as ``deferred(for:scheduler:options:)`` plus `cancellable(id:)`.
    ///
    /// [A8]: doc:/Contract/StoreContract#A8
    public func debounce<ID: Hashable & Sendable, S: Scheduler>(
        id: ID,
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Effect {
        deferred(for: dueTime, scheduler: scheduler, options: options)
            .cancellable(id: id, cancelInFlight: true)
    }

    /// ``debounce(id:for:scheduler:options:)-(ID,_,_,_)`` under a type (`SearchID.self`).
    ///
    /// ```swift
    /// enum SearchID {}
    /// let search = Effect<String>(value: "results")
    ///     .debounce(id: SearchID.self, for: .milliseconds(300), scheduler: DispatchQueue.main)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The type that names the effects to debounce.
    ///   - dueTime: How long to wait before starting the work.
    ///   - scheduler: Where to wait, start the work and deliver its actions.
    ///   - options: Options for the scheduler.
    /// - Returns: The effect, started once `dueTime` has passed with no newer one under `id`.
    public func debounce<S: Scheduler>(
        id: Any.Type,
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Effect {
        debounce(id: ObjectIdentifier(id), for: dueTime, scheduler: scheduler, options: options)
    }

    /// Sends at most one action per `interval` among all the effects throttled under `id`: the
    /// first at once, the others held until the interval is over ([A8]).
    ///
    /// The effects throttled under one identifier share a window, kept per identifier by the
    /// store tree (two stores never share it). An action that comes when no action was sent
    /// under `id` for `interval` is sent at once and opens a window; one that comes during a
    /// window is held and sent when the window closes, which opens the next. Only one action is
    /// held per identifier: with `latest: true` a newer action replaces it (you get the most
    /// recent), with `latest: false` the first one stays and newer ones are dropped. Time is
    /// measured, and every action delivered, on `scheduler`: "at once" means as soon as
    /// `scheduler` runs it (with a test scheduler, on the next `advance`).
    ///
    /// <!-- marble effect-throttle-latest scheduler row=2 inputs=1: runEffects($0) { Effect(value: $0).throttle(id: "scroll", for: .seconds(3), scheduler: scheduler, latest: true) } -->
    /// <!-- marble effect-throttle-first scheduler row=3 inputs=1: runEffects($0) { Effect(value: $0).throttle(id: "scroll", for: .seconds(3), scheduler: scheduler, latest: false) } -->
    /// ```text
    /// actions: abc-----d-     (each from an effect throttled under one id, interval 3 ticks)
    /// latest:  a--c----d-     (b was replaced by c, sent when the window closed)
    /// first:   a--b----d-     (c was dropped)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case let .scrolled(offset):
    ///     return Effect(value: .saveScrollPosition(offset))
    ///         .throttle(id: ScrollID.self, for: .seconds(1), scheduler: environment.mainQueue, latest: true)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The identifier the throttled effects share.
    ///   - interval: The shortest time between two actions sent under `id`.
    ///   - scheduler: Where time is measured and the actions are delivered.
    ///   - latest: Whether a held action is replaced by newer ones (`true`) or kept (`false`).
    /// - Returns: The effect, throttled with the others under `id`.
    /// - Completion: an effect whose action is held finishes when it sends it, at the end of
    ///   the window; the others finish when their work does.
    /// - Cancellation: `.cancel(id:)` cancels the throttled effects, and the held action is
    ///   dropped. Cancelling the effect that holds the window's timer drops the held action too.
    /// - Threading: every action is delivered on `scheduler`.
    /// - Note: the held action is sent by the effect that started the window's wait, so an
    ///   identifier should be used for one type of action; using two schedulers with one
    ///   identifier starts a new window whenever the scheduler changes.
    /// - Complexity: O(1) per action; one scheduled action per held window.
    ///
    /// [A8]: doc:/Contract/StoreContract#A8
    public func throttle<ID: Hashable & Sendable, S: Scheduler>(
        id: ID,
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Effect {
        if isNone { return .none }
        let key = CancelID(id)
        return Effect.composed { context in
            let gate: ThrottleGate<S.SchedulerTimeType> = context.throttles.gate(for: key)
            let token = gate.newToken()
            return self.publisherOrEmpty(in: context)
                .receive(on: scheduler)
                .flatMap { value -> AnyPublisher<Output, Never> in
                    switch gate.offer(value, at: scheduler.now, interval: interval, latest: latest, token: token) {
                    case .sendNow:
                        return Just(value).eraseToAnyPublisher()
                    case .held:
                        return Empty().eraseToAnyPublisher()
                    case .holdUntil(let deadline):
                        return Just(())
                            .delay(for: scheduler.now.distance(to: deadline), scheduler: scheduler)
                            .compactMap { _ in gate.release(token: token, at: scheduler.now) as? Output }
                            .eraseToAnyPublisher()
                    }
                }
                .handleEvents(receiveCancel: { gate.abandon(token: token) })
                .eraseToAnyPublisher()
        }
        .cancellable(id: id)
    }

    /// ``throttle(id:for:scheduler:latest:)-(ID,_,_,_)`` under a type (`ScrollID.self`).
    ///
    /// ```swift
    /// enum ScrollID {}
    /// let save = Effect<Int>(value: 120)
    ///     .throttle(id: ScrollID.self, for: .seconds(1), scheduler: DispatchQueue.main, latest: true)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The type that names the throttled effects.
    ///   - interval: The shortest time between two actions sent under `id`.
    ///   - scheduler: Where time is measured and the actions are delivered.
    ///   - latest: Whether a held action is replaced by newer ones (`true`) or kept (`false`).
    /// - Returns: The effect, throttled with the others under `id`.
    public func throttle<S: Scheduler>(
        id: Any.Type,
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Effect {
        throttle(id: ObjectIdentifier(id), for: interval, scheduler: scheduler, latest: latest)
    }

    /// An effect that sends `scheduler`'s time every `interval` until it is cancelled with
    /// `.cancel(id: id)`.
    ///
    /// Starting a timer under `id` cancels the timer already running under it, so sending
    /// "start" twice does not double the ticks. The first tick comes one `interval` after the
    /// effect starts. The timer never finishes by itself: cancel it (the store also cancels it
    /// when it goes away).
    ///
    /// <!-- marble effect-timer scheduler: runEffects($0) { $0 == "s" ? Effect.timer(id: "timer", every: .seconds(2), on: scheduler).map { "\(seconds($0))" } : .cancel(id: "timer") } -->
    /// ```text
    /// actions:  s------x       (s returns Effect.timer(id: TimerID.self, every: 2 ticks, on: scheduler);
    ///                           x returns .cancel(id: TimerID.self))
    /// output:   --2-4-6-       (the scheduler's time at each tick; none after the cancel)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .startTimer:
    ///     return Effect.timer(id: TimerID.self, every: .seconds(1), on: environment.mainQueue)
    ///         .map { _ in .timerTicked }
    /// case .stopTimer:
    ///     return .cancel(id: TimerID.self)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The identifier to cancel the timer with.
    ///   - interval: The time between two ticks.
    ///   - tolerance: How late a tick may be; `nil` is the scheduler's minimum tolerance.
    ///   - scheduler: Where the timer runs and ticks are delivered.
    ///   - options: Options for the scheduler.
    /// - Returns: An effect that sends the scheduler's time at each tick, until cancelled.
    /// - Completion: never finishes by itself.
    /// - Cancellation: `.cancel(id:)` stops the timer's repeating schedule.
    /// - Threading: ticks are delivered on `scheduler`.
    /// - Complexity: one repeating scheduled action.
    public static func timer<ID: Hashable & Sendable, S: Scheduler>(
        id: ID,
        every interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Effect where S.SchedulerTimeType == Output {
        // Deferred: each start of the effect gets a timer of its own.
        Effect(
            Deferred {
                SchedulerTimer(interval: interval, tolerance: tolerance, scheduler: scheduler, options: options)
                    .autoconnect()
            }
        )
        .cancellable(id: id, cancelInFlight: true)
    }

    /// ``timer(id:every:tolerance:on:options:)-(ID,_,_,_,_)`` under a type (`TimerID.self`).
    ///
    /// ```swift
    /// enum TimerID {}
    /// let ticks = Effect.timer(id: TimerID.self, every: .seconds(1), on: DispatchQueue.main)
    /// let stop = Effect<DispatchQueue.SchedulerTimeType>.cancel(id: TimerID.self)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The type to cancel the timer with.
    ///   - interval: The time between two ticks.
    ///   - tolerance: How late a tick may be; `nil` is the scheduler's minimum tolerance.
    ///   - scheduler: Where the timer runs and ticks are delivered.
    ///   - options: Options for the scheduler.
    /// - Returns: An effect that sends the scheduler's time at each tick, until cancelled.
    public static func timer<S: Scheduler>(
        id: Any.Type,
        every interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Effect where S.SchedulerTimeType == Output {
        timer(id: ObjectIdentifier(id), every: interval, tolerance: tolerance, on: scheduler, options: options)
    }
}

// MARK: - Internal: throttle state

/// The throttle windows of one store tree, one per identifier ([A8]).
///
/// [A8]: doc:/Contract/StoreContract#A8
package final class ThrottleRegistry: @unchecked Sendable {  // `gates` guarded by `lock`
    private let lock = Lock()
    private var gates: [CancelID: AnyObject] = [:]

    init() {}

    /// The window of `id`, measured in `Time`; a new one if there is none in that time type.
    func gate<Time: Strideable>(for id: CancelID) -> ThrottleGate<Time> {
        lock.withLock {
            if let gate = gates[id] as? ThrottleGate<Time> { return gate }
            let gate = ThrottleGate<Time>()
            gates[id] = gate
            return gate
        }
    }
}

/// One identifier's throttle window: when an action was last sent, the held action, and which
/// effect waits to send it (its token).
final class ThrottleGate<Time: Strideable>: @unchecked Sendable {  // all mutable state guarded by `lock`
    enum Decision {
        /// Send the action now; a window opens.
        case sendNow
        /// The action is held (or dropped); another effect waits to send the held one.
        case held
        /// The action is held; the caller waits until `deadline` and then calls `release`.
        case holdUntil(Time)
    }

    private let lock = Lock()
    private var lastSent: Time?
    private var heldValue: Any?
    /// The effect that waits to send the held action.
    private var waiter: UInt64?
    private var lastToken: UInt64 = 0

    /// A token for one started effect.
    func newToken() -> UInt64 {
        lock.withLock {
            lastToken += 1
            return lastToken
        }
    }

    /// Decides what to do with `value`, arriving at `now` from the effect with `token`.
    func offer(_ value: Any, at now: Time, interval: Time.Stride, latest: Bool, token: UInt64) -> Decision {
        let replaced: Any?
        lock.lock()
        if waiter == nil, lastSent.map({ $0.distance(to: now) >= interval }) ?? true {
            lastSent = now
            lock.unlock()
            return .sendNow
        }
        if heldValue == nil || latest {
            replaced = heldValue
            heldValue = value
        } else {
            replaced = value
        }
        guard waiter == nil, let lastSent else {
            lock.unlock()
            keepAlive(replaced)
            return .held
        }
        waiter = token
        lock.unlock()
        keepAlive(replaced)
        return .holdUntil(lastSent.advanced(by: interval))
    }

    /// At the end of the window: the held action, if the effect with `token` still waits for it.
    func release(token: UInt64, at now: Time) -> Any? {
        lock.lock()
        guard waiter == token else {
            lock.unlock()
            return nil
        }
        waiter = nil
        let value = heldValue.take()
        if value != nil { lastSent = now }
        lock.unlock()
        return value
    }

    /// The effect with `token` was cancelled: if it waited to send the held action, drop it.
    func abandon(token: UInt64) {
        lock.lock()
        guard waiter == token else {
            lock.unlock()
            return
        }
        waiter = nil
        let value = heldValue.take()
        lock.unlock()
        keepAlive(value)
    }
}
