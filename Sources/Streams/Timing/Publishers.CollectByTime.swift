// Engine: Engines/SerialDelivery.swift (the one-at-a-time delivery loop the groups go out through).

// MARK: - collect(_:options:)

extension Publisher {
    /// Collects the upstream's values into one array per time window, and sends each array when
    /// its window closes.
    ///
    /// Windows follow each other on `scheduler`, each `interval` long, the first starting at
    /// subscription. When a window closes, the values that arrived during it go downstream as one
    /// array; a window without values sends nothing. With ``Publishers/TimeGroupingStrategy/byTimeOrCount(_:_:_:)``
    /// a window also closes as soon as it holds `count` values, and the next window starts then.
    /// When the upstream finishes, the values of the open window go down as a last, shorter
    /// array, then `.finished`.
    ///
    /// <!-- marble collectByTime scheduler row=2: $0.ints.collect(.byTime(scheduler, .seconds(3))) -->
    /// <!-- marble collectByTimeOrCount scheduler row=4: $0.ints.collect(.byTimeOrCount(scheduler, .seconds(3), 2)) -->
    /// ```text
    /// upstream: -1-2-3----4|
    ///           collect(.byTime(scheduler, 3 ticks))     (windows close at ticks 3, 6, 9, ...)
    /// output:   ---a--b----[c|]      (a = [1, 2], b = [3], c = [4])
    ///
    /// upstream: -123-----4|
    ///           collect(.byTimeOrCount(scheduler, 3 ticks, 2))
    /// output:   --a--b----[c|]       (a = [1, 2], when full; b = [3], three ticks later; c = [4])
    /// ```
    ///
    /// ![Marble diagram of collectByTime](marble-collectByTime)
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let subject = PassthroughSubject<Int, Never>()
    /// let c = subject.collect(.byTime(scheduler, .seconds(1))).sink { print($0) }
    /// subject.send(1)
    /// subject.send(2)
    /// scheduler.advance(by: .seconds(1))
    /// subject.send(3)
    /// subject.send(completion: .finished)
    /// scheduler.advance()
    /// // Prints: [1, 2]
    /// //         [3]
    /// ```
    ///
    /// - Parameters:
    ///   - strategy: `.byTime(scheduler, interval)` or `.byTimeOrCount(scheduler, interval, count)`.
    ///   - options: Options for the scheduler (the windows' schedule and the deliveries).
    /// - Returns: A publisher that sends the values of each time window, or each full group, as one
    ///   array.
    /// - Demand: asks the upstream for `.unlimited` (a window can hold any number of values).
    ///   An array is only sent when the downstream has asked for one ([S1]): a window that closes
    ///   without demand keeps its array, in order behind earlier ones, until demand arrives; the
    ///   windows go on meanwhile, so a downstream that never asks makes arrays pile up. Asking for
    ///   `.none` does nothing and is not passed on, as in Combine ([S9]).
    /// - Completion: `.finished` comes after the waiting arrays and the open window's values (as
    ///   the last array) are sent. A failure is passed on right away (on the scheduler), without
    ///   demand, and the collected values are dropped. What the upstream sends before its
    ///   subscription or after its end is ignored, and a second subscription is cancelled ([S2]).
    /// - Cancellation: cancels the upstream and the windows' schedule, and drops the collected
    ///   values ([S6], [S7]).
    /// - Threading: arrays and the completion are delivered on `scheduler` ([S13]).
    /// - Combine compatibility: as Combine where Combine documents it (an array per interval; a
    ///   last, shorter array when the upstream finishes; a failure without the collected
    ///   values). Combine does not document what happens to a window that closes without
    ///   demand; here its array waits for demand and is never dropped.
    /// - Complexity: O(1) per value (one lock); the collected values are kept until sent.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S13]: doc:/Contract/StreamContract#S13
    @inlinable
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// How ``Publisher/collect(_:options:)`` groups values: by time windows, or by time windows
    /// that also close when they are full.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Windows of the given length on the scheduler: one array per window that has values.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Windows of the given length that also close as soon as they hold the given number of
        /// values (at least 1); the next window starts then.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// The publisher of ``Publisher/collect(_:options:)``: the upstream's values in one array per
    /// time window.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The values of one window.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream
        /// How the values are grouped.
        public let strategy: TimeGroupingStrategy<Context>
        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that collects `upstream`'s values by `strategy`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are collected.
        ///   - strategy: The window length and scheduler, and for `.byTimeOrCount` the most values
        ///     in one array.
        ///   - options: Options for the scheduler, or `nil`.
        /// - Precondition: the count of a `.byTimeOrCount` strategy is at least 1.
        @inlinable
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            if case .byTimeOrCount(_, _, let count) = strategy {
                precondition(count > 0, "collect(.byTimeOrCount(...)) needs a count of at least 1, not \(count)")
            }
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Subscribes `subscriber` to the arrays.
        ///
        /// - Parameter subscriber: The subscriber that receives the arrays and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: CollectByTimeSubscription<Upstream.Output, Failure, Context, S>(
                    downstream: subscriber, strategy: strategy, options: options))
        }
    }
}

