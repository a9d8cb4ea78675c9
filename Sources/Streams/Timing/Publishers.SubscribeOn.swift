// Engine: none. The whole operator is in this file.

// MARK: - subscribe(on:options:)

extension Publisher {
    /// Subscribes to the upstream, and sends it the downstream's requests and cancel, on
    /// `scheduler`.
    ///
    /// Where ``receive(on:options:)`` moves what flows down (values, completion),
    /// `subscribe(on:)` moves what flows up: the call that subscribes to the upstream, each
    /// `request` and the `cancel`. Use it when subscribing starts expensive or blocking work (a
    /// `Deferred` that reads a file, a publisher that does its work inside `request`) that should
    /// not run on the caller's thread. Values are not moved: they arrive on whatever thread the
    /// upstream sends them, which for an upstream that produces inside `request` is the
    /// scheduler.
    ///
    /// <!-- marble subscribeOn scheduler: $0.subscribe(on: scheduler) -->
    /// ```text
    /// upstream: -a-b-|
    ///           subscribe(on: scheduler)
    /// output:   -a-b-|      (same events; subscribe, request and cancel ran on `scheduler`)
    /// ```
    ///
    /// ![Marble diagram of subscribeOn](marble-subscribeOn)
    ///
    /// ```swift
    /// func loadSettings() -> String { "theme=dark" }   // slow work: reads a file, say
    /// let queue = DispatchQueue(label: "io")
    /// let c = Deferred { Just(loadSettings()) }   // loadSettings() runs on `queue`
    ///     .subscribe(on: queue)
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { print($0) }
    /// // Prints the settings, on the main queue, after `sink` has returned.
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: Where to subscribe to the upstream and send it requests and the cancel.
    ///   - options: Options for each piece of work scheduled.
    /// - Returns: A publisher that subscribes to the upstream, and passes requests and cancellation
    ///   to it, on `scheduler`.
    ///
    /// - Demand: passes through unchanged, but each `request` is scheduled: the upstream sees
    ///   it when the scheduler runs it, not before `request` returns. Demand returned from
    ///   `receive(_:)` goes back to the upstream directly, as the return value. Asking for
    ///   `.none` does nothing and is not passed on, as in Combine ([S9]).
    /// - Completion: passes through unchanged, on the thread the upstream sends it; the
    ///   downstream and the upstream subscription are let go ([S7]). Nothing the upstream sends
    ///   after it is passed on ([S4]). What the upstream sends before its subscription or after its
    ///   end is ignored, and a second subscription is cancelled ([S2]).
    /// - Cancellation: `cancel()` stops delivery at once: whatever the upstream sends after it is
    ///   dropped (a value already being delivered on another thread may still arrive), later
    ///   requests are not sent, and the downstream is let go ([S6], [S7]). The upstream is cancelled
    ///   on the scheduler, and let go once that has run.
    /// - Threading: subscribing to the upstream, `request` and `cancel` run on `scheduler`,
    ///   asynchronously for a dispatch queue: `sink` returns before the upstream is subscribed,
    ///   and values a subject sends before that are not seen. The downstream receives its
    ///   subscription where the upstream hands it over (on the scheduler, for a publisher that
    ///   does so inside `subscribe`); values and the completion arrive on the upstream's thread.
    /// - Combine compatibility: as Combine. In addition, nothing the upstream sends after
    ///   `cancel()` has returned reaches the downstream, even before the scheduled cancel has run.
    /// - Complexity: O(1) per value (one uncontended lock); one scheduled piece of work for the
    ///   subscribe, per request and for the cancel.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/subscribe(on:options:)``: the upstream, subscribed to, asked
    /// and cancelled on a scheduler.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to on the scheduler.
        public let upstream: Upstream
        /// The scheduler that runs the subscribe, the requests and the cancel.
        public let scheduler: Context
        /// Options for the work scheduled on `scheduler`.
        public let options: Context.SchedulerOptions?

        /// Schedules the subscription of `subscriber` to the upstream on the scheduler.
        ///
        /// - Parameter subscriber: The subscriber that receives the upstream's values and
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SubscribeOnSubscription(
                upstream: upstream, downstream: subscriber,
                scheduler: scheduler, options: options)
            let commands: any UpstreamCommands = subscription
            scheduler.schedule(options: options) { commands.subscribeUpstream() }
        }

        /// Creates a publisher that subscribes to `upstream` on `scheduler`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher to subscribe to on `scheduler`.
        ///   - scheduler: The scheduler to subscribe, request and cancel on.
        ///   - options: Options for the scheduler, or `nil`.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }
    }
}

