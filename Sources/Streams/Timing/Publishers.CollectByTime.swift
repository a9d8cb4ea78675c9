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
    /// - Demand: asks the upstream for `.unlimited` (a window can hold any number of values).
    ///   An array is only sent when the downstream has asked for one (S1): a window that closes
    ///   without demand keeps its array, in order behind earlier ones, until demand arrives; the
    ///   windows go on meanwhile, so a downstream that never asks makes arrays pile up. Asking for
    ///   `.none` does nothing and is not passed on, as in Combine (S9).
    /// - Completion: `.finished` comes after the waiting arrays and the open window's values (as
    ///   the last array) are sent. A failure is passed on right away (on the scheduler), without
    ///   demand, and the collected values are dropped. What the upstream sends before its
    ///   subscription or after its end is ignored, and a second subscription is cancelled (S2).
    /// - Cancellation: cancels the upstream and the windows' schedule, and drops the collected
    ///   values (S6, S7).
    /// - Threading: arrays and the completion are delivered on `scheduler` (S13).
    /// - Combine compatibility: as Combine where Combine documents it (an array per interval; a
    ///   last, shorter array when the upstream finishes; a failure without the collected
    ///   values). Combine does not document what happens to a window that closes without
    ///   demand; here its array waits for demand and is never dropped.
    /// - Complexity: O(1) per value (one lock); the collected values are kept until sent.
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
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByTimeSubscription<Upstream.Output, Failure, Context, S>(
                downstream: subscriber, strategy: strategy, options: options))
        }
    }
}

// MARK: - Subscription

/// What the scheduler calls back into, without the subscription's generic parameters: the
/// `@Sendable` closures given to the scheduler capture this, so that they carry no metatypes of
/// non-Sendable types.
@usableFromInline
class CollectByTimeCallbacks: @unchecked Sendable {  // no state of its own; the subclass guards its state with its `lock`
    @inlinable init() {}
    @usableFromInline func windowEnded(_ generation: UInt64) {}
    @usableFromInline func drain() {}
}

/// The subscriber to the upstream and the subscription the downstream receives.
///
/// Values go into the open window's `buffer`. A closed window's array joins `ready`, the arrays
/// waiting to be sent; a drain on the scheduler sends them as far as the demand allows, then the
/// completion once nothing is left to send. Only one drain sends at a time (`delivering`), so the
/// downstream's calls never overlap (S3), and a request made from inside `receive(_:)` only adds
/// demand for the running drain to use (S8). Each window schedule carries a generation number:
/// a tick of a window that was restarted or cancelled is ignored.
@usableFromInline
final class CollectByTimeSubscription<Input, UpstreamFailure: Error, Context: Scheduler, Downstream: Subscriber>:
    CollectByTimeCallbacks, Subscriber, Subscription, CustomStringConvertible,
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

    @usableFromInline let lock = Lock()
    @usableFromInline let scheduler: Context
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    /// The window's maximum size (`byTimeOrCount`), or `nil`.
    @usableFromInline let count: Int?
    @usableFromInline let options: Context.SchedulerOptions?

    @usableFromInline var status = Status.awaitingSubscription
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream: Subscription?
    @usableFromInline var buffer: [Input] = []
    @usableFromInline var ready: [[Input]] = []
    @usableFromInline var demand = Subscribers.Demand.none
    /// How the upstream ended; sent once `ready` is empty.
    @usableFromInline var completion: Subscribers.Completion<UpstreamFailure>?
    @usableFromInline var window: Cancellable?
    @usableFromInline var windowGeneration: UInt64 = 0
    @usableFromInline var delivering = false

    @inlinable
    init(downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
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
        upstream = subscription
        lock.unlock()
        startWindow()
        downstream.receive(subscription: self)
        lock.lock()
        let stillSubscribed = upstream != nil
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
        ready.append(buffer)
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
        upstream = nil
        var dropped: [[Input]] = []
        switch completion {
        case .finished:
            if !buffer.isEmpty { ready.append(buffer) }
        case .failure:
            dropped = ready
            ready = []
        }
        buffer = []
        self.completion = completion
        windowGeneration &+= 1
        let window = self.window.take()
        lock.unlock()
        window?.cancel()
        _ = dropped
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
        // A running drain sees the new demand before it stops.
        let needsDrain = !ready.isEmpty && !delivering
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
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        let window = self.window.take()
        windowGeneration &+= 1
        let dropped = (ready, buffer)
        ready = []
        buffer = []
        completion = nil
        lock.unlock()
        // Released after unlocking: the downstream and the values.
        _ = (downstream, dropped)
        window?.cancel()
        upstream?.cancel()
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
        ready.append(buffer)
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
    /// left. Runs on the scheduler; only one drain sends at a time.
    @usableFromInline
    override func drain() {
        lock.lock()
        guard !delivering, case .active = status, let downstream else {
            lock.unlock()
            return
        }
        delivering = true
        while true {
            if demand > 0, !ready.isEmpty {
                let array = ready.removeFirst()
                demand -= 1
                lock.unlock()
                let more = downstream.receive(array)
                lock.lock()
                guard case .active = status else {
                    delivering = false
                    lock.unlock()
                    return
                }
                demand += more
                continue
            }
            if ready.isEmpty, let completion {
                status = .done
                self.downstream = nil
                delivering = false
                lock.unlock()
                downstream.receive(completion: completion)
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }
}