// MARK: - Subscription

/// What the scheduler calls back into, without the subscription's generic parameters: the
/// `@Sendable` closures given to the scheduler capture this, so that they carry no metatypes of
/// non-Sendable types.
@usableFromInline
// no state of its own; the subclass guards its state with its `lock`
class CollectByTimeCallbacks: @unchecked Sendable {
    @inlinable init() {}
    @usableFromInline func windowEnded(_ generation: UInt64) {}
    @usableFromInline func drain() {}
}

/// The subscriber to the upstream and the subscription the downstream receives.
///
/// Values go into the open window's `buffer`. A closed window's array joins the arrays waiting
/// to be sent, the queue of a ``SerialDelivery``: its drain, run on the scheduler, sends them as
/// far as the demand allows, then the completion once nothing is left to send. Only the holder
/// of the drain token sends, so the downstream's calls never overlap ([S3]), and a request made
/// from inside `receive(_:)` only adds demand for the running drain to use ([S8]). Each window
/// schedule carries a generation number: a tick of a window that was restarted or cancelled is
/// ignored.
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class CollectByTimeSubscription<Input, UpstreamFailure: Error, Context: Scheduler, Downstream: Subscriber>:
    CollectByTimeCallbacks, Subscriber, Subscription, CustomStringConvertible, SerialDelivery,
    @unchecked Sendable  // all mutable state guarded by `lock`; the scheduler is only used to schedule