// MARK: - Subscription

/// The subscriber to the upstream and the subscription the downstream receives for
/// `subscribe(on:)`.
///
/// It holds the upstream publisher until the scheduled subscribe takes it. Values and the
/// completion pass straight through (reading the downstream under the lock, so that nothing gets
/// through after `cancel()`); `request` and `cancel` are scheduled, and the scheduled work reads
/// the upstream subscription under the lock when it runs.
@usableFromInline
final class SubscribeOnSubscription<Upstream: Publisher, Downstream: Subscriber, Context: Scheduler>:
    Subscriber, Subscription, CustomStringConvertible, UpstreamCommands,
    @unchecked Sendable  // every `var` is guarded by `lock`; `scheduler` and `options` are read-only
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let lock = Lock()
    /// Until the scheduled subscribe takes it.
    @usableFromInline var publisher: Upstream?
    /// `nil` once completed or cancelled.
    @usableFromInline var downstream: Downstream?
    /// The upstream's subscription while `holdsUpstream`, else a ``NoSubscription``
    /// (NoSubscription.swift).
    @usableFromInline var upstream: any Subscription = NoSubscription()
    /// From `receive(subscription:)` until the completion or `cancel()`.
    @usableFromInline var holdsUpstream = false
    /// The upstream subscription between `cancel()` and the scheduled cancel, else a
    /// ``NoSubscription``.
    @usableFromInline var cancelling: any Subscription = NoSubscription()
    /// Whether the upstream's subscription has arrived (a second one is cancelled).
    @usableFromInline var isSubscribed = false
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(upstream: Upstream, downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.publisher = upstream
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    @usableFromInline var description: String { "SubscribeOn" }

    /// Runs on the scheduler: subscribes to the upstream.
    @inlinable
    func subscribeUpstream() {
        lock.lock()
        let publisher = self.publisher.take()
        lock.unlock()
        publisher?.receive(subscriber: self)
    }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isSubscribed, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        isSubscribed = true
        holdsUpstream = true
        NoSubscription.hold(subscription, in: &upstream)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // Before the subscription, or once over, a value is ignored (S2).
        guard isSubscribed, let downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // Before the subscription, or once over, a completion is ignored (S2).
        guard isSubscribed else {
            lock.unlock()
            return
        }
        let downstream = self.downstream.take()
        holdsUpstream = false
        let upstream = NoSubscription.take(from: &self.upstream)
        lock.unlock()
        keepAlive(upstream)  // let go of after unlocking (S7)
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard demand != .none else { return }
        lock.lock()
        let isActive = holdsUpstream
        lock.unlock()
        guard isActive else { return }
        let commands: any UpstreamCommands = self
        scheduler.schedule(options: options) { commands.requestUpstream(demand) }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let downstream = self.downstream.take()
        guard holdsUpstream else {
            lock.unlock()
            keepAlive(downstream)  // let go of after unlocking (S7)
            return
        }
        holdsUpstream = false
        swap(&upstream, &cancelling)  // `cancelling` held a `NoSubscription`: now `upstream` does
        lock.unlock()
        keepAlive(downstream)
        let commands: any UpstreamCommands = self
        scheduler.schedule(options: options) { commands.cancelUpstream() }
    }

    // MARK: On the scheduler

    /// Runs on the scheduler: passes a request on, unless cancelled or completed meanwhile.
    @inlinable
    func requestUpstream(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream.request(demand)
    }

    /// Runs on the scheduler: cancels the upstream and lets go of it.
    @inlinable
    func cancelUpstream() {
        lock.lock()
        let upstream = NoSubscription.take(from: &cancelling)
        lock.unlock()
        upstream.cancel()
    }
}

/// What the closures that `subscribe(on:)` schedules call. They capture an existential of this
/// protocol, not the generic subscription, so that no generic type crosses into the `@Sendable`
/// closures.
@usableFromInline
protocol UpstreamCommands: AnyObject, Sendable {
    /// Subscribes to the upstream.
    func subscribeUpstream()
    /// Sends a request to the upstream.
    func requestUpstream(_ demand: Subscribers.Demand)
    /// Cancels the upstream.
    func cancelUpstream()
}