where Downstream.Input == [Input], Downstream.Failure == UpstreamFailure {
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline
    enum Status {
        case awaitingSubscription
        case active
        /// Cancelled, or the completion was sent.
        case done
    }

    /// What the drain token holder hands out.
    @usableFromInline
    enum Delivery {
        case array([Input], Downstream)
        case end(Subscribers.Completion<UpstreamFailure>, Downstream)
    }

    @usableFromInline let lock = Lock()
    @usableFromInline let scheduler: Context
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    /// The window's maximum size (`byTimeOrCount`), or `nil`.
    @usableFromInline let count: Int?
    @usableFromInline let options: Context.SchedulerOptions?

    @usableFromInline var status = Status.awaitingSubscription
    @usableFromInline var downstream: Downstream?
    /// The upstream's subscription while `active` and before its `completion`, else a
    /// ``NoSubscription`` (NoSubscription.swift).
    @usableFromInline var upstream: any Subscription = NoSubscription()
    /// The open window's values.
    @usableFromInline var buffer: [Input] = []
    /// The closed windows' arrays waiting to be sent, and the drain token.
    @usableFromInline var serial = SerialQueue<[Input]>()
    @usableFromInline var demand = Subscribers.Demand.none
    /// How the upstream ended; sent once no array is waiting.
    @usableFromInline var completion: Subscribers.Completion<UpstreamFailure>?
    @usableFromInline var window: Cancellable?
    @usableFromInline var windowGeneration: UInt64 = 0

    @inlinable
    init(downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?)
    {
        self.downstream = downstream
        self.options = options
        switch strategy {
        case .byTime(let scheduler, let interval):
            self.scheduler = scheduler
            self.interval = interval
            self.count = nil
        case .byTimeOrCount(let scheduler, let interval, let count):
            self.scheduler = scheduler
            self.interval = interval
            self.count = count
        }
        super.init()
    }

    @usableFromInline var description: String { "CollectByTime" }

    // MARK: Upstream signals

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription = status, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        status = .active
        NoSubscription.hold(subscription, in: &upstream)
        lock.unlock()
        startWindow()
        downstream.receive(subscription: self)
        lock.lock()
        let stillSubscribed = if case .active = status { completion == nil } else { false }
        lock.unlock()
        // After the downstream has the subscription: a synchronous upstream may finish inside.
        if stillSubscribed { subscription.request(.unlimited) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .active = status, completion == nil else {
            lock.unlock()
            return .none
        }
        buffer.append(input)
        guard let count, buffer.count >= count else {
            lock.unlock()
            return .none
        }
        serial.pending.append(buffer)
        buffer = []
        lock.unlock()
        startWindow()
        scheduleDrain()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .active = status, self.completion == nil else {
            lock.unlock()
            return
        }
        let finished = NoSubscription.take(from: &upstream)
        var dropped = FIFOQueue<[Input]>()
        switch completion {
        case .finished:
            if !buffer.isEmpty { serial.pending.append(buffer) }
        case .failure:
            dropped = serial.pending.takeAll()
        }
        buffer = []
        self.completion = completion
        windowGeneration &+= 1
        let window = self.window.take()
        lock.unlock()
        window?.cancel()
        keepAlive(dropped, finished)
        scheduleDrain()
    }

    // MARK: Downstream calls

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard demand != .none else { return }
        lock.lock()
        guard case .active = status else {
            lock.unlock()
            return
        }
        self.demand += demand
        // A running drain sees the new demand at its next step.
        let needsDrain = !serial.pending.isEmpty && !serial.isDraining
        lock.unlock()
        if needsDrain { scheduleDrain() }
    }

    @inlinable
    func cancel() {
        lock.lock()
        if case .done = status {
            lock.unlock()
            return
        }
        status = .done
        let upstream = NoSubscription.take(from: &self.upstream)
        let downstream = self.downstream.take()
        let window = self.window.take()
        windowGeneration &+= 1
        let dropped = (serial.pending.takeAll(), buffer)
        buffer = []
        completion = nil
        lock.unlock()
        // Released after unlocking: the downstream and the values.
        keepAlive(downstream, dropped)
        window?.cancel()
        upstream.cancel()
    }

    // MARK: Windows

    /// Starts a new window now: closes the running schedule and schedules one that ends a window
    /// every `interval` from now.
    @usableFromInline
    func startWindow() {
        lock.lock()
        windowGeneration &+= 1
        let generation = windowGeneration
        let previous = window.take()
        let isOpen = if case .active = status, completion == nil { true } else { false }
        lock.unlock()
        previous?.cancel()
        guard isOpen else { return }
        let target: CollectByTimeCallbacks = self
        let schedule = scheduler.schedule(
            after: scheduler.now.advanced(by: interval),
            interval: interval,
            tolerance: scheduler.minimumTolerance,
            options: options
        ) { [weak target] in
            target?.windowEnded(generation)
        }
        lock.lock()
        if generation == windowGeneration {
            window = schedule
            lock.unlock()
        } else {
            lock.unlock()
            schedule.cancel()
        }
    }

    /// A window of generation `generation` closed (on the scheduler).
    @usableFromInline
    override func windowEnded(_ generation: UInt64) {
        lock.lock()
        guard generation == windowGeneration, case .active = status, completion == nil, !buffer.isEmpty else {
            lock.unlock()
            return
        }
        serial.pending.append(buffer)
        buffer = []
        lock.unlock()
        drain()
    }

    // MARK: Delivery

    /// Schedules a drain. The closure holds this object: the downstream may not keep its
    /// subscription, and after the upstream's completion nothing else may.
    @usableFromInline
    func scheduleDrain() {
        let target: CollectByTimeCallbacks = self
        scheduler.schedule(options: options) {
            target.drain()
        }
    }

    /// Sends the waiting arrays as far as the demand allows, then the completion once none is
    /// left, unless another drain is doing it already. Runs on the scheduler.
    @usableFromInline
    override func drain() {
        lock.lock()
        unlockOrDrainLocked()
    }

    // MARK: SerialDelivery

    /// The oldest waiting array if there is demand for it; the completion once none is waiting.
    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Delivery> {
        demand += returned
        guard case .active = status, let downstream else { return .stop(nil) }
        if demand > 0, let array = serial.pending.popFirst() {
            demand -= 1
            return .deliver(.array(array, downstream))
        }
        guard serial.pending.isEmpty, let completion else { return .stop(nil) }
        status = .done
        self.downstream = nil
        return .deliver(.end(completion, downstream))
    }

    @inlinable
    func deliver(_ delivery: Delivery) -> DeliveryResult {
        switch delivery {
        case .array(let array, let downstream):
            return .returned(downstream.receive(array))
        case .end(let completion, let downstream):
            downstream.receive(completion: completion)
            return .leave  // the token stays taken: nothing follows the completion
        }
    }
}
